package openapi

import (
	"bytes"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/par"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// quickItems is what decodeItems, checkItemAspects and itemProposals make
// of a batch POST's list in the shape DataHub's emitters send, in one pass
// that validates and decodes all of it but the aspects' values, whose ends
// only it finds (see skipContainer): an array of objects whose "urn" (a
// string) comes first and whose other members each name an aspect of the
// URN's entity, once, with an object of "value" (an object),
// "systemMetadata" (an object) and "headers" (an object of strings),
// each at most once and none null, all keys without escapes. It appends
// the proposals and their echoes to ps and echoes. ok is false for any
// other list, valid or not, which the general path then decodes (and
// answers): ps and echoes are then as they came. The lists it takes give
// the general path's proposals and echoes, or have a value that is not
// JSON, which the general path refuses (FuzzQuickItems). A list it takes
// is valid UTF-8 (see quickState.item).
func quickItems(list []byte, ps *[]gms.Proposal, echoes *[]proposalEcho) bool {
	return quickItemsIn(par.Count(len(list)/quickItemBytes, par.MinChunk), list, ps, echoes)
}

// quickItemsIn is quickItems reading the list in k chunks (see
// quickChunks) when k > 1.
func quickItemsIn(k int, list []byte, ps *[]gms.Proposal, echoes *[]proposalEcho) (ok bool) {
	sc := scanners.Get().(*pdl.Scanner)
	defer scanners.Put(sc)
	sc.Reset(list)
	n0, e0 := len(*ps), len(*echoes)
	defer func() {
		if !ok {
			clear((*ps)[n0:])
			clear((*echoes)[e0:])
			*ps, *echoes = (*ps)[:n0], (*echoes)[:e0]
		}
	}()
	empty, ok := sc.Enter('[')
	if !ok {
		return false
	}
	if empty {
		return sc.Done()
	}
	first := sc.Pos()
	// A proposal per item, the usual case, of about the first item's size.
	size := itemSize(list, first)
	n := (len(list)-first)/size + 1
	*ps, *echoes = slices.Grow(*ps, n), slices.Grow(*echoes, n)
	if k > 1 && quickChunks(sc, list, first, k, size, ps, echoes) {
		return sc.Done()
	}
	sc.Seek(first)
	q := quickState{sc: sc, d: list, from: -1, arenaSize: arenaSize(len(list) - first)}
	for more := true; more; {
		if !q.item(ps, echoes) {
			return false
		}
		if more, ok = sc.Next(']'); !ok {
			return false
		}
	}
	return q.checkRest() && sc.Done()
}

// quickItemBytes is the size of an item's text that quickItems counts on
// when it splits a list in chunks (of par.MinChunk items at least).
const quickItemBytes = 256

// quickChunks reads the items of a list, from offset first of its text
// list on, in k chunks, one per core, without a serial pass to split it
// first: chunk c starts at the first item it finds (see itemStart) from
// its share of the text on, and reads items until it reaches the next
// chunk's share (or the list's end). The chunks hold together when each
// one ended exactly where the next one started; then it appends their
// proposals and echoes and leaves sc after the list; otherwise (a text
// of the kind within a value, or a list the quick path does not take) it
// reports false, and quickItems reads the list in one piece.
//
// size is about an item's length, to size the chunks' lists.
func quickChunks(sc *pdl.Scanner, list []byte, first, k, size int, ps *[]gms.Proposal, echoes *[]proposalEcho) bool {
	parts := make([]*chunkPart, k)
	defer func() {
		for _, pt := range parts[1:] {
			if pt != nil {
				pt.put()
			}
		}
	}()
	n, _, ok := pdl.ReadListChunks(sc, list, first, k, itemStart, func(c int, s *pdl.Scanner) func() bool {
		var pt *chunkPart
		if c == 0 { // straight into the call's lists
			pt = &chunkPart{ps: *ps, echoes: *echoes}
		} else { // copied out below
			pt = chunkParts.Get().(*chunkPart)
			m := (len(list)-first)/k/size + 1
			pt.ps, pt.echoes = slices.Grow(pt.ps, m), slices.Grow(pt.echoes, m)
		}
		parts[c] = pt
		pt.q = quickState{sc: s, d: list, from: -1, arenaSize: arenaSize((len(list) - first) / k)}
		return func() bool { return pt.q.item(&pt.ps, &pt.echoes) }
	})
	for _, pt := range parts[:n] { // the text of each chunk's last items
		ok = ok && pt.q.checkRest()
	}
	if !ok {
		if parts[0] != nil { // what chunk 0 read into the call's memory
			clear(parts[0].ps[len(*ps):])
			clear(parts[0].echoes[len(*echoes):])
		}
		return false
	}
	*ps, *echoes = parts[0].ps, parts[0].echoes
	for _, pt := range parts[1:n] {
		*ps, *echoes = append(*ps, pt.ps...), append(*echoes, pt.echoes...)
	}
	return true
}

// chunkPart is what a chunk of quickChunks reads, and its quickState.
type chunkPart struct {
	ps     []gms.Proposal
	echoes []proposalEcho
	q      quickState
}

// chunkParts are the chunkParts of quickChunks, kept for the next list.
var chunkParts = sync.Pool{New: func() any { return new(chunkPart) }}

// maxKeptPart is the number of items past which a chunkPart is not kept.
const maxKeptPart = 4096

// put clears pt (no request's values stay with the pool) and gives it
// back to chunkParts, unless it grew past maxKeptPart.
func (pt *chunkPart) put() {
	if cap(pt.ps) > maxKeptPart || cap(pt.echoes) > maxKeptPart {
		return
	}
	clear(pt.ps)
	clear(pt.echoes)
	pt.ps, pt.echoes, pt.q = pt.ps[:0], pt.echoes[:0], quickState{}
	chunkParts.Put(pt)
}

// itemSize is the length of the text from the item of a list that starts
// at offset first to the next item (as itemStart finds it), or to the
// list's end, at least quickItemBytes/4: about an item's size.
func itemSize(list []byte, first int) int {
	next := -1
	if first < len(list) {
		next = itemStart(list, first+1)
	}
	if next < 0 {
		next = len(list)
	}
	return max(next-first, quickItemBytes/4)
}

// itemStart returns the offset of the first item of a list in d at or
// after i: a '{' after a ',' and before "urn" (white space aside), where
// the items of the emitters' lists start; -1 if there is none.
func itemStart(d []byte, i int) int {
	for {
		j := bytes.Index(d[i:], []byte(`"urn"`))
		if j < 0 {
			return -1
		}
		j += i
		open := j - 1
		for open >= 0 && isSpace(d[open]) {
			open--
		}
		prev := open - 1
		for prev >= 0 && isSpace(d[prev]) {
			prev--
		}
		if open >= 0 && d[open] == '{' && prev >= 0 && d[prev] == ',' {
			return open
		}
		i = j + 1
	}
}

// isSpace reports whether c is white space between JSON tokens.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// scanners are the Scanners quickItems reads with, kept for the next
// request (a Scanner keeps the names it decoded).
var scanners = sync.Pool{New: func() any { return new(pdl.Scanner) }}

// quickState is what quickItems remembers from one item to the next.
type quickState struct {
	sc *pdl.Scanner
	d  []byte // the text sc reads
	// the last aspect member's key, the entity of its URN and the aspect
	// it resolved to
	key        []byte
	entity     string
	aspectName string
	// keyText is the text of the last key that resolved, with its colon
	keyText []byte
	// the last systemMetadata's text
	sm []byte
	// noSMAfter is set once valueEndBySM found no end: the rest of the
	// list's values are skipped by skipContainer.
	noSMAfter bool
	// valueLen is the length of the last value's text: valueEndBySM's
	// guess for the next.
	valueLen int
	// from is the offset of the first item read whose text is not yet
	// checked as UTF-8 (-1: none), end the offset after the last item
	// read: the items' text is checked in spans of utf8Span bytes at
	// least, the rest by checkRest.
	from, end int
	// arena is the memory the values and systemMetadata are copied into
	// (see own), in blocks of arenaSize bytes.
	arena     []byte
	arenaSize int
}

// arenaSize is the size of the blocks of a quickState's arena for text
// bytes of a list (a chunk's share): a quarter of it, as the Rest.li quick
// decode sizes its memo's chunks, within 1 KiB and wire.MaxValueChunk.
func arenaSize(text int) int { return min(max(text/4, 1<<10), wire.MaxValueChunk) }

// own returns a copy of v in q's arena: the proposals' values and
// systemMetadata get memory of their own in the chunk that reads them,
// not by wire.DetachBody after the chunks (which leaves a value that is
// not in the body as it is), so that the pooled body can serve the next
// request (see Write).
func (q *quickState) own(v []byte) []byte {
	if cap(q.arena)-len(q.arena) < len(v) {
		q.arena = make([]byte, 0, max(len(v), q.arenaSize))
	}
	start := len(q.arena)
	q.arena = append(q.arena, v...)
	return q.arena[start:len(q.arena):len(q.arena)]
}

// utf8Span is the length of text past which quickState.item checks the
// items read since the last check as UTF-8: utf8.Valid goes 32 bytes at a
// time, then byte by byte, so that a check of each item alone would pay
// the bytes after its last 32-byte run one by one (about 200 instructions
// a call). The text of a chunk's items after its last span is checked by
// checkRest after the chunks, outside them: up to utf8Span bytes a chunk.
const utf8Span = 4 << 10

// checkRest checks the text of the items read since the last check as
// UTF-8 (see item), and reports whether it is valid.
func (q *quickState) checkRest() bool {
	ok := q.from < 0 || utf8.Valid(q.d[q.from:q.end])
	q.from = -1
	return ok
}

// item reads one element of the list into proposals and echoes. The
// elements' text is checked as UTF-8, once utf8Span bytes of it are read
// since the last check (from the first unchecked element to this one,
// with the tokens between them) and by checkRest after the last: item
// fails when the text checked is not valid. The list's other bytes are
// the scanner's tokens between elements, which are ASCII: a list
// quickItems takes is valid text (see writeBatch).
func (q *quickState) item(ps *[]gms.Proposal, echoes *[]proposalEcho) bool {
	sc := q.sc
	if q.from < 0 {
		q.from = sc.Pos()
	}
	empty, ok := sc.Enter('{')
	if !ok || empty {
		return false
	}
	if !sc.SkipText(keyURN) { // the usual text, else any spelling of it
		key, plain, ok := sc.Key()
		if !ok || !plain || string(key) != "urn" {
			return false
		}
	}
	if sc.Peek() != '"' {
		return false
	}
	urn, plain, ok := sc.PlainString()
	if !ok {
		return false
	}
	h := gms.URNHash(urn) // the answer's too (proposalEcho.urnHash)
	t, e := v3URNHashed(urn, h)
	if e != nil {
		return false
	}
	first := len(*echoes) // of this item's aspects
	for {
		more, ok := sc.Next('}')
		if !ok {
			return false
		}
		if !more {
			if q.end = sc.Pos(); q.end-q.from >= utf8Span {
				return q.checkRest()
			}
			return true
		}
		name, ok := q.aspectKey(t)
		if !ok {
			return false
		}
		for _, ec := range (*echoes)[first:] {
			if ec.aspect == name {
				return false // an aspect twice in one item
			}
		}
		p := gms.Proposal{EntityType: t.Entity.Name, EntityURN: urn, ChangeType: "UPSERT", AspectName: name,
			ContentType: "application/json"}
		if !q.part(&p) {
			return false
		}
		*ps = append(*ps, p)
		*echoes = append(*echoes, proposalEcho{urn: urn, aspect: name, value: p.Aspect, sm: p.SystemMetadata, plainURN: plain,
			urnHash: h})
	}
}

// The keys of the emitters' text, with their colons.
var (
	keyURN   = []byte(`"urn":`)
	keyValue = []byte(`"value":`)
	keySM    = []byte(`"systemMetadata":`)
)

// aspectKey reads an item's member key after its URN, and resolves it to
// an aspect of t's entity (see aspect); ok is false for a key that names
// none, or is not plain. The text of the last key that resolved is
// remembered: a batch's items most often name the same aspect.
func (q *quickState) aspectKey(t gms.Target) (string, bool) {
	sc := q.sc
	if q.keyText != nil && t.Entity.Name == q.entity && sc.SkipText(q.keyText) {
		return q.aspectName, true
	}
	sc.Peek() // past white space
	start := sc.Pos()
	key, plain, ok := sc.Key()
	if !ok || !plain || string(key) == "urn" {
		return "", false
	}
	name, ok := q.aspect(t, key)
	if ok {
		q.keyText = q.d[start:sc.Pos()]
	}
	return name, ok
}

// aspect resolves an item's member key to an aspect of t's entity, as
// gms.ItemAspect does; ok is false for a key that names none.
func (q *quickState) aspect(t gms.Target, key []byte) (string, bool) {
	if q.key != nil && bytes.Equal(key, q.key) && t.Entity.Name == q.entity {
		return q.aspectName, true
	}
	name, ok := gms.ItemAspect(t, string(key))
	if !ok {
		return "", false
	}
	q.key, q.entity, q.aspectName = key, t.Entity.Name, name
	return name, true
}

// The members of an aspect part quickState.part reads, as bits of a set.
const (
	partValue = 1 << iota
	partSystemMetadata
	partHeaders
)

// part reads an aspect member's object into p: its value, systemMetadata
// and headers.
func (q *quickState) part(p *gms.Proposal) bool {
	sc := q.sc
	empty, ok := sc.Enter('{')
	if !ok || empty {
		return false
	}
	seen := 0
	for more := true; more; {
		var f int
		switch {
		case sc.SkipText(keyValue): // the usual texts first
			f = partValue
		case sc.SkipText(keySM):
			f = partSystemMetadata
		default:
			key, plain, ok := sc.Key()
			if !ok || !plain {
				return false
			}
			switch string(key) {
			case "value":
				f = partValue
			case "systemMetadata":
				f = partSystemMetadata
			case "headers":
				f = partHeaders
			default:
				return false
			}
		}
		if seen&f != 0 || sc.Peek() != '{' {
			return false
		}
		seen |= f
		switch f {
		case partValue:
			// Its end only: the core's check validates it (see
			// skipContainer).
			start := sc.Pos() // at its '{' (Peek)
			end := -1
			if !q.noSMAfter { // the emitters' text: the end found by the key after it
				if end = valueEndBySM(q.d, start, q.valueLen); end < 0 {
					q.noSMAfter = true
				}
			}
			if end < 0 {
				end = skipContainer(q.d, start, valueLevel)
			}
			if end < 0 {
				return false
			}
			p.Aspect, q.valueLen = q.own(q.d[start:end]), end-start
			sc.Seek(end)
		case partSystemMetadata:
			// A batch's systemMetadata most often repeats the one before.
			if q.sm != nil && sc.SkipText(q.sm) {
				p.SystemMetadata = q.sm
			} else {
				sm, ok := sc.Value(4)
				if !ok {
					return false
				}
				p.SystemMetadata = q.own(sm)
				q.sm = p.SystemMetadata
			}
		case partHeaders:
			if p.Headers, ok = sc.StringMap(); !ok {
				return false
			}
		}
		if more, ok = sc.Next('}'); !ok {
			return false
		}
	}
	return seen&partValue != 0
}
