package openapi

import (
	"bytes"
	"sync"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
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

// answerURNs are the sets of URNs appendRuns has seen, kept for the next
// answer.
var answerURNs = sync.Pool{New: func() any { return make(map[string]struct{}) }}

// maxKeptURNs is the size past which a set of answerURNs is not kept.
const maxKeptURNs = 4096

// appendRuns appends the answer as appendAnswer writes it straight, and
// reports false, leaving b as it came, when the echoes need
// echoObjects's grouping: a URN in two runs, or an aspect twice in one
// (a write's, or a default aspect of a created entity).
func appendRuns(b *bytes.Buffer, echoes []proposalEcho, res []gms.Written) bool {
	start := b.Len()
	seen := answerURNs.Get().(map[string]struct{})
	defer func() {
		if len(seen) <= maxKeptURNs {
			clear(seen)
			answerURNs.Put(seen)
		}
	}()
	var names [8]string // the aspects of the run, while few
	run := names[:0]
	b.WriteByte('[')
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
		if !open || ec.urn != urn {
			if _, dup := seen[ec.urn]; dup {
				b.Truncate(start)
				return false
			}
			seen[ec.urn] = struct{}{}
			if open {
				b.WriteString("},")
			}
			b.WriteString(`{"urn":`)
			writeString(b, ec.urn)
			urn, open, run = ec.urn, true, run[:0]
		}
		value := ec.value
		if w != nil && !w.Pending && w.Value != nil {
			value = w.Value // the aspect as stored (echoObjects)
		}
		if !addRunName(&run, ec.aspect) {
			b.Truncate(start)
			return false
		}
		appendPlainAspect(b, ec.aspect, value)
		if w == nil {
			continue
		}
		for _, d := range w.Defaults {
			if !addRunName(&run, d.Name) {
				b.Truncate(start)
				return false
			}
			appendPlainAspect(b, d.Name, d.Value)
		}
	}
	if open {
		b.WriteByte('}')
	}
	b.WriteByte(']')
	return true
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

// appendPlainAspect appends ,"name":{"value":value} (an aspect without
// systemMetadata, as v3Aspect.appendJSON writes it).
func appendPlainAspect(b *bytes.Buffer, name string, value []byte) {
	b.WriteByte(',')
	writeString(b, name)
	b.WriteString(`:{"value":`)
	if len(value) == 0 {
		b.WriteString("{}")
	} else {
		b.Write(value)
	}
	b.WriteByte('}')
}
