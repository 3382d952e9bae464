package wire

import (
	"strings"
	"testing"
)

// TestReadAllDoesNotTrustContentLength: a body announced as 60 MB that
// brings 2 bytes costs a small buffer, and a body of the announced length
// (within preallocMax) is read into one buffer of its size.
func TestReadAllDoesNotTrustContentLength(t *testing.T) {
	b, err := ReadAll(strings.NewReader("{}"), 60<<20)
	if err != nil || string(b) != "{}" {
		t.Fatalf("ReadAll = %q, %v", b, err)
	}
	if cap(b) > preallocMax+1 {
		t.Errorf("ReadAll allocated %d bytes for a 2-byte body announcing 60 MB", cap(b))
	}
	body := strings.Repeat("x", 3000)
	if b, err := ReadAll(strings.NewReader(body), 3000); err != nil || string(b) != body || cap(b) != 3001 {
		t.Errorf("ReadAll of an announced 3000 bytes: len %d cap %d, %v", len(b), cap(b), err)
	}
	big := strings.Repeat("y", 3*preallocMax)
	if b, err := ReadAll(strings.NewReader(big), int64(len(big))); err != nil || string(b) != big {
		t.Errorf("ReadAll of %d bytes: got %d, %v", len(big), len(b), err)
	}
}
