package emitter

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
)

// TestAspectValueIsASCII pins how non-ASCII text travels in
// GenericAspect.value: as \uXXXX escapes inside the aspect's JSON text, as
// Python's json.dumps writes it (GMS reads the value as Pegasus bytes, one
// character per byte).
func TestAspectValueIsASCII(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, description, want string
	}{
		{"ascii", "plain", `{"customProperties":{},"description":"plain","tags":[]}`},
		{"latin1", "café", `{"customProperties":{},"description":"caf\u00e9","tags":[]}`},
		{"cjk", "日本", `{"customProperties":{},"description":"\u65e5\u672c","tags":[]}`},
		{"astral", "😀", `{"customProperties":{},"description":"\ud83d\ude00","tags":[]}`},
		{"line separator", "a\u2028b", `{"customProperties":{},"description":"a\u2028b","tags":[]}`},
		{"mixed", "é\"x\"😀", `{"customProperties":{},"description":"\u00e9\"x\"\ud83d\ude00","tags":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			a := aspects.DatasetProperties{Description: aspects.Ptr(tt.description)}
			var buf bytes.Buffer
			if err := encodeAspect(&buf, a); err != nil {
				t.Fatal(err)
			}
			got := string(escapeNonASCII(&buf))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("aspect value mismatch (-want +got):\n%s", diff)
			}
			for i := range len(got) {
				if got[i] >= 0x80 {
					t.Fatalf("byte %d of %q is not ASCII", i, got)
				}
			}
		})
	}
}
