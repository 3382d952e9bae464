package wire

import (
	"bytes"
	"testing"
)

func TestBodyPoolPoisons(t *testing.T) {
	var bp BodyPool
	buf := bp.Get()
	*buf = append(*buf, `{"value":"kept"}`...)
	kept := (*buf)[:len(*buf)]
	bp.Put(buf, true)
	if want := bytes.Repeat([]byte{'!'}, len(kept)); !bytes.Equal(kept, want) {
		t.Fatalf("a poisoned buffer still reads %q", kept)
	}
}

func TestBodyPoolKeepsNoHugeBuffer(t *testing.T) {
	var bp BodyPool
	buf := bp.Get()
	*buf = make([]byte, 0, MaxKeptBody+1)
	(*buf) = append(*buf, 'x')
	bp.Put(buf, true)
	if (*buf)[0] != 'x' {
		t.Fatal("a buffer too large to keep was poisoned, so it was handled as kept")
	}
	for range 4 {
		if got := bp.Get(); cap(*got) > MaxKeptBody {
			t.Fatalf("Get returned a buffer of %d bytes, past MaxKeptBody", cap(*got))
		}
	}
}
