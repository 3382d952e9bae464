package mockserver

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/par"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// decodeIngestQuick is decodeIngest for the bodies DataHub's emitters
// send: a body of "proposal" or "proposals" and "async", whose proposals
// have the string fields, an aspect of value and contentType, and a
// systemMetadata object, each member at most once and none null. It reads
// each proposal in one pass: the body is only split into its proposals
// (without validating them) before they are read, validated and decoded
// in chunks on the machine's cores. ok is false for any other body, valid
// or not, whose decode (and messages) are decodeIngest's: the proposals it
// accepts decode as decodeIngest decodes them.
func decodeIngestQuick(body []byte, batch bool) (ps []gms.Proposal, async, ok bool) {
	sc := scanners.Get().(*pdl.Scanner)
	defer scanners.Put(sc)
	sc.Reset(body)
	raws, async, ok := splitIngest(sc, body, batch)
	if !ok {
		return nil, false, false
	}
	ps = make([]gms.Proposal, len(raws))
	level := 2 // a proposal's nesting level: in the body, or in its list
	if batch {
		level = 3
	}
	chunk := min(max(len(body)/par.Count(len(raws), par.MinChunk)/4, 1<<10), wire.MaxValueChunk)
	var refused atomic.Bool
	par.Chunks(len(raws), par.MinChunk, func(c, lo, hi int) {
		s := sc
		if c > 0 {
			s = scanners.Get().(*pdl.Scanner)
			defer scanners.Put(s)
		}
		d := wire.Doc{Memo: &wire.Memo{Chunk: chunk}}
		for i := lo; i < hi && !refused.Load(); i++ {
			if !quickProposal(s, d, raws[i], level, &ps[i]) {
				refused.Store(true)
			}
		}
	})
	if refused.Load() {
		return nil, false, false
	}
	return ps, async, true
}

// scanners are the Scanners decodeIngestQuick reads with, kept for the
// next request (a Scanner keeps the names it decoded).
var scanners = sync.Pool{New: func() any { return new(pdl.Scanner) }}

// splitIngest reads the body's members with sc and returns the text of
// its proposals, delimited, not validated, and its async flag.
func splitIngest(sc *pdl.Scanner, body []byte, batch bool) (raws [][]byte, async, ok bool) {
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
			empty, ok := sc.Enter('[')
			if !ok {
				return nil, false, false
			}
			if empty {
				raws = [][]byte{}
				break
			}
			raws = make([][]byte, 0, max(len(body)/1024, 8))
			for more := true; more; {
				raw, ok := sc.Delimit()
				if !ok {
					return nil, false, false
				}
				raws = append(raws, raw)
				if more, ok = sc.Next(']'); !ok {
					return nil, false, false
				}
			}
		case string(key) == "proposal" && !batch && !seenProposals:
			seenProposals = true
			raw, ok := sc.Delimit()
			if !ok {
				return nil, false, false
			}
			raws = [][]byte{raw}
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
	return raws, gms.RestliAsync(asyncText), true
}

// The members of a proposal quickProposal reads, as bits of a set.
const (
	qEntityType = 1 << iota
	qEntityURN
	qChangeType
	qAspectName
	qAspect
	qSystemMetadata
)

// quickProposal reads raw, one proposal of a body, with s into p as
// decodeProposal decodes it, if it has only the members and values
// decodeIngestQuick reads and they pass decodeProposal's checks; else it
// reports false. The proposal is at nesting level level of its body.
func quickProposal(s *pdl.Scanner, d wire.Doc, raw []byte, level int, p *gms.Proposal) bool {
	s.Reset(raw)
	empty, ok := s.Enter('{')
	if !ok || empty {
		return false
	}
	seen := 0
	for more := true; more; {
		key, plain, ok := s.Key()
		if !ok || !plain {
			return false
		}
		var f int
		switch string(key) {
		case "entityType":
			f = qEntityType
		case "entityUrn":
			f = qEntityURN
		case "changeType":
			f = qChangeType
		case "aspectName":
			f = qAspectName
		case "aspect":
			f = qAspect
		case "systemMetadata":
			f = qSystemMetadata
		default:
			return false
		}
		if seen&f != 0 {
			return false
		}
		seen |= f
		switch f {
		case qEntityType, qEntityURN, qChangeType, qAspectName:
			if s.Peek() != '"' {
				return false
			}
			v, ok := s.String()
			if !ok {
				return false
			}
			switch f {
			case qEntityType:
				p.EntityType = v
			case qEntityURN:
				p.EntityURN = v
			case qChangeType:
				p.ChangeType = v
			default:
				p.AspectName = v
			}
		case qAspect:
			if p.Aspect, p.ContentType, ok = quickGenericAspect(s, d, len(raw)); !ok {
				return false
			}
		case qSystemMetadata:
			if s.Peek() != '{' {
				return false
			}
			v, ok := s.Value(level + 1)
			if !ok {
				return false
			}
			sm, err := d.CheckSystemMetadata(v)
			if err != nil {
				return false
			}
			p.SystemMetadata = sm
		}
		if more, ok = s.Next('}'); !ok {
			return false
		}
	}
	return seen&(qEntityType|qChangeType) == qEntityType|qChangeType &&
		slices.Contains(changeTypes, p.ChangeType) && s.Done()
}

// quickGenericAspect reads a GenericAspect of value and contentType (both
// strings, value all ASCII) with s, within the next n bytes of its text.
func quickGenericAspect(s *pdl.Scanner, d wire.Doc, n int) (value []byte, contentType string, ok bool) {
	empty, ok := s.Enter('{')
	if !ok || empty {
		return nil, "", false
	}
	seen := 0
	for more := true; more; {
		key, plain, ok := s.Key()
		if !ok || !plain || s.Peek() != '"' {
			return nil, "", false
		}
		switch {
		case string(key) == "value" && seen&1 == 0:
			seen |= 1
			// Pegasus bytes: their JSON text is the string's when ASCII
			// (pegasusBytesOf); other text is left to decodeGenericAspect.
			if value, ok = d.ScanBytes(s, n-s.Pos()); !ok || !isASCII(value) {
				return nil, "", false
			}
		case string(key) == "contentType" && seen&2 == 0:
			seen |= 2
			if contentType, ok = s.String(); !ok {
				return nil, "", false
			}
		default:
			return nil, "", false
		}
		if more, ok = s.Next('}'); !ok {
			return nil, "", false
		}
	}
	return value, contentType, seen == 3
}
