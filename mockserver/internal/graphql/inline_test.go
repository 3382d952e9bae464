package graphql

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestDecodeCache(t *testing.T) {
	t.Parallel()
	var c decodeCache
	raw := json.RawMessage(`{"removed":true}`)
	a, err := decode[statusJSON](&c, "status", raw, "urn:li:x:y")
	if err != nil || !a.Removed {
		t.Fatalf("decode = %+v, %v", a, err)
	}
	b, _ := decode[statusJSON](&c, "status", json.RawMessage(`{"removed":true}`), "urn:li:x:y")
	if a != b {
		t.Error("the same JSON was decoded twice")
	}
	// The same bytes under another aspect name or as another type are not
	// taken from the entry of the first.
	if e, err := decode[editableJSON](&c, "status", raw, "urn:li:x:y"); err != nil || e == nil {
		t.Errorf("decode as another type = %v, %v", e, err)
	}
	if _, err := decode[statusJSON](&c, "status", json.RawMessage(`{"removed":1}`), "urn:li:x:y"); err == nil {
		t.Error("bad JSON decoded without error")
	}
	for i := range maxCached + 1 {
		if _, err := decode[statusJSON](&c, "status", json.RawMessage(fmt.Sprintf(`{"removed":false,"n":%d}`, i)), "u"); err != nil {
			t.Fatal(err)
		}
	}
	if c.n > maxCached {
		t.Errorf("cache holds %d entries, limit %d", c.n, maxCached)
	}
}
