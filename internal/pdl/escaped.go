package pdl

import (
	"encoding/binary"
	"math/bits"
)

// A Rest.li proposal carries its aspect's value as a JSON string whose
// decoding is JSON text: {"value":"{\"removed\": false}"}. The string's own
// escapes are mostly the \" around the strings of that text, so the walk
// of ConformsCompactHash can read the string's body as it is, taking \"
// for a quote (a key's literal is matched with its escapes); the decoding
// and its compaction are then written in one loop over the body (dropping
// the backslashes, and the spaces outside strings for the compaction).
// Anything else (another escape, a control byte, a byte past ASCII) ends
// the walk, and the caller reads the string as before.

// escWalk marks a jsonParser walking an escaped text (see strBodyEsc).
type escWalk struct{}

// keyAt reports whether the literal of f's key is at p.pos, as p reads
// keys (escaped or not).
func (f *cField) keyAt(p *jsonParser) bool {
	if p.esc != nil {
		return f.escLit.at(p.data, p.pos)
	}
	return f.lit.at(p.data, p.pos)
}

// keyLen is the length of the literal keyAt found.
func (f *cField) keyLen(p *jsonParser) int {
	if p.esc != nil {
		return f.escLit.n
	}
	return f.lit.n
}

// strBodyEsc is strBody in an escaped text: the literal at p.pos is \"
// then plain ASCII bytes then \".
func (p *jsonParser) strBodyEsc() (body []byte, plain, ok bool) {
	d, i := p.data, p.pos
	if i+1 >= len(d) || d[i] != '\\' || d[i+1] != '"' {
		return nil, false, false
	}
	j := i + 2
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
	p.pos = j + 2
	return d[i+2 : j], true, true
}

// escStops marks, as strStops does, the first byte of w that the decoding
// loop of an escaped text does not copy as it is: a backslash (of \", the
// body's only escape: it holds no other quote), a space or a control
// character.
func escStops(w uint64) uint64 {
	b := w ^ swarLow*'\\'
	return ((b-swarLow)&^b | (w-swarLow*0x21)&^w) & swarHigh
}

// escDecode writes the decoding of text, the body of a JSON string whose
// only escapes are \" (as the walk found it), to raw[rn:] and its
// compaction (the spaces outside the decoding's strings left out) to
// compact[cn:]; both have room for len(text) bytes and eight more. It
// returns their new lengths and false when text holds a control byte.
func escDecode(raw, compact []byte, rn, cn int, text []byte) (int, int, bool) {
	in := false // within a string of the decoding
	i := 0
	for i < len(text) {
		if i+8 <= len(text) {
			w := binary.LittleEndian.Uint64(text[i:])
			binary.LittleEndian.PutUint64(raw[rn:], w)
			binary.LittleEndian.PutUint64(compact[cn:], w)
			m := escStops(w)
			if m == 0 {
				i, rn, cn = i+8, rn+8, cn+8
				continue
			}
			k := int(uint(bits.TrailingZeros64(m)) >> 3)
			i, rn, cn = i+k, rn+k, cn+k
		}
		switch text[i] {
		case '\\': // \": a quote
			raw[rn], compact[cn] = '"', '"'
			rn, cn, i = rn+1, cn+1, i+2
			in = !in
			continue
		case ' ':
			raw[rn], compact[cn] = ' ', ' '
			rn++
			if in {
				cn++
			}
		default:
			if text[i] < ' ' {
				return 0, 0, false
			}
			raw[rn], compact[cn] = text[i], text[i]
			rn, cn = rn+1, cn+1
		}
		i++
	}
	return rn, cn, true
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
	p := jsonParser{data: data, pos: start + 1, hashing: true, urns: true, esc: &escWalk{}}
	p.ws()
	hash, ok := p.conformsRecord(h.rec, 1)
	if !ok {
		return HeldEscaped{}, false
	}
	p.ws()
	if p.pos >= len(data) || data[p.pos] != '"' {
		return HeldEscaped{}, false
	}
	if p.unhashed {
		hash = 0
	}
	text := data[start+1 : p.pos]
	rn, cn := len(raw), len(compact)
	if cap(raw)-rn < len(text)+8 {
		raw = make([]byte, 0, len(text)+8)
		rn = 0
	}
	if cap(compact)-cn < len(text)+8 {
		compact = make([]byte, 0, len(text)+8)
		cn = 0
	}
	r, c := raw[:cap(raw)], compact[:cap(compact)]
	rEnd, cEnd, ok := escDecode(r, c, rn, cn, text)
	if !ok {
		return HeldEscaped{}, false
	}
	out := HeldEscaped{Raw: r[rn:rEnd], Compact: c[cn:cEnd], Hash: hash, End: p.pos + 1}
	if rEnd-rn == cEnd-cn { // no space left out
		out.Compact = out.Raw
	}
	return out, true
}
