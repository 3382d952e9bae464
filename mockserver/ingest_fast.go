package mockserver

import (
	"bytes"
	"slices"
	"sync"

	"github.com/catalogkit/datahub-go/internal/par"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// decodeIngestQuick is decodeIngest for the bodies DataHub's emitters
// send: a body of "proposal" or "proposals" and "async", whose proposals
// have the string fields, an aspect of value and contentType, a
// systemMetadata object and headers of strings, each member at most once
// and none null. It reads
// each proposal once, in one pass that validates and decodes it; a batch's
// list is read in chunks on the machine's cores (see quickList). ok is
// false for any other body, valid or not, whose decode (and messages) are
// decodeIngest's: the bodies it accepts decode as decodeIngestWith decodes
// them.
func decodeIngestQuick(body []byte, batch bool) (ps []gms.Proposal, async, ok bool) {
	return decodeIngestQuickOf(body, batch, false)
}

// decodeIngestCompact is decodeIngestQuick that writes an aspect value
// without the white space outside its strings (its compaction, when valid
// JSON) and points the proposal at the literal it came in instead of
// writing the decoding (gms.Proposal.AspectLiteral), when that left any
// white space out: the core compacts what it stores, and reads the text
// sent only to refuse it.
func decodeIngestCompact(body []byte, batch bool) (ps []gms.Proposal, async, ok bool) {
	return decodeIngestQuickOf(body, batch, true)
}

// decodeIngestQuickOf is decodeIngestCompact when compact is set, else
// decodeIngestQuick.
func decodeIngestQuickOf(body []byte, batch, compact bool) (ps []gms.Proposal, async, ok bool) {
	sc := scanners.Get().(*pdl.Scanner)
	defer scanners.Put(sc)
	sc.Reset(body)
	empty, ok := sc.Enter('{')
	if !ok || empty {
		return nil, false, false
	}
	var seenAsync, seenProposals bool
	asyncText := gms.AsyncUnset
	for more := true; more; {
		key, plain, ok := sc.Key()
		if !ok || !plain {
			return nil, false, false
		}
		switch {
		case string(key) == "async" && !seenAsync:
			seenAsync = true
			if sc.Peek() != '"' {
				return nil, false, false
			}
			if asyncText, ok = sc.String(); !ok {
				return nil, false, false
			}
		case string(key) == "proposals" && batch && !seenProposals:
			seenProposals = true
			if ps, ok = quickList(sc, body, compact); !ok {
				return nil, false, false
			}
		case string(key) == "proposal" && !batch && !seenProposals:
			seenProposals = true
			ps = make([]gms.Proposal, 1)
			d := wire.Doc{Memo: &wire.Memo{Chunk: min(len(body), wire.MaxValueChunk)}}
			if !quickProposal(sc, d, &quickMemo{body: body, compact: compact}, 2, &ps[0]) {
				return nil, false, false
			}
		default:
			return nil, false, false
		}
		if more, ok = sc.Next('}'); !ok {
			return nil, false, false
		}
	}
	if !seenProposals || !sc.Done() {
		return nil, false, false
	}
	return ps, gms.RestliAsync(asyncText), true
}

// scanners are the Scanners decodeIngestQuick reads with, kept for the
// next request (a Scanner keeps the names it decoded).
var scanners = sync.Pool{New: func() any { return new(pdl.Scanner) }}

// quickItemBytes is the size of a proposal's text that quickList counts on
// when it splits a list in chunks (of par.MinChunk proposals at least).
const quickItemBytes = 256

// quickList reads the list of a batch's proposals, the value sc reads
// next in body, and leaves sc after it. A long list is read in chunks, one
// per core, without a serial pass to split it first: chunk c starts at the
// first proposal it finds (a '{' after a ',' and before a quote) from its
// share of the text on, and reads proposals until it reaches the next
// chunk's share (or the list's end). The chunks hold together when each
// one ended exactly where the next one started; otherwise (a '{' of the
// kind within a string) the list is not read here. With compact set the
// aspect values are compacted as decodeIngestCompact says.
func quickList(sc *pdl.Scanner, body []byte, compact bool) ([]gms.Proposal, bool) {
	empty, ok := sc.Enter('[')
	if !ok {
		return nil, false
	}
	if empty {
		return []gms.Proposal{}, true
	}
	first := sc.Pos()
	text := len(body) - first
	k := par.Count(text/quickItemBytes, par.MinChunk)
	memoChunk := min(max(text/k/4, 1<<10), wire.MaxValueChunk)
	parts := make([][]gms.Proposal, k)
	n, _, ok := pdl.ReadListChunks(sc, body, first, k, listItemStart, func(c int, s *pdl.Scanner) func() bool {
		d := wire.Doc{Memo: &wire.Memo{Chunk: memoChunk}}
		m := quickMemo{body: body, compact: compact}
		if c == 0 { // the list the others' proposals are appended to
			parts[c] = make([]gms.Proposal, 0, text/quickItemBytes/2+1)
		} else { // copied out below
			parts[c] = (*partProposals.Get().(*[]gms.Proposal))[:0]
		}
		return func() bool {
			parts[c] = append(parts[c], gms.Proposal{})
			return quickProposal(s, d, &m, 3, &parts[c][len(parts[c])-1])
		}
	})
	if !ok {
		return nil, false
	}
	ps := parts[0]
	for _, pt := range parts[1:n] {
		ps = append(ps, pt...)
		clear(pt) // no proposal's values stay with the pool
		partProposals.Put(&pt)
	}
	return ps, true
}

// partProposals are the lists quickList's chunks read into before their
// proposals are copied out in order, kept for the next list.
var partProposals = sync.Pool{New: func() any { return new([]gms.Proposal) }}

// listItemStart returns the offset of the first '{' of d at or after i
// that follows a ',' and comes before a quote (white space aside), where
// a proposal of a list starts; -1 if there is none.
func listItemStart(d []byte, i int) int {
	for {
		j := bytes.IndexByte(d[i:], '{')
		if j < 0 {
			return -1
		}
		j += i
		prev, next := j-1, j+1
		for prev >= 0 && isJSONSpace(d[prev]) {
			prev--
		}
		for next < len(d) && isJSONSpace(d[next]) {
			next++
		}
		if prev >= 0 && d[prev] == ',' && next < len(d) && d[next] == '"' {
			return j
		}
		i = j + 1
	}
}

// isJSONSpace reports whether c is white space between JSON tokens.
func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// quickValueRoom is the room an aspect's value gets in the memo's memory
// before it is read (a longer one may get memory of its own).
const quickValueRoom = 1 << 10

// The members of a proposal quickProposal reads, as bits of a set.
const (
	qEntityType = 1 << iota
	qEntityURN
	qChangeType
	qAspectName
	qAspect
	qSystemMetadata
	qHeaders
)

// quickKeys are the members of a proposal quickProposal reads, in the
// order DataHub's emitters write them: the text of each key with its
// quotes and the colon after it.
var quickKeys = [...]struct {
	text []byte
	f    int
}{
	{[]byte(`"entityType":`), qEntityType}, {[]byte(`"entityUrn":`), qEntityURN},
	{[]byte(`"changeType":`), qChangeType}, {[]byte(`"aspectName":`), qAspectName},
	{[]byte(`"aspect":`), qAspect}, {[]byte(`"systemMetadata":`), qSystemMetadata},
	{[]byte(`"headers":`), qHeaders},
}

// The keys of a GenericAspect, as quickKeys.
var (
	quickValueKey       = []byte(`"value":`)
	quickContentTypeKey = []byte(`"contentType":`)
)

// quickMemo is what the reader of a part of a body keeps from one proposal
// to the next: the text of the strings of the envelope's members it last
// read (within body, with their quotes) and their decodings. A batch's
// proposals mostly repeat them (entity type, change type, aspect name,
// content type), and the same text decodes the same.
type quickMemo struct {
	body []byte
	text [qSlots][]byte
	str  [qSlots]string
	// body[valueStart:valueEnd] is the literal of the last aspect value
	// read (with its quotes) and value its decoding, which the next
	// proposal with the same literal shares (nothing changes a proposal's
	// values in place): emitters write the same value (a status, the same
	// owners, a platform) to entity after entity. literal reports that
	// value is the literal's decoding compacted (see compact).
	valueStart, valueEnd int
	value                []byte
	literal              bool
	// compact asks for the aspect values without the white space outside
	// their strings (see decodeIngestCompact).
	compact bool
}

// The strings quickMemo keeps, by slot.
const (
	qSlotEntityType = iota
	qSlotChangeType
	qSlotAspectName
	qSlotContentType
	qSlots
)

// string reads the string literal s reads next (after white space) as
// s.String does: a repeat of the text of slot's last string is moved past
// without another scan.
func (m *quickMemo) string(s *pdl.Scanner, slot int) (string, bool) {
	if t := m.text[slot]; t != nil && s.SkipText(t) {
		return m.str[slot], true
	}
	s.Peek() // past white space, to the literal
	start := s.Pos()
	v, ok := s.String()
	if ok {
		m.text[slot], m.str[slot] = m.body[start:s.Pos()], v
	}
	return v, ok
}

// aspectValue reads the string literal s reads next (s is at its quote),
// whose decoding must be all ASCII, into memory from d: a repeat of the
// last literal read (the same text up to its closing quote is the same
// literal) is moved past without another scan and gets the same bytes.
// With m.compact set the value is written without the white space outside
// its strings, and when some was left out, literal is the literal's text
// (as gms.Proposal.AspectLiteral); else literal is nil.
func (m *quickMemo) aspectValue(s *pdl.Scanner, d wire.Doc) (value, literal []byte, ok bool) {
	if m.valueEnd > 0 && s.SkipText(m.body[m.valueStart:m.valueEnd]) {
		if m.literal {
			literal = m.body[m.valueStart:m.valueEnd:m.valueEnd]
		}
		return m.value, literal, true
	}
	start := s.Pos()
	dropped := false
	if m.compact {
		value, dropped, ok = d.ScanASCIICompact(s, quickValueRoom)
	} else {
		value, ok = d.ScanASCIIBytes(s, quickValueRoom)
	}
	if !ok {
		return nil, nil, false
	}
	end := s.Pos()
	m.valueStart, m.valueEnd, m.value, m.literal = start, end, value, dropped
	if dropped {
		literal = m.body[start:end:end]
	}
	return value, literal, true
}

// quickKey reads the key of a member and the colon after it, as s.Key
// does, into its bit among the members quickProposal reads (0 for any
// other key or one not plain): the key at quickKeys[*next] is matched by
// its text first, and *next moves past the key read.
func quickKey(s *pdl.Scanner, next *int) int {
	if i := *next; i < len(quickKeys) && s.SkipText(quickKeys[i].text) {
		*next = i + 1
		return quickKeys[i].f
	}
	key, plain, ok := s.Key()
	if !ok || !plain {
		return 0
	}
	for i, k := range quickKeys {
		if string(key) == string(k.text[1:len(k.text)-2]) {
			*next = i + 1
			return k.f
		}
	}
	return 0
}

// quickProposal reads the proposal s reads next, at nesting level level
// of its body, into p as decodeProposal decodes it, if it has only the
// members and values decodeIngestQuick reads and they pass
// decodeProposal's checks; else it reports false. m is the memo of the
// reader of this part of the body.
func quickProposal(s *pdl.Scanner, d wire.Doc, m *quickMemo, level int, p *gms.Proposal) bool {
	empty, ok := s.Enter('{')
	if !ok || empty {
		return false
	}
	seen, next := 0, 0
	for more := true; more; {
		f := quickKey(s, &next)
		if f == 0 || seen&f != 0 {
			return false
		}
		seen |= f
		switch f {
		case qEntityType, qEntityURN, qChangeType, qAspectName:
			if s.Peek() != '"' {
				return false
			}
			var v string
			switch f {
			case qEntityType:
				v, ok = m.string(s, qSlotEntityType)
				p.EntityType = v
			case qEntityURN: // a batch's differ
				v, ok = s.String()
				p.EntityURN = v
			case qChangeType:
				v, ok = m.string(s, qSlotChangeType)
				p.ChangeType = v
			default:
				v, ok = m.string(s, qSlotAspectName)
				p.AspectName = v
			}
			if !ok {
				return false
			}
		case qAspect:
			if p.Aspect, p.AspectLiteral, p.ContentType, ok = quickGenericAspect(s, d, m); !ok {
				return false
			}
		case qSystemMetadata:
			if s.Peek() != '{' {
				return false
			}
			if p.SystemMetadata, ok = d.ScanSystemMetadata(s, level+1); !ok {
				return false
			}
		case qHeaders:
			if p.Headers, ok = s.StringMap(); !ok {
				return false
			}
		}
		if more, ok = s.Next('}'); !ok {
			return false
		}
	}
	return seen&(qEntityType|qChangeType) == qEntityType|qChangeType &&
		slices.Contains(changeTypes, p.ChangeType)
}

// quickGenericAspect reads a GenericAspect of value and contentType (both
// strings, value all ASCII) with s; literal is the value's, as
// quickMemo.aspectValue returns it.
func quickGenericAspect(s *pdl.Scanner, d wire.Doc, m *quickMemo) (value, literal []byte, contentType string, ok bool) {
	empty, ok := s.Enter('{')
	if !ok || empty {
		return nil, nil, "", false
	}
	seen := 0
	for more := true; more; {
		var key []byte
		switch {
		case seen == 0 && s.SkipText(quickValueKey):
			key = quickValueKey[1:6]
		case seen == 1 && s.SkipText(quickContentTypeKey):
			key = quickContentTypeKey[1:12]
		default:
			var plain bool
			if key, plain, ok = s.Key(); !ok || !plain {
				return nil, nil, "", false
			}
		}
		if s.Peek() != '"' {
			return nil, nil, "", false
		}
		switch {
		case string(key) == "value" && seen&1 == 0:
			seen |= 1
			// Pegasus bytes: their JSON text is the string's when ASCII
			// (pegasusBytesOf); other text is left to decodeGenericAspect.
			if value, literal, ok = m.aspectValue(s, d); !ok {
				return nil, nil, "", false
			}
		case string(key) == "contentType" && seen&2 == 0:
			seen |= 2
			if contentType, ok = m.string(s, qSlotContentType); !ok {
				return nil, nil, "", false
			}
		default:
			return nil, nil, "", false
		}
		if more, ok = s.Next('}'); !ok {
			return nil, nil, "", false
		}
	}
	return value, literal, contentType, seen == 3
}
