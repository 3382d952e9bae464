package pdl

import "testing"

// TestScannerPlainString: PlainString decodes as String does, and reports
// plain exactly for the literals without escapes whose bytes are ASCII.
func TestScannerPlainString(t *testing.T) {
	for _, c := range []struct {
		text  string
		plain bool
	}{
		{`"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"`, true},
		{`""`, true},
		{`"a\"b"`, false},
		{`"a\u0062"`, false},
		{`"é"`, false},
		{"\"\x7f\"", true},
	} {
		var a, b Scanner
		a.Reset([]byte(c.text))
		b.Reset([]byte(c.text))
		got, plain, ok := a.PlainString()
		want, wantOK := b.String()
		if got != want || ok != wantOK || plain != c.plain || a.Pos() != b.Pos() {
			t.Errorf("PlainString(%s) = %q %v %v at %d; String %q %v at %d, want plain %v", c.text, got, plain, ok, a.Pos(), want, wantOK, b.Pos(), c.plain)
		}
	}
	var s Scanner
	s.Reset([]byte("\"a\x01\""))
	if _, _, ok := s.PlainString(); ok {
		t.Error("PlainString took a control byte")
	}
}
