package pdl

import (
	"encoding/binary"
	"math/bits"
)

// A Rest.li proposal carries its aspect's value as a JSON string whose
// decoding is JSON text: {"value":"{\"removed\": false}"}. The string's own
// escapes are mostly the \" around the strings of that text, so the walk
// of ConformsCompactHash can read the string's body as it is: it takes \"
// for a quote, and builds the decoding and its compaction as it goes, a
// string at a time (the text between two strings, without its spaces for
// the compaction, then the string). Anything else (another escape, a
// control byte, a byte past ASCII) ends the walk, and the caller reads the
// string as before.

// escWalk is what a walk of an escaped text builds beside the jsonParser
// (whose compactor is unset).
type escWalk struct {
	// raw is the decoding of the text before from, and compact its
	// compaction while spaced (before, the compaction is raw).
	raw, compact []byte
	base         int // the length of raw before the walk
	from         int
	spaced       bool
	// bad reports a byte the walk does not read (a control byte, which
	// the text escapes).
	bad bool
}

// between adds seg, text between two strings (or before the first or
// after the last), to the decoding and the compaction.
func (e *escWalk) between(seg []byte) {
	e.raw = append(e.raw, seg...)
	for k, c := range seg {
		if c > ' ' {
			if e.spaced {
				e.compact = append(e.compact, c)
			}
			continue
		}
		if c != ' ' {
			e.bad = true
			return
		}
		if !e.spaced { // the first space: the compaction is the decoding so far
			e.spaced = true
			e.compact = append(e.compact, e.raw[e.base:len(e.raw)-len(seg)+k]...)
		}
	}
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
	e := p.esc
	e.between(d[e.from:i])
	lit := d[i+1 : j+2] // the literal, its closing backslash aside
	e.raw = append(append(e.raw, lit[:len(lit)-2]...), '"')
	if e.spaced {
		e.compact = append(append(e.compact, lit[:len(lit)-2]...), '"')
	}
	e.from = j + 2
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
	e := escWalk{raw: raw, compact: compact, base: len(raw), from: start + 1}
	p := jsonParser{data: data, pos: start + 1, hashing: true, urns: true, esc: &e}
	p.ws()
	hash, ok := p.conformsRecord(h.rec, 1)
	if !ok {
		return HeldEscaped{}, false
	}
	p.ws()
	if p.pos >= len(data) || data[p.pos] != '"' {
		return HeldEscaped{}, false
	}
	e.between(data[e.from:p.pos])
	if e.bad {
		return HeldEscaped{}, false
	}
	if p.unhashed {
		hash = 0
	}
	out := HeldEscaped{Raw: e.raw[len(raw):], Hash: hash, End: p.pos + 1}
	out.Compact = out.Raw
	if e.spaced {
		out.Compact = e.compact[len(compact):]
	}
	return out, true
}
