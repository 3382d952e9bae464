package pdl

import (
	"maps"
	"strings"
	"testing"
)

// TestScanner reads a document of a known shape token by token.
func TestScanner(t *testing.T) {
	t.Parallel()
	var sc Scanner
	sc.Reset([]byte(` {"k" : "v\u0041", "b": "x\ny", "n": {"a": [1]}, "l": [] } `))
	if empty, ok := sc.Enter('{'); empty || !ok {
		t.Fatalf("Enter = %v, %v", empty, ok)
	}
	var got []string
	for more := true; more; {
		key, plain, ok := sc.Key()
		if !ok || !plain {
			t.Fatalf("Key at %d = %q, %v, %v", sc.Pos(), key, plain, ok)
		}
		switch string(key) {
		case "k":
			s, ok := sc.String()
			if !ok {
				t.Fatal("String failed")
			}
			got = append(got, s)
		case "b":
			b, ok := sc.AppendString([]byte("<"))
			if !ok {
				t.Fatal("AppendString failed")
			}
			got = append(got, string(b))
		case "n":
			v, ok := sc.Value(2)
			if !ok {
				t.Fatal("Value failed")
			}
			got = append(got, string(v))
		case "l":
			if empty, ok := sc.Enter('['); !empty || !ok {
				t.Fatalf("Enter([) = %v, %v", empty, ok)
			}
		}
		var ok2 bool
		if more, ok2 = sc.Next('}'); !ok2 {
			t.Fatalf("Next at %d failed", sc.Pos())
		}
	}
	if !sc.Done() {
		t.Fatal("not done")
	}
	if want := []string{"vA", "<x\ny", `{"a": [1]}`}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, bad := range []string{`"a\x"`, "\"a\x01\"", `"abc`} {
		sc.Reset([]byte(bad))
		if _, ok := sc.AppendString(nil); ok {
			t.Errorf("AppendString(%q) accepted it", bad)
		}
	}
	sc.Reset([]byte(`[` + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + `]`))
	if _, ok := sc.Value(1); ok {
		t.Error("Value accepted nesting beyond the limit")
	}
}

func TestScannerStringMap(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]map[string]string{
		`{}`:                           {},
		` { "a" : "b", "c":"\u00e9" }`: {"a": "b", "c": "é"},
		`{"a":"b","a":"c"}`:            nil, // a key twice
		`{"a":1}`:                      nil,
		`{"\u0061":"b"}`:               nil, // a key with an escape
		`["a"]`:                        nil,
		`{"a":"b"`:                     nil,
	} {
		var s Scanner
		s.Reset([]byte(in))
		got, ok := s.StringMap()
		if ok != (want != nil) || (ok && !maps.Equal(got, want)) {
			t.Errorf("StringMap(%s) = %v, %v; want %v", in, got, ok, want)
		}
	}
}
