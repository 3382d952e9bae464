package openapi

import (
	"bytes"
	"sync"
	"unsafe"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// appendAnswer appends the answer of a batch write to b: the JSON array of
// echoObjects(echoes, res, wq, now). An answer without systemMetadata
// whose URNs each come in one run of consecutive echoes, naming each
// aspect once (the emitters' batches), is written straight from the
// echoes and the core's results; any other takes echoObjects.
func appendAnswer(b *bytes.Buffer, echoes []proposalEcho, res []gms.Written, wq v3Write, now int64) {
	if wq.withSM || !appendRuns(b, echoes, res) {
		appendList(b, echoObjects(echoes, res, wq, now))
	}
}

// urnSet is a set of URNs by their hashes (gms.URNHash): a URN whose hash
// is in the set may be in it (equal hashes of two URNs are as unlikely as
// a 64-bit collision), one whose hash is not is not.
type urnSet struct {
	slots []uint64 // a hash with its low bit set, 0 for none
	mask  int
}

// reset empties s for up to n URNs.
func (s *urnSet) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(s.slots) < size {
		s.slots = make([]uint64, size)
	} else {
		s.slots = s.slots[:size]
		clear(s.slots)
	}
	s.mask = size - 1
}

// add adds u to s and reports whether it may have been there before.
func (s *urnSet) add(u string) (maybeThere bool) {
	return s.addHash(gms.URNHash(u))
}

// addHash is add for the URN whose gms.URNHash is h.
func (s *urnSet) addHash(h uint64) (maybeThere bool) {
	h |= 1
	for i := int(h>>1) & s.mask; ; i = (i + 1) & s.mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			return false
		case h:
			return true
		}
	}
}

// answerURNs are the urnSets appendRuns uses, kept for the next answer.
var answerURNs = sync.Pool{New: func() any { return new(urnSet) }}

// maxKeptURNs is the size past which an urnSet is not kept.
const maxKeptURNs = 1 << 14

// appendRuns appends the answer as appendAnswer writes it straight, and
// reports false, leaving b as it came, when the echoes need
// echoObjects's grouping: a URN in two runs, or an aspect twice in one
// (a write's, or a default aspect of a created entity); or may need it
// (two URNs of one hash).
//
// The answer is appended to b's free memory as a byte slice (one copy
// into b at the end, none when b had room), and the text before an
// aspect's value, ,"<aspect>":{"value":, is made once for a run of
// echoes of one aspect.
func appendRuns(b *bytes.Buffer, echoes []proposalEcho, res []gms.Written) bool {
	seen := answerURNs.Get().(*urnSet)
	seen.reset(len(echoes))
	defer func() {
		if len(seen.slots) <= maxKeptURNs {
			answerURNs.Put(seen)
		}
	}()
	var names [8]string // the aspects of the run, while few
	run := names[:0]
	var keyBuf [64]byte
	key, keyName := keyBuf[:0], "" // ,"<keyName>":{"value":
	out := append(b.AvailableBuffer(), '[')
	urn := ""
	open := false // an object is written up to its last aspect
	for i := range echoes {
		ec := &echoes[i]
		var w *gms.Written
		if i < len(res) {
			w = &res[i]
			if w.Skipped {
				continue
			}
		}
		if !open || !sameText(ec.urn, urn) {
			if seen.addHash(echoURNHash(ec)) { // most likely there: echoObjects groups it
				return false
			}
			if open {
				out = append(out, "},"...)
			}
			out = append(out, `{"urn":`...)
			if ec.plainURN {
				out = append(append(append(out, '"'), ec.urn...), '"')
			} else {
				out = appendJSONString(out, ec.urn)
			}
			urn, open, run = ec.urn, true, run[:0]
		}
		value := ec.value
		if w != nil && !w.Pending && w.Value != nil {
			value = w.Value // the aspect as stored (echoObjects)
		}
		if !addRunName(&run, ec.aspect) {
			return false
		}
		if ec.aspect != keyName || len(key) == 0 {
			key, keyName = appendValueKey(key[:0], ec.aspect), ec.aspect
		}
		out = appendValue(append(out, key...), value)
		if w == nil {
			continue
		}
		for _, d := range w.Defaults {
			if !addRunName(&run, d.Name) {
				return false
			}
			out = appendValue(appendValueKey(out, d.Name), d.Value)
		}
	}
	if open {
		out = append(out, '}')
	}
	b.Write(append(out, ']'))
	return true
}

// sameText reports whether a and b are one string: the same length and
// memory. The echoes of one item share their URN's string; equal text in
// other memory (a URN of two items in a row) counts as another URN, whose
// run the urnSet then finds it to repeat, so that appendRuns leaves the
// answer to echoObjects's grouping: the answer is the same, and the
// comparison of two URNs of one length, which most often differ only near
// their ends, costs no walk over their text.
func sameText(a, b string) bool {
	return len(a) == len(b) && unsafe.StringData(a) == unsafe.StringData(b)
}

// appendValueKey appends ,"name":{"value": (an aspect without
// systemMetadata, as v3Aspect.appendJSON writes it, up to its value).
func appendValueKey(dst []byte, name string) []byte {
	dst = append(dst, ',')
	dst = appendJSONString(dst, name)
	return append(dst, `:{"value":`...)
}

// appendValue appends value ({} for none) and the brace that closes its
// aspect.
func appendValue(dst, value []byte) []byte {
	if len(value) == 0 {
		return append(dst, "{}}"...)
	}
	return append(append(dst, value...), '}')
}

// appendJSONString appends s as writeString writes it.
func appendJSONString(dst []byte, s string) []byte {
	if plainJSONString(s) {
		dst = append(dst, '"')
		dst = append(dst, s...)
		return append(dst, '"')
	}
	q, _ := wire.MarshalJSON(s)
	return append(dst, q...)
}

// addRunName adds name to the aspects of a run, false when it is there.
func addRunName(run *[]string, name string) bool {
	for _, n := range *run {
		if n == name {
			return false
		}
	}
	*run = append(*run, name)
	return true
}
