package pdl

import (
	"bytes"
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

// checkSkipText holds SkipText to white space then bytes.HasPrefix: whether
// it moves, and where to.
func checkSkipText(t *testing.T, data, text []byte, at int) {
	t.Helper()
	var sc Scanner
	sc.Reset(data)
	sc.Seek(at)
	i := at
	for i < len(data) && isSpace[data[i]] {
		i++
	}
	want, wantPos := len(text) > 0 && bytes.HasPrefix(data[i:], text), i
	if want {
		wantPos += len(text)
	}
	if got := sc.SkipText(text); got != want || sc.Pos() != wantPos {
		t.Fatalf("SkipText(%q) at %d of %q = %v at %d, want %v at %d", text, at, data, got, sc.Pos(), want, wantPos)
	}
}

// TestSkipText: SkipText, whose texts of 8 to 16 bytes are compared a word
// at a time, against text of every length with a difference at each byte,
// and at the end of the data.
func TestSkipText(t *testing.T) {
	t.Parallel()
	const full = `"systemMetadata": {"lastObserved": 1}`
	for n := range 20 {
		text := []byte(full[:n])
		for at := range n + 1 {
			data := []byte(" \n  " + full)
			if at < n {
				data[4+at] ^= 0x20 // one byte differs
			}
			checkSkipText(t, data, text, 0)
			checkSkipText(t, data[:4+n], text, 0)           // the text ends the data
			checkSkipText(t, data[:4+max(n-1, 0)], text, 0) // the data ends first
		}
	}
}

// FuzzSkipText holds SkipText to white space then bytes.HasPrefix.
func FuzzSkipText(f *testing.F) {
	f.Add([]byte(` "entityType": "dataset"`), []byte(`"entityType":`), 0)
	f.Add([]byte(`"application/json"}`), []byte(`"application/json"`), 0)
	f.Add([]byte(`"value":"x"`), []byte(`"value":`), 0)
	f.Fuzz(func(t *testing.T, data, text []byte, at int) {
		if at < 0 || at > len(data) {
			at = 0
		}
		checkSkipText(t, data, text, at)
	})
}
