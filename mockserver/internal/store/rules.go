package store

import (
	"encoding/json"
	"fmt"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// Rules make the decisions of a write or a read that are not storage: who
// wrote a row and what its systemMetadata holds, which timeseries document
// a value is, which version a negative version reads. The store keeps rows
// and documents and calls its Rules for each of those decisions (see
// [Store.SetRules]); the rules core gives them. A systemMetadata is handed
// over as its members, the store writes it as a JSON object with its keys
// sorted.
//
// The member slices a method is given are valid only during the call,
// except that a method may return them, changed, as its result; its result
// is valid until the store's next call. First, Next and Same must depend
// on nothing but their arguments' contents (the members' keys and texts,
// and Next's version): the store may give a write the systemMetadata an
// earlier call made of equal arguments without calling them again.
type Rules interface {
	// Received is called before the writer lock with the time the write
	// arrived: it returns the createdBy of the write's rows and its
	// systemMetadata members, appended to dst. An error refuses the write
	// (Apply wraps it in [ErrInvalidWrite]). Its result must depend only on
	// the time and the write's SystemMetadata, SystemMetadataCompact, Actor
	// and Aspect: a write of a batch whose SystemMetadata is the memory of
	// the write's before it (not only equal bytes), with the same other
	// three, gets a copy of that write's result without a call.
	Received(w *Write, nowMillis int64, dst []jsonx.Member) (actor string, sm []jsonx.Member, err error)
	// First returns the systemMetadata of the first version of an aspect,
	// and of the companion (key) row written with it, for a write received
	// as sm; it builds it in dst's memory.
	First(dst, sm []jsonx.Member) []jsonx.Member
	// Next returns the systemMetadata of version, which a write received
	// as sm makes of a changed value; prev is the latest row's, which Next
	// may change and return. room is memory for a text Next makes (24
	// bytes), valid as long as the result.
	Next(prev, sm []jsonx.Member, version int64, room []byte) []jsonx.Member
	// Unchanged reports whether a write of next to an aspect whose latest
	// value is current makes no new version: the store then writes the
	// latest row again only for its systemMetadata (see Same). Both are
	// compact JSON objects; currentHash and nextHash are their [jsonx.Hash],
	// 0 when unknown.
	Unchanged(current, next json.RawMessage, currentHash, nextHash uint64) bool
	// Same returns the systemMetadata of the latest row, prev, after a
	// write that Unchanged found unchanged, received as sm: the store
	// writes the row again only when it differs from prev. Same may change
	// prev and return it.
	Same(prev, sm []jsonx.Member) []jsonx.Member
	// Document returns the identity of a timeseries write's document: its
	// time and the JSON texts that tell apart documents of that time. A
	// document with the identity of a stored one replaces it. An error
	// refuses the write (Apply wraps it in [ErrInvalidWrite]).
	Document(w *Write) (timestampMillis int64, id []json.RawMessage, err error)
	// ReadVersion returns the version a read of version v < 0 reads when
	// highest is the highest history version (0: none); a negative result
	// reads nothing.
	ReadVersion(highest, v int64) int64
}

// noRules are the Rules of a store nobody gave any: a write's createdBy is
// its Actor and its rows hold its systemMetadata object as it comes, every
// write makes a new version, a document has time 0 and no identity, and a
// negative version reads nothing.
type noRules struct{}

func (noRules) Received(w *Write, _ int64, dst []jsonx.Member) (string, []jsonx.Member, error) {
	if len(w.SystemMetadata) == 0 {
		return w.Actor, dst, nil
	}
	m := rawObject(dst)
	if err := unmarshalRawObject(w.SystemMetadata, &m); err != nil {
		return "", nil, fmt.Errorf("%s %s: systemMetadata: %w", w.URN, w.Aspect, err)
	}
	return w.Actor, m, nil
}

func (noRules) First(dst, sm []jsonx.Member) []jsonx.Member { return append(dst[:0], sm...) }

func (noRules) Next(_, sm []jsonx.Member, _ int64, _ []byte) []jsonx.Member { return sm }

func (noRules) Unchanged(_, _ json.RawMessage, _, _ uint64) bool { return false }

func (noRules) Same(prev, _ []jsonx.Member) []jsonx.Member { return prev }

func (noRules) Document(*Write) (int64, []json.RawMessage, error) { return 0, nil, nil }

func (noRules) ReadVersion(int64, int64) int64 { return -1 }
