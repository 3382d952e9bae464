package jsonx

import "testing"

func TestHelpers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in      string
		object  bool
		compact string
	}{
		{` { "a" : [1, 2], "b":{} } `, true, `{"a":[1,2],"b":{}}`},
		{`[1, 2]`, false, `[1,2]`},
		{"{}\v", false, "{}\v"},
		{`{"a":`, false, `{"a":`},
	} {
		if got := IsObject([]byte(tc.in)); got != tc.object {
			t.Errorf("IsObject(%q) = %v", tc.in, got)
		}
		if got := string(Compact([]byte(tc.in))); got != tc.compact {
			t.Errorf("Compact(%q) = %q, want %q", tc.in, got, tc.compact)
		}
	}
	if !Equal([]byte(`{"a":1,"b":[true]}`), []byte(`{ "b":[true], "a":1 }`)) || Equal([]byte(`{"a":1}`), []byte(`{"a":2}`)) {
		t.Error("Equal compares data, key order aside")
	}
	if got := string(Canonical([]byte(`{"b":1,"a":{"d":2,"c":3}}`))); got != `{"a":{"c":3,"d":2},"b":1}` {
		t.Errorf("Canonical = %s", got)
	}
}
