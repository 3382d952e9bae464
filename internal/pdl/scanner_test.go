package pdl

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzScannerDelimit checks that Delimit splits valid JSON exactly where
// a validating parse ends the value, and quoteEnd where scanStr ends a
// valid string.
func FuzzScannerDelimit(f *testing.F) {
	for _, s := range []string{`{"a": "b\"}", "c": [1, {"d": "\\"}]}`, `"\\\\\\\""`, `[1,2, 3]`, `12`, `true`,
		`"` + strings.Repeat(`\"`, 9) + `"`, `"1234567\\"`, `"123456\\\\"`, `"1234567\"89"`, `{"value": "{\"owners\": [{\"owner\": \"urn:li:corpuser:fbar\"}]}"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		data := []byte(s + " ,")
		var sc Scanner
		sc.Reset(data)
		got, ok := sc.Delimit()
		if json.Valid([]byte(s)) {
			if want := strings.TrimSpace(s); !ok || string(got) != want {
				t.Fatalf("Delimit(%q) = %q, %v; want %q", s, got, ok, want)
			}
		}
		if p := (jsonParser{data: []byte(s)}); len(s) > 0 && s[0] == '"' {
			if end, _, ok := p.scanStr(); ok {
				if got := quoteEnd([]byte(s), 1); got != end {
					t.Fatalf("quoteEnd(%q) = %d, want %d", s, got, end)
				}
			}
		}
	})
}

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

// TestNextBracket checks nextBracket's word test against every byte, at
// every position of a word.
func TestNextBracket(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		want := strings.IndexByte(`"{}[]`, byte(c)) >= 0
		for at := range 11 {
			d := []byte(strings.Repeat("a", 11))
			d[at] = byte(c)
			got := nextBracket(d, 0)
			if want && got != at || !want && got != len(d) {
				t.Fatalf("nextBracket of byte %#x at %d = %d", c, at, got)
			}
		}
	}
}
