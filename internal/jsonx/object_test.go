package jsonx

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestObject(t *testing.T) {
	t.Parallel()
	o := Object{{Key: "a", Value: json.RawMessage(`1`)}, {Key: "b", Value: json.RawMessage(`2`)}, {Key: "a", Value: json.RawMessage(`3`)}}
	o = o.Dedupe()
	if got := fmt.Sprintf("%s", o); got != "[{a 3} {b 2}]" {
		t.Fatalf("Dedupe = %s, want the last a where a first was", got)
	}
	o.Set("b", json.RawMessage(`4`))
	o.Set("c", json.RawMessage(`5`))
	o.Del("a")
	o.Del("missing")
	if v, ok := o.Get("b"); !ok || string(v) != "4" {
		t.Errorf("Get(b) = %s, %v", v, ok)
	}
	if _, ok := o.Get("a"); ok {
		t.Error("a is still there after Del")
	}
	if got := fmt.Sprintf("%s", o); got != "[{b 4} {c 5}]" {
		t.Errorf("object = %s", got)
	}
	same := Object{{Key: "x", Value: json.RawMessage(`1`)}}
	if d := same.Dedupe(); &d[0] != &same[0] {
		t.Error("Dedupe copied an object without repeated keys")
	}
}
