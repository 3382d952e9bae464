package graphql

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendStringMatchesEncodingJSON pins the answers' strings to
// encoding/json's bytes with HTML escaping off (the answers once wrote
// \u0008 and \u000c where encoding/json writes \b and \f).
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"plain", "a\bb\fc\n", `<&> "q" \`, "\u2028", "\xff", "é"} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got, want := string(appendString(nil, s)), string(bytes.TrimSpace(buf.Bytes())); got != want {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}
