package store

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/jsonx"
)

// prepared is what a write needs that does not depend on the stored rows,
// worked out before the store's writer lock is taken: its checks, its
// createdBy and systemMetadata as the Rules receive it, its document's
// identity, its row keys and its value's hash. The writer lock then covers
// only what reads or changes the rows.
type prepared struct {
	// err is the write's own fault; Apply reports it when it reaches the
	// write, after the earlier ones, as if found there. docErr is the fault
	// of a timeseries write's document, found after its key row.
	err, docErr error
	rules       Rules
	sm          rawObject       // Rules.Received's
	value       json.RawMessage // the value, compact (nil with a Transform)
	hash        uint64          // jsonx.Hash(value), 0 when unknown
	head        rowHead         // the new row of value, up to its version
	// docTime and docID are a timeseries document's identity.
	docTime int64
	docID   []byte
	// keys holds the row key of version 0 and room for one history row
	// key; its first urnLen bytes are the entity's key (urnPrefix) and its
	// first prefixLen bytes the aspect's (aspectPrefix).
	keys              []byte
	urnLen, prefixLen int
	ms                int64  // the write's time, Unix milliseconds
	actor             string // createdBy
	// scratch is room for the systemMetadata a write builds under the lock,
	// shared by the writes of a batch, which run one after the other.
	scratch []jsonx.Member
	// room is Rules.Next's room.
	room [24]byte
}

// latestKey is rowKey(urn, aspect, 0).
func (p *prepared) latestKey() []byte {
	n := p.prefixLen + 8
	return p.keys[:n:n]
}

// entityKey is urnPrefix(urn).
func (p *prepared) entityKey() []byte { return p.keys[:p.urnLen:p.urnLen] }

// historyKey is rowKey(urn, aspect, version); a write asks for one at most.
func (p *prepared) historyKey(version int64) []byte {
	n := p.prefixLen + 8
	k := p.keys[n : 2*n : 2*n]
	binary.BigEndian.PutUint64(k[p.prefixLen:], uint64(version))
	return k
}

// smMembers is the room for systemMetadata members prepared per write
// (a usual one has four to seven); more take an allocation of their own.
const smMembers = 8

// prepare prepares every write of a batch stamped with now, under rules.
// The keys of all writes share one allocation, their systemMetadata members
// another.
func prepare(ws []Write, now time.Time, rules Rules) []prepared {
	ps := make([]prepared, len(ws))
	size := 0
	for i := range ws {
		size += 2 * (2*binary.MaxVarintLen64 + len(ws[i].URN) + len(ws[i].Aspect) + 8)
	}
	keys := make([]byte, 0, size)
	members := make(rawObject, (len(ws)+2)*smMembers)
	scratch := members[len(ws)*smMembers:]
	ms := now.UnixMilli()
	for i := range ws {
		w, p := &ws[i], &ps[i]
		if w.DeleteEntity && w.URN != "" {
			continue
		}
		if p.err = checkWrite(i, w); p.err != nil {
			continue
		}
		p.ms, p.scratch, p.rules = ms, scratch, rules
		actor, sm, err := rules.Received(w, ms, members[i*smMembers:i*smMembers:(i+1)*smMembers])
		if err != nil {
			p.err = fmt.Errorf("%w: item %d: %w", ErrInvalidWrite, i, err)
			continue
		}
		p.actor, p.sm = actor, sm
		if w.Timeseries {
			p.docTime, p.docID, p.docErr = documentID(w, rules)
			if p.docErr != nil {
				p.docErr = fmt.Errorf("%w: item %d: %w", ErrInvalidWrite, i, p.docErr)
			}
		}
		start := len(keys)
		keys = lp(keys, w.URN)
		p.urnLen = len(keys) - start
		keys = lp(keys, w.Aspect)
		p.prefixLen = len(keys) - start
		keys = binary.BigEndian.AppendUint64(keys, 0)
		keys = append(keys, keys[start:start+p.prefixLen]...)
		keys = binary.BigEndian.AppendUint64(keys, 0)
		p.keys = keys[start:len(keys):len(keys)]
		if !w.Timeseries && w.Transform == nil {
			p.value = w.Value
			if !w.Compact {
				p.value = jsonx.CompactShared(w.Value) // checked by IsObject; encode copies it
			}
			p.hash = jsonx.Hash(p.value)
			p.head = newRowHead(p.value, ms, p.actor, p.hash, smRoom(rules.First(scratch, sm)))
		}
	}
	return ps
}

// documentID is the identity Rules.Document gives a timeseries write's
// document, its parts length-prefixed.
func documentID(w *Write, rules Rules) (int64, []byte, error) {
	ms, parts, err := rules.Document(w)
	if err != nil {
		return 0, nil, err
	}
	var id []byte
	for _, part := range parts {
		id = lpBytes(id, part)
	}
	return ms, id, nil
}
