package emitter

import (
	"bytes"
	"fmt"
	"testing"
)

// checkEncodeV3Call encodes ps in one encodeV3Part call at now, with
// the usual proposals written from their shapes, and again by the general
// path alone, and fails t where an item, a result or an encoding's place
// differs between the two.
func checkEncodeV3Call(t *testing.T, r *REST, ps []Proposal, now int64, atomic, lazyURN bool) {
	t.Helper()
	encode := func(shaped bool) ([]v3Encoded, []Result, [][2]int) {
		items, results, offsets := make([]v3Encoded, len(ps)), make([]Result, len(ps)), make([][2]int, len(ps))
		var buf []byte
		r.encodeV3Part(ps, 0, items, results, offsets, now, atomic, lazyURN, shaped, &buf)
		return items, results, offsets
	}
	items, results, offsets := encode(true)
	wantItems, wantResults, wantOffsets := encode(false)
	for i := range ps {
		got, want := items[i], wantItems[i]
		if !bytes.Equal(got.enc, want.enc) || offsets[i] != wantOffsets[i] {
			t.Errorf("proposal %d (%#v) at %d, atomic %v, lazy %v:\nwrote %s at %v\nwant  %s at %v",
				i, ps[i], now, atomic, lazyURN, got.enc, offsets[i], want.enc, wantOffsets[i])
		}
		if got.item() != want.item() {
			t.Errorf("proposal %d (%#v) at %d, atomic %v, lazy %v:\nitem %+v\nwant %+v", i, ps[i], now, atomic, lazyURN, got.item(), want.item())
		}
		g, w := results[i], wantResults[i]
		if g.Index != w.Index || g.URN != w.URN || g.Aspect != w.Aspect || g.Status != w.Status || fmt.Sprint(g.Err) != fmt.Sprint(w.Err) {
			t.Errorf("proposal %d (%#v) at %d, atomic %v, lazy %v:\nresult %+v\nwant   %+v", i, ps[i], now, atomic, lazyURN, g, w)
		}
	}
}

// FuzzEncodeV3PartShapes holds encodeV3Part's usual path (the OpenAPI
// pieces of a usualShape, found once for the proposals of a shape and kept
// by the REST, which its Rest.li encoding shares) to its general path:
// calls of proposals of every kind, one after the other on one REST at
// two observation times, with and without the URN's text left to build,
// in an emit mode with headers of its own or not, so that the shapes kept
// meet proposals they do not fit (another aspect type, name, change or
// content type, a nil pointer, members of their own, a failing aspect, a
// proposal too large).
func FuzzEncodeV3PartShapes(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0}, uint16(0), uint8(0))
	f.Add([]byte{0, 0, 0, 0x40, 0, 0, 0x80, 0, 0, 0, 0, 0x08, 0, 0, 0}, uint16(300), uint8(1))
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0x28, 0, 0, 0, 0, 0x10, 0, 0x20, 0, 0, 0, 2}, uint16(0), uint8(2))
	f.Add([]byte{0x40, 0, 0, 0x30, 0, 0, 0x38, 0x0c, 0, 0x08, 0, 1, 0x41, 0, 0, 0x80, 0, 0}, uint16(1), uint8(7))
	f.Add([]byte{0, 0x04, 0, 0, 0, 0, 0, 0x0c, 0, 0, 0, 0x18}, uint16(0), uint8(3))
	fields := newShapeFields(f)
	f.Fuzz(func(t *testing.T, in []byte, limit uint16, flags uint8) {
		r, err := NewREST("http://localhost:8080")
		if err != nil {
			t.Fatal(err)
		}
		if limit != 0 {
			r.maxBytes = 300 + int(limit)%300 // some proposals too large
		}
		if flags&4 != 0 {
			r.mode = EmitSyncWait // a header on every element
		}
		atomic, lazy := flags&1 != 0, flags&2 != 0
		var ps []Proposal
		for i := 0; i+2 < len(in); i += 3 {
			ps = append(ps, fields.proposal(in[i], in[i+1], in[i+2]))
		}
		half := len(ps) / 2
		checkEncodeV3Call(t, r, ps[:half], 1700000000000, atomic, lazy)
		checkEncodeV3Call(t, r, ps[half:], 1700000000000, atomic, !lazy)
		checkEncodeV3Call(t, r, ps, 1700000000001, atomic, lazy)
	})
}

// TestEncodeV3PartShapes is FuzzEncodeV3PartShapes over every proposal
// the first byte picks (URN, aspect name, aspect value), usual in its
// other members or not in each of them, between usual proposals and
// before one alike but for those members, on one REST, with and without
// the URN's text left to build, in a mode with headers of its own or not,
// and with a size limit the first proposal of each call just passes or
// just fails.
func TestEncodeV3PartShapes(t *testing.T) {
	t.Parallel()
	fields := newShapeFields(t)
	for _, mode := range []EmitMode{EmitSyncPrimary, EmitSyncWait, EmitAsync, EmitAsyncWait} {
		r, err := NewREST("http://localhost:8080")
		if err != nil {
			t.Fatal(err)
		}
		r.mode = mode
		if mode == EmitAsync || mode == EmitAsyncWait {
			// The first proposal of each call is one byte too large
			// (EmitAsync), or just fits (EmitAsyncWait).
			items, _ := r.encodeV3On(1, []Proposal{fields.proposal(0, 0, 0)}, false)
			r.maxBytes = len(items[0].enc) + 1
			if mode == EmitAsyncWait {
				r.maxBytes++
			}
		}
		shapeCalls(fields, func(ps []Proposal, cu int) {
			checkEncodeV3Call(t, r, ps, 1700000000000+int64(cu%3), cu%2 == 0, cu%4 < 2)
		})
	}
}

// v3Item is a v3Encoded but for its encoding, to compare.
type v3Item struct {
	kind                         v3Kind
	method, path, key            string
	urn, aspect                  string
	unsafe, skipOK, createEntity bool
}

// item returns it but for its encoding.
func (it v3Encoded) item() v3Item {
	return v3Item{it.kind, it.method, it.path, it.key, it.urn, it.aspect, it.unsafe, it.skipOK, it.createEntity}
}
