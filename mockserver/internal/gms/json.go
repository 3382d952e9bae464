package gms

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// decodeUseNumber decodes one JSON value with numbers kept as json.Number.
func decodeUseNumber(raw []byte) (any, error) {
	if v, ok := jsonx.Decode(raw); ok {
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New(MsgTrailingData)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New(MsgTrailingData)
	}
	return v, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "a value"
}

// valueArena hands out the memory of a batch's compacted values from a
// few allocations: blocks of up to arenaBlock bytes, made as they are
// needed, out of a reservation of size bytes (the sum of the lengths of the
// texts compacted: what they need together at most), so that a batch
// whose values mostly repeat (see repeatedValue) takes little of it.
// While a quarter of a block or more of the reservation is left, a block
// is a whole arenaBlock, which the ingest may give back for the next
// batch's arenas (see arenaSpent). It also keeps the answer prepare gave
// the last value (last).
type valueArena struct {
	buf    []byte
	size   int
	blocks int // the bytes of the blocks made so far
	last   lastValue
	// full holds the first nfull blocks of arenaBlock bytes the arena
	// took (see fullBlock), which an ingest that keeps none of its values
	// gives back for the next (see arenaSpent).
	full  [maxFullBlocks]*[arenaBlock]byte
	nfull int
	// marks are the marks of the arena's last schema check (see
	// checkHeldMarks).
	marks pdl.Marks
}

// arenaBlock is the most memory a valueArena allocates at once (a longer
// value takes a block of its length).
const arenaBlock = 16 << 10

// take returns an empty slice with room for n bytes that nothing else
// writes to: part of the arena while its reservation lasts, else
// allocated.
func (a *valueArena) take(n int) []byte {
	if a == nil {
		return make([]byte, 0, n)
	}
	start := len(a.buf)
	if cap(a.buf)-start < n {
		left := a.size - a.blocks
		if left < n {
			return make([]byte, 0, n)
		}
		block := max(n, min(left, arenaBlock))
		a.blocks += block
		if n <= arenaBlock && left >= arenaBlock/4 {
			// A whole block (counted as the block it stands for), which
			// the ingest may give back for the next (see arenaSpent).
			a.buf = a.fullBlock()
		} else {
			a.buf = make([]byte, 0, block)
		}
		start = 0
	}
	a.buf = a.buf[:start+n]
	return a.buf[start : start : start+n]
}

// retake moves live, the value written into the last take of a, down
// over dead, the value written into the take just before it, which its
// caller no longer needs (a compaction the hooks rewrote), and gives the
// room past it back to the arena. It returns live's new place: live as it
// is when the two are not the last two takes of one block, whole (each
// slice's capacity the room it took).
func (a *valueArena) retake(dead, live []byte) []byte {
	if a == nil || cap(dead) == 0 || cap(live) == 0 {
		return live
	}
	at := len(a.buf) - cap(live) // where live's take starts, if it is the last
	from := at - cap(dead)
	if from < 0 || &a.buf[at : at+1][0] != &live[:1][0] || &a.buf[from : from+1][0] != &dead[:1][0] {
		return live
	}
	n := copy(a.buf[from:], live)
	a.buf = a.buf[:from+n]
	return a.buf[from : from+n : from+n]
}
