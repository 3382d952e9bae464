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

// TestScanSystemMetadata reads a repeated systemMetadata once and its
// repeats by their text, and a changed one afresh.
func TestScanSystemMetadata(t *testing.T) {
	t.Parallel()
	d := Doc{Memo: &Memo{Chunk: 1024}}
	var s pdl.Scanner
	s.Reset([]byte(`[{"runId": "a"}, {"runId": "a"}, {"runId": "a", "lastObserved": 5}, {"runId": 1}]`))
	s.Enter('[')
	var got []string
	for more := true; more; {
		c, ok := d.ScanSystemMetadata(&s, 2)
		if !ok {
			got = append(got, "refused")
			s.Value(2)
		} else {
			got = append(got, string(c))
		}
		more, _ = s.Next(']')
	}
	want := `{"runId":"a"}|{"runId":"a"}|{"runId":"a","lastObserved":5}|refused`
	if strings.Join(got, "|") != want {
		t.Errorf("got %s, want %s", strings.Join(got, "|"), want)
	}
}
