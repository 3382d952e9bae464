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

func TestCompactValueEnd(t *testing.T) {
	t.Parallel()
	tests := []struct {
		b    string
		i    int
		want int
	}{
		{`{"a":1}`, 5, 6},
		{`{"a":-1.5e3,"b":2}`, 5, 11},
		{`{"a":"x\"}","b":2}`, 5, 11},
		{`{"a":"\\","b":2}`, 5, 9},
		{`{"a":{"b":[1,{"c":"]}"}]},"d":null}`, 5, 25},
		{`[true,false]`, 1, 5},
		{`{"a":[]}`, 5, 7},
		{`{"a":1 }`, 5, -1},       // white space after the value
		{`{"a":{"b": 1}}`, 5, 13}, // white space inside it
		{`{"a":"unterminated`, 5, -1},
		{`{"a":[1,2`, 5, -1},
		{`{"a":1`, 5, -1},
	}
	for _, tc := range tests {
		if got := CompactValueEnd([]byte(tc.b), tc.i); got != tc.want {
			t.Errorf("CompactValueEnd(%s, %d) = %d, want %d", tc.b, tc.i, got, tc.want)
		}
	}
}
