package pdl

import (
	"encoding/binary"
	"math/bits"
)

// A Rest.li proposal carries its aspect's value as a JSON string whose
// decoding is JSON text: {"value":"{\"removed\": false}"}. The string's own
// escapes are mostly the \" around the strings of that text, so the walk
// of ConformsCompactHash can read the string's body as it is: it takes \"
// for a quote, and leaves the backslash out of the decoding it builds as it
// leaves white space out of a compaction (a gap). Anything else (another
// escape, a control byte, a byte past ASCII) ends the walk, and the caller
// reads the string as before.

// escWalk is what a walk of an escaped text keeps beside the jsonParser:
// the decoding it builds, and whether the text was fit for the walk.
type escWalk struct {
	// raw collects the decoding (the text without the backslashes of its
	// \"), as the parser's compactor collects the compaction.
	raw compactor
	// slashes is the number of backslashes left out.
	slashes int
	// bad reports white space other than a space (an escape in the text
	// read: the string's body holds no raw control byte).
	bad bool
}

// spaces notes the white space w the parser moved past.
func (e *escWalk) spaces(w []byte) {
	for _, c := range w {
		if c != ' ' {
			e.bad = true
		}
	}
}

// slash leaves the backslash at d[i] out of both texts.
func (p *jsonParser) slash(d []byte, i int) {
	if c := p.compact; !c.note(i, i+1) {
		c.gap(d, i, i+1)
	}
	if c := &p.esc.raw; !c.note(i, i+1) {
		c.gap(d, i, i+1)
	}
	p.esc.slashes++
}

// strBodyEsc is strBody in an escaped text: the literal at p.pos is \"
// then plain ASCII bytes then \".
func (p *jsonParser) strBodyEsc() (body []byte, plain, ok bool) {
	d, i := p.data, p.pos
	if i+1 >= len(d) || d[i] != '\\' || d[i+1] != '"' {
		return nil, false, false
	}
	start := i + 2
	j := start
	var seen uint64
	for {
		if j+8 > len(d) {
			for j < len(d) && strPlainByte[d[j]] {
				seen |= uint64(d[j])
				j++
			}
			break
		}
		w := binary.LittleEndian.Uint64(d[j:])
		if m := strStops(w); m != 0 {
			k := int(uint(bits.TrailingZeros64(m)) >> 3)
			seen |= w & (1<<(8*k) - 1)
			j += k
			break
		}
		seen |= w
		j += 8
	}
	if j+1 >= len(d) || d[j] != '\\' || d[j+1] != '"' || seen&swarHigh != 0 {
		return nil, false, false
	}
	p.slash(d, i)
	p.slash(d, j)
	p.pos = j + 2
	return d[start:j], true, true
}

// HeldEscaped is what [Held.ConformsEscaped] found.
type HeldEscaped struct {
	// Raw is the string's decoding, and Compact its compaction (the same
	// slice when the decoding had no white space to leave out).
	Raw, Compact []byte
	// Hash is the compaction's [Hash], 0 where the walk leaves it to Hash.
	Hash uint64
	// End is the offset after the string's closing quote.
	End int
}

// ConformsEscaped reads the JSON string literal at data[start] (its
// opening quote) in one pass, if its escapes are only the \" around the
// strings of the JSON text it holds, it holds no white space but spaces
// and no byte past ASCII, and that text conforms to h (as
// [Held.ConformsCompactHash] finds, URN checks included). The decoding is
// appended to raw and its compaction to compact (when they differ); the
// memory of each past its length may be written to, whether or not the
// walk passes, and is used when it has room (else the result is new
// memory). False says nothing of the literal: read it otherwise.
func (h Held) ConformsEscaped(data []byte, start int, raw, compact []byte) (HeldEscaped, bool) {
	if h.rec == nil || start >= len(data) || data[start] != '"' {
		return HeldEscaped{}, false
	}
	if cap(raw) == 0 {
		raw = make([]byte, 0, 256)
	}
	if cap(compact) == 0 {
		compact = make([]byte, 0, 256)
	}
	// The compactors copy the body from start+1 on.
	e := escWalk{raw: appendingTo(raw)}
	c := appendingTo(compact)
	c.from, e.raw.from = start+1, start+1
	p := jsonParser{data: data, pos: start + 1, compact: &c, hashing: true, urns: true, esc: &e}
	p.ws()
	hash, ok := p.conformsRecord(h.rec, 1)
	if !ok {
		return HeldEscaped{}, false
	}
	p.ws()
	if e.bad || p.pos >= len(data) || data[p.pos] != '"' {
		return HeldEscaped{}, false
	}
	if p.unhashed {
		hash = 0
	}
	text := data[:p.pos] // the body, from start+1
	out := HeldEscaped{Hash: hash, End: p.pos + 1}
	out.Compact = c.finish(text)[len(compact):]
	if len(out.Compact) == p.pos-start-1-e.slashes { // no white space left out
		out.Raw = out.Compact
	} else {
		out.Raw = e.raw.finish(text)[len(raw):]
	}
	return out, true
}
