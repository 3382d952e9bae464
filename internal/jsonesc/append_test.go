package jsonesc

import (
	"bytes"
	"encoding/json"
	"testing"
)

// encodingJSON is s as encoding/json writes it, HTML escaping on or off.
func encodingJSON(t *testing.T, s string, html bool) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(html)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

var appendCases = []string{
	"", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", `a"b\c`, "\b\f\n\r\t\x00\x01\x1f\x7f",
	"<a href='x'>&amp;</a>", "é ü 中文 🙂", "\u2028\u2029", "\xff\xfe bad \xc3", "tail\xe2\x80",
	"0123456789abcdef<0123456789abcdef", "plain words long enough to take the word-at-a-time path\n",
}

func TestAppendString(t *testing.T) {
	t.Parallel()
	for _, s := range appendCases {
		if got, want := string(AppendString(nil, s)), encodingJSON(t, s, false); got != want {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(AppendString([]byte("x"), []byte(s))), "x"+encodingJSON(t, s, false); got != want {
			t.Errorf("AppendString([]byte(%q)) = %s, want %s", s, got, want)
		}
		if got, want := `"`+string(AppendStringBody([]byte{}, s))+`"`, encodingJSON(t, s, false); got != want {
			t.Errorf("AppendStringBody(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(AppendStringHTML(nil, s)), encodingJSON(t, s, true); got != want {
			t.Errorf("AppendStringHTML(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range appendCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(AppendString(nil, s)), encodingJSON(t, s, false); got != want {
			t.Fatalf("AppendString(%q) = %s, want %s", s, got, want)
		}
		if got, want := string(AppendStringHTML(nil, s)), encodingJSON(t, s, true); got != want {
			t.Fatalf("AppendStringHTML(%q) = %s, want %s", s, got, want)
		}
	})
}

func BenchmarkAppendString(b *testing.B) {
	s := "urn:li:dataset:(urn:li:dataPlatform:hive,db.table_00001,PROD) with a description of some length"
	buf := make([]byte, 0, 256)
	for b.Loop() {
		buf = AppendString(buf[:0], s)
	}
}
