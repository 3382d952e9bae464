package wire

import (
	"encoding/json"
	"unsafe"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// DetachBody gives the values of ps that share body's memory (a body read
// into a pooled buffer) copies of their own, all in one allocation, before
// the core and the recorder, which may keep them past the request (the
// async queue, say), see them: the buffer can then serve the next request.
// A value that is the same slice as the
// same field's of the proposal before it (a batch's repeated
// systemMetadata) gets the same copy. Strings never share body.
// AspectLiteral is left in body: the core reads it only during the call
// it gets the proposals in, and the recorder (which copies what it keeps)
// before the request ends.
func DetachBody(ps []gms.Proposal, body []byte) {
	// The size of the copies first, for one allocation.
	n := 0
	var last [3][]byte // each field's last value in body
	for i := range ps {
		p := &ps[i]
		n += detachSize(p.EntityKeyAspect, body, &last[0]) + detachSize(p.Aspect, body, &last[1]) +
			detachSize(p.SystemMetadata, body, &last[2])
	}
	if n == 0 {
		return
	}
	d := detacher{body: body, arena: make([]byte, 0, n)}
	for i := range ps {
		p := &ps[i]
		d.detach(&p.EntityKeyAspect, 0)
		d.detach(&p.Aspect, 1)
		d.detach(&p.SystemMetadata, 2)
	}
}

// detachSize is the size of v's copy when it is in body and not *last,
// which it then becomes; else 0.
func detachSize(v, body []byte, last *[]byte) int {
	if !within(v, body) || sameSlice(v, *last) {
		return 0
	}
	*last = v
	return len(v)
}

// detacher copies values out of body into arena, the same slice as the
// last one of its field (0 to 2) into the same copy.
type detacher struct {
	body, arena  []byte
	last, copies [3][]byte
}

// detach gives *v, of field f, its copy when it is in body.
func (d *detacher) detach(v *json.RawMessage, f int) {
	if !within(*v, d.body) {
		return
	}
	if !sameSlice(*v, d.last[f]) {
		start := len(d.arena)
		d.arena = append(d.arena, *v...)
		d.last[f], d.copies[f] = *v, d.arena[start:len(d.arena):len(d.arena)]
	}
	*v = d.copies[f]
}

// within reports whether b starts inside buf's memory.
func within(b, buf []byte) bool {
	if len(b) == 0 || cap(buf) == 0 {
		return false
	}
	p, lo := uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	return lo <= p && p < lo+uintptr(cap(buf))
}

// sameSlice reports whether a and b are the same memory of one length.
func sameSlice(a, b []byte) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}
