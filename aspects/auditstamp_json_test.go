package aspects

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAuditStampAppendJSON holds AuditStamp.AppendJSON to encoding/json
// without HTML escaping.
func TestAuditStampAppendJSON(t *testing.T) {
	t.Parallel()
	for _, a := range []AuditStamp{
		{},
		{Time: 9, Actor: "urn:li:corpuser:a"},
		{Time: -1, Actor: `q"<&>\u2028`, Impersonator: Ptr("i"), Message: Ptr("naïve\n")},
		{Actor: "x", Message: Ptr("")},
	} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(a); err != nil {
			t.Fatal(err)
		}
		want := append([]byte("x"), bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		if got := a.AppendJSON([]byte("x")); !bytes.Equal(got, want) {
			t.Errorf("%+v: got %s, want %s", a, got, want)
		}
	}
}
