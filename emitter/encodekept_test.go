package emitter

import (
	"bytes"
	"fmt"
	"testing"
)

// checkKeptCall encodes p alone through encodeKept at now, and fails t
// where its result, encoding or replay flag differs from the general
// path's (wantEncodePart of index 0), or where the encoding is not held
// by its chunk as encodePart's are (followed there by a comma, its
// capacity running to the chunk's end, counted in the chunk's written).
func checkKeptCall(t *testing.T, r *REST, p Proposal, now int64) {
	t.Helper()
	var items [1]encoded
	var results [1]Result
	r.encodeKept([]Proposal{p}, now, items[:], results[:])
	want, wantEnc := wantEncodePart(r, &p, 0, now)
	item, got := &items[0], results[0]
	if got.Index != want.Index || got.URN != want.URN || got.Aspect != want.Aspect || got.Status != want.Status ||
		fmt.Sprint(got.Err) != fmt.Sprint(want.Err) || got.Version != "" {
		t.Errorf("proposal %#v at %d:\nresult %+v\nwant   %+v", p, now, got, want)
	}
	if !bytes.Equal(item.enc, wantEnc) || (item.enc == nil) != (wantEnc == nil) {
		t.Errorf("proposal %#v at %d:\nwrote %s\nwant  %s", p, now, item.enc, wantEnc)
	}
	if item.unsafe != !p.replaySafe() {
		t.Errorf("proposal %#v: unsafe %v", p, item.unsafe)
	}
	c := item.chunk
	if item.enc == nil {
		if c != nil {
			t.Errorf("proposal %#v: no encoding, but a chunk", p)
		}
		return
	}
	if c == nil {
		t.Fatalf("proposal %#v: an encoding without its chunk", p)
	}
	defer c.release()
	end := c.buf[:cap(c.buf)]
	if &item.enc[:cap(item.enc)][cap(item.enc)-1] != &end[len(end)-1] {
		t.Errorf("proposal %#v: the encoding's capacity does not run to its chunk's end", p)
	}
	if at := len(c.buf) - 1 - len(item.enc); at < 0 || &c.buf[at] != &item.enc[0] || c.buf[len(c.buf)-1] != ',' {
		t.Errorf("proposal %#v: the encoding is not the chunk's last, followed by a comma", p)
	}
	if c.written < 1 {
		t.Errorf("proposal %#v: the chunk counts %d encodings written", p, c.written)
	}
}

// TestEncodeKeptShapes holds encodeKept (keptUsual for a usual proposal,
// encodePart for the others) to the general path, proposal by proposal,
// over the calls of TestEncodePartShapes on one REST, so that the shapes
// kept from earlier proposals meet proposals they do not fit.
func TestEncodeKeptShapes(t *testing.T) {
	t.Parallel()
	fields := newShapeFields(t)
	r := shapeREST(t, 0)
	shapeCalls(fields, func(ps []Proposal, cu int) {
		for _, p := range ps {
			checkKeptCall(t, r, p, 1700000000000+int64(cu%3))
		}
	})
	// Too large: the general path says so.
	r.maxBytes = 300
	for c := range 256 {
		checkKeptCall(t, r, fields.proposal(byte(c), 0, 0), 1700000000003)
	}
}

// FuzzEncodeKeptShapes is FuzzEncodePartShapes for encodeKept: proposals
// of every kind, one at a time, on one REST at two observation times,
// some too large for the REST's limit.
func FuzzEncodeKeptShapes(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0}, uint16(0))
	f.Add([]byte{0, 0, 0, 0x40, 0, 0, 0x80, 0, 0, 0, 0, 0x08, 0, 0, 0}, uint16(300))
	f.Add([]byte{0x40, 0, 0, 0x30, 0, 0, 0x38, 0x0c, 0, 0x08, 0, 1, 0x41, 0, 0, 0x80, 0, 0}, uint16(1))
	fields := newShapeFields(f)
	f.Fuzz(func(t *testing.T, in []byte, limit uint16) {
		r := shapeREST(t, limit)
		for i := 0; i+2 < len(in); i += 3 {
			p := fields.proposal(in[i], in[i+1], in[i+2])
			checkKeptCall(t, r, p, 1700000000000+int64(i/3%2))
		}
	})
}
