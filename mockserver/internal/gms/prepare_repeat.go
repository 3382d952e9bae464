package gms

import (
	"encoding/json"
	"unsafe"
)

// A batch's proposals often write one value to entity after entity (the
// decoders share the bytes of a value whose text repeats the one before
// it), and the answer of prepare's value check (the compaction to store,
// after the mutation hooks, and its hash) depends only on the value's
// bytes, the aspect, its entity type and whether the schema is checked.
// So a chunk of prepareAll keeps the last answer and gives it again to a
// proposal whose value is the same bytes, the same memory, of the same
// aspect of the same entity type: the value is not walked or copied again,
// and the writes share the stored text (nothing changes a write's value in
// place; the store copies it into its rows).

// lastValue is the answer prepare's value check gave a value raw (its
// memory and length) of aspect of entity, checked against its schema or
// not.
type lastValue struct {
	raw            []byte
	entity, aspect string
	schema         bool
	value          json.RawMessage
	hash           uint64
}

// repeatedValue returns the answer kept for raw, the value of an aspect of
// entity checked against its schema or not, when it is the last one's
// memory (false: check it).
func (a *valueArena) repeatedValue(raw []byte, entity, aspect string, schema bool) (json.RawMessage, uint64, bool) {
	if a == nil || len(raw) == 0 {
		return nil, 0, false
	}
	l := &a.last
	if len(l.raw) != len(raw) || unsafe.SliceData(l.raw) != unsafe.SliceData(raw) ||
		l.schema != schema || l.aspect != aspect || l.entity != entity {
		return nil, 0, false
	}
	return l.value, l.hash, true
}

// keepValue keeps the answer value, hash of the check of raw (see
// repeatedValue).
func (a *valueArena) keepValue(raw []byte, entity, aspect string, schema bool, value json.RawMessage, hash uint64) {
	if a == nil || len(raw) == 0 {
		return
	}
	a.last = lastValue{raw: raw, entity: entity, aspect: aspect, schema: schema,
		value: value[:len(value):len(value)], hash: hash}
}
