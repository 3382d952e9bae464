package wire

import (
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// TestScanBytes reads values shorter and longer than the memo's room into
// memory that no later value overwrites.
func TestScanBytes(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 3000)
	texts := []string{"a\\nb", long, "c", long + "y", "", "d"}
	want := []string{"a\nb", long, "c", long + "y", "", "d"}
	d := Doc{Memo: &Memo{Chunk: 2048}}
	var got [][]byte
	var s pdl.Scanner
	for _, text := range texts {
		s.Reset([]byte(`"` + text + `"`))
		b, ok := d.ScanBytes(&s, 16)
		if !ok {
			t.Fatalf("ScanBytes(%.20q) failed", text)
		}
		got = append(got, append(b, '!')[:len(b)]) // an append must not reach the next value
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("value %d = %.20q, want %.20q", i, got[i], want[i])
		}
	}
	s.Reset([]byte(`"a\x"`))
	if _, ok := d.ScanBytes(&s, 16); ok {
		t.Error("ScanBytes accepted an invalid escape")
	}
}
