package pdl_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// checkOutline checks o against ObjectMembers and ArrayElements on every
// container of the document down to depth, and that deeper ones are not
// recorded.
func checkOutline(t *testing.T, o *pdl.Outline, v []byte, lvl, depth int) {
	t.Helper()
	wantMs, isObj := pdl.ObjectMembers(v)
	wantEs, isArr := pdl.ArrayElements(v)
	gotMs, okMs := o.AppendMembers(nil, v)
	if okMs && gotMs == nil {
		gotMs = []pdl.Member{}
	}
	gotEs, okEs := o.Elements(v)
	if lvl > depth {
		if okMs || okEs {
			t.Fatalf("level %d of %d recorded: %q", lvl, depth, v)
		}
		return
	}
	if okMs != isObj || okEs != isArr {
		t.Fatalf("AppendMembers(%q) ok %v, Elements ok %v; want %v, %v", v, okMs, okEs, isObj, isArr)
	}
	if diff := cmp.Diff(wantMs, gotMs, cmp.Comparer(bytes.Equal)); isObj && diff != "" {
		t.Fatalf("AppendMembers(%q) (-want +got):\n%s", v, diff)
	}
	if diff := cmp.Diff(wantEs, gotEs, cmp.Comparer(bytes.Equal)); isArr && diff != "" {
		t.Fatalf("Elements(%q) (-want +got):\n%s", v, diff)
	}
	for _, m := range gotMs {
		checkOutline(t, o, m.Value, lvl+1, depth)
		want, wantOK := pdl.UnquoteJSON(m.Value)
		if got, ok := o.Unquote(m.Value); got != want || ok != wantOK {
			t.Fatalf("Unquote(%q) = %q, %v; UnquoteJSON %q, %v", m.Value, got, ok, want, wantOK)
		}
	}
	for _, e := range gotEs {
		checkOutline(t, o, e, lvl+1, depth)
	}
	// What Members and Elements returned stays as it was.
	if diff := cmp.Diff(wantMs, gotMs, cmp.Comparer(bytes.Equal)); isObj && diff != "" {
		t.Fatalf("AppendMembers(%q) after the levels below (-want +got):\n%s", v, diff)
	}
	if diff := cmp.Diff(wantEs, gotEs, cmp.Comparer(bytes.Equal)); isArr && diff != "" {
		t.Fatalf("Elements(%q) after the levels below (-want +got):\n%s", v, diff)
	}
}

func FuzzOutline(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s), 2)
	}
	f.Add([]byte(`{"proposals":[{"a":{"b":[1,{"c":2}]},"a":[]},[[]],{}], "async" : "false"}`), 4)
	f.Fuzz(func(t *testing.T, data []byte, depth int) {
		depth = max(depth%6, 0)
		var o pdl.Outline
		for range 2 { // again into the same memory
			if got, want := o.Parse(data, depth), pdl.Valid(data); got != want {
				t.Fatalf("Parse(%q) = %v, Valid %v", data, got, want)
			}
			if !pdl.Valid(data) {
				if o.Top() != nil {
					t.Fatalf("Parse(%q) failed with Top %q", data, o.Top())
				}
				return
			}
			if top := bytes.Trim(data, " \t\r\n"); !bytes.Equal(o.Top(), top) {
				t.Fatalf("Top = %q, want %q", o.Top(), top)
			}
			checkOutline(t, &o, o.Top(), 1, depth)
		}
	})
}

func TestOutline(t *testing.T) {
	t.Parallel()
	data := []byte(` {"a": [1, {"b": {"c": {}}}], "d": "x", "a": {"e": []}} `)
	var o pdl.Outline
	if !o.Parse(data, 3) {
		t.Fatal("Parse = false")
	}
	checkOutline(t, &o, o.Top(), 1, 3)
	top, _ := o.AppendMembers(nil, o.Top())
	// Not members of the document: the same text elsewhere, a part of a
	// value, a value at a level deeper than recorded, a string.
	inner := data[bytes.Index(data, []byte(`{"c"`)):]
	inner = inner[:bytes.IndexByte(inner, '}')+1]
	copied := bytes.Clone(o.Top())
	for _, v := range [][]byte{copied, o.Top()[1:], o.Top()[:len(o.Top())-1], top[0].Value[:3], inner, top[1].Value, nil} {
		if ms, ok := o.AppendMembers(nil, v); ok {
			t.Errorf("AppendMembers(%q) = %v", v, ms)
		}
		if es, ok := o.Elements(v); ok {
			t.Errorf("Elements(%q) = %q", v, es)
		}
	}
	// Parsing again forgets the first document.
	if o.Parse([]byte(`[1`), 3) || o.Top() != nil {
		t.Fatalf("Parse of invalid JSON = true or Top %q", o.Top())
	}
	if ms, ok := o.AppendMembers(nil, data[1:len(data)-1]); ok {
		t.Errorf("AppendMembers after a failed Parse = %v", ms)
	}
}
