package store

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/google/go-cmp/cmp"
)

// countRules counts the calls of Received.
type countRules struct {
	Rules
	n *atomic.Int64
}

func (r countRules) Received(w *Write, ms int64, dst []jsonx.Member) (string, []jsonx.Member, error) {
	r.n.Add(1)
	return r.Rules.Received(w, ms, dst)
}

// TestReceivedOncePerSystemMetadata: the writes of a batch that carry the
// same systemMetadata (the same memory, as the adapters decode a repeated
// one) are received with one call of Rules.Received for each run of them,
// and store the rows that writes carrying equal copies store.
func TestReceivedOncePerSystemMetadata(t *testing.T) {
	t.Parallel()
	const n = 40
	sm := json.RawMessage(`{"runId":"r","properties":{"a":"b"}}`)
	batch := func(shared bool) []Write {
		ws := make([]Write, n)
		for i := range ws {
			s := sm
			if !shared {
				s = append(json.RawMessage(nil), sm...)
			}
			ws[i] = Write{URN: urnN(i % 7), Aspect: props, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, i)),
				KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV), SystemMetadata: s, Actor: "urn:li:corpuser:x"}
			if i == n/2 {
				ws[i].Actor = "urn:li:corpuser:y" // another actor: received again
			}
		}
		return ws
	}
	var calls [2]atomic.Int64
	var rows [2][]Aspect
	for k, shared := range []bool{true, false} {
		s := OpenMemory(stepClock())
		t.Cleanup(func() { _ = s.Close() })
		s.SetRules(countRules{defaultRules, &calls[k]})
		mustApply(t, s, batch(shared)...)
		mustApply(t, s, batch(shared)...)
		rows[k] = everyRow(t, s)
	}
	if diff := cmp.Diff(rows[1], rows[0]); diff != "" {
		t.Errorf("rows (-copies +shared):\n%s", diff)
	}
	if got := calls[1].Load(); got != 2*n {
		t.Errorf("copies: %d calls of Received, want %d", got, 2*n)
	}
	// At most a call per chunk of the batch, and for the other actor and
	// the write after it.
	if got := calls[0].Load(); got > 2*8 {
		t.Errorf("shared: %d calls of Received, want at most %d", got, 2*8)
	}
}
