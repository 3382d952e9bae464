package store

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/google/go-cmp/cmp"
)

// nextRules counts the calls of Next, Same and First.
type nextRules struct {
	Rules
	next, same, first *atomic.Int64
}

func (r nextRules) Next(prev, sm []jsonx.Member, version int64, room []byte) []jsonx.Member {
	r.next.Add(1)
	return r.Rules.Next(prev, sm, version, room)
}

func (r nextRules) Same(prev, sm []jsonx.Member) []jsonx.Member {
	r.same.Add(1)
	return r.Rules.Same(prev, sm)
}

func (r nextRules) First(dst, sm []jsonx.Member) []jsonx.Member {
	r.first.Add(1)
	return r.Rules.First(dst, sm)
}

// TestFieldMemoSparesTheRules: the writes of a batch that carry equal
// systemMetadata onto latest rows of equal systemMetadata get their rows'
// systemMetadata from one call of the Rules a chunk (each write called
// them before the memo), and a batch of unchanged values likewise.
func TestFieldMemoSparesTheRules(t *testing.T) {
	t.Parallel()
	const n = 200
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	var next, same, first atomic.Int64
	s.SetRules(nextRules{defaultRules, &next, &same, &first})
	batch := func(v int) []Write {
		ws := make([]Write, n)
		for i := range ws {
			// Equal copies of one systemMetadata: received once each.
			ws[i] = Write{URN: urnN(i), Aspect: props, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, v)),
				KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
				SystemMetadata: json.RawMessage(`{"runId":"r","lastObserved":7,"properties":{"a":"b"}}`)}
		}
		return ws
	}
	mustApply(t, s, batch(1)...)
	// Chunks of the batch, and the companion rows written under the lock.
	if got := first.Load(); got > 8+n {
		t.Errorf("first versions: %d calls of First, want at most %d", got, 8+n)
	}
	mustApply(t, s, batch(2)...)
	mustApply(t, s, batch(3)...)
	if got := next.Load(); got > 2*8 {
		t.Errorf("new versions: %d calls of Next, want at most %d", got, 2*8)
	}
	mustApply(t, s, batch(3)...)
	mustApply(t, s, batch(3)...)
	if got := same.Load(); got > 2*8 {
		t.Errorf("unchanged values: %d calls of Same, want at most %d", got, 2*8)
	}
	for i := range n {
		a := mustGet(t, s, urnN(i), props, 0)
		if v := sysMeta(t, a.SystemMetadata)["version"]; v != "3" {
			t.Fatalf("%s: version %v, want 3", urnN(i), v)
		}
	}
}

// memoPair is two memory stores given the same batches: one whose
// preBuild takes fields from its memo, one whose never does (the
// reference).
type memoPair struct {
	fast, slow       *Store
	fastSub, slowSub *Subscription
}

func newMemoPair(t testing.TB) *memoPair {
	p := &memoPair{fast: OpenMemory(stepClock()), slow: OpenMemory(stepClock())}
	p.slow.kv.(*memBackend).noMemo = true
	for _, s := range []*Store{p.fast, p.slow} {
		t.Cleanup(func() { _ = s.Close() })
	}
	p.fastSub, p.slowSub = p.fast.Subscribe(), p.slow.Subscribe()
	return p
}

// memoSystemMetadata are the systemMetadata a memoOps write carries:
// alike and different run fields, members the Rules carry over or not,
// none at all, members not in marshal's form, a null runId.
var memoSystemMetadata = []string{
	`{"runId":"r1","lastObserved":5}`,
	`{"runId":"r1","lastObserved":5}`,
	`{"runId":"r2","lastObserved":5}`,
	`{"runId":"r1","lastObserved":6,"properties":{"clientId":"x"}}`,
	`{"lastObserved":6,"properties":{"clientId":"x","telemetryTraceId":"t"}}`,
	``,
	`{"runId":null,"schemaVersion":2,"pipelineName":"p<&>"}`,
	`{ "runId" : "r1" , "lastObserved" : 5 , "registryName" : "\u00e9" }`,
}

// memoOps turns fuzz input into batches applied to both stores of p:
// each byte pair is a write of one of four aspects of one of five
// datasets, a value of three (so that some are unchanged) and a
// systemMetadata of memoSystemMetadata, some by another actor; a batch
// ends after 1 to 8 writes. With share set, the writes of one
// systemMetadata carry the same memory (as an adapter's decode gives the
// proposals of a batch), so that a write received as the one before it
// gets a copy of its members (receivedMemo) and the memo knows them equal
// without comparing (fieldMemo.recv).
func memoOps(t *testing.T, p *memoPair, ops []byte, share bool) {
	aspects := []string{props, "status", "ownership", "globalTags"}
	var ws []Write
	flush := func(step int) {
		if len(ws) == 0 {
			return
		}
		var got [2]string
		for k, s := range []*Store{p.fast, p.slow} {
			res, err := s.Apply(ws)
			got[k] = fmt.Sprintf("%+v %v", res, err)
		}
		if got[0] != got[1] {
			t.Fatalf("step %d: memo %s, reference %s", step, got[0], got[1])
		}
		if diff := cmp.Diff(drain(p.slowSub), drain(p.fastSub)); diff != "" {
			t.Fatalf("step %d: events (-reference +memo):\n%s", step, diff)
		}
		ws = ws[:0]
	}
	for step := 0; len(ops) >= 2 && step < 96; step++ {
		a, b := ops[0], ops[1]
		ops = ops[2:]
		w := Write{URN: urnN(int(a%5) + 1), Aspect: aspects[int(a>>3)%len(aspects)],
			Value:     json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, int(b>>5)%3)),
			KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
		if sm := memoSystemMetadata[int(b)%len(memoSystemMetadata)]; sm != "" {
			w.SystemMetadata = json.RawMessage(sm)
			if share {
				w.SystemMetadata = sharedSystemMetadata[int(b)%len(memoSystemMetadata)]
			}
		}
		if a&0x80 != 0 {
			w.Actor = "urn:li:corpuser:x"
		}
		ws = append(ws, w)
		if len(ws) == 8 || b&0x10 != 0 {
			flush(step)
		}
	}
	flush(-1)
	if diff := cmp.Diff(dump(t, p.slow.kv, aspectRows), dump(t, p.fast.kv, aspectRows)); diff != "" {
		t.Fatalf("rows (-reference +memo):\n%s", diff)
	}
}

// FuzzFieldMemo checks that the rows preBuild builds with fields from its
// memo are the rows, results and events of a store that builds every
// field (the general path).
func FuzzFieldMemo(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 2, 0, 3, 0x10, 0, 0x20, 1, 0x20, 2, 0x20, 3, 0x30, 0, 0x20, 1, 0x20, 2, 0x21, 3, 0x32})
	f.Add([]byte{0, 3, 1, 3, 2, 4, 3, 0x14, 0, 0x43, 1, 0x43, 2, 0x44, 3, 0x54, 0, 0x46, 1, 0x47, 0x82, 0x47, 0x83, 0x57})
	f.Add([]byte{8, 0, 9, 1, 10, 5, 11, 0x16, 8, 0x40, 9, 0x41, 10, 0x45, 11, 0x56, 8, 0x40, 9, 0x41, 10, 0x45, 11, 0x56})
	f.Add([]byte{0, 6, 1, 6, 2, 7, 3, 0x17, 0, 0x26, 1, 0x26, 2, 0x27, 3, 0x37, 0x80, 0x20, 0x81, 0x20, 0x82, 0x30})
	// Two rows of different systemMetadata given a new version by writes
	// of equal systemMetadata in one batch; then two writes of different
	// systemMetadata on rows of equal systemMetadata.
	f.Add([]byte{0, 0x00, 1, 0x12, 0, 0x20, 1, 0x30, 0, 0x40, 1, 0x42, 2, 0x42, 3, 0x52})
	f.Fuzz(func(t *testing.T, ops []byte) {
		memoOps(t, newMemoPair(t), ops, false)
	})
}

// sharedSystemMetadata is memoSystemMetadata, one memory each.
var sharedSystemMetadata = func() []json.RawMessage {
	out := make([]json.RawMessage, len(memoSystemMetadata))
	for i, sm := range memoSystemMetadata {
		out[i] = json.RawMessage(sm)
	}
	return out
}()

// memoSeeds are FuzzFieldMemoShared's seeds: FuzzFieldMemo's, and runs of
// writes of one systemMetadata.
func memoSeeds() [][]byte {
	return [][]byte{
		{0, 0, 1, 0, 2, 0, 3, 0x10, 0, 0x20, 1, 0x20, 2, 0x20, 3, 0x30, 0, 0x20, 1, 0x20, 2, 0x21, 3, 0x32},
		{0, 3, 1, 3, 2, 4, 3, 0x14, 0, 0x43, 1, 0x43, 2, 0x44, 3, 0x54, 0, 0x46, 1, 0x47, 0x82, 0x47, 0x83, 0x57},
		{8, 0, 9, 1, 10, 5, 11, 0x16, 8, 0x40, 9, 0x41, 10, 0x45, 11, 0x56, 8, 0x40, 9, 0x41, 10, 0x45, 11, 0x56},
		{0, 6, 1, 6, 2, 7, 3, 0x17, 0, 0x26, 1, 0x26, 2, 0x27, 3, 0x37, 0x80, 0x20, 0x81, 0x20, 0x82, 0x30},
		{0, 0x00, 1, 0x12, 0, 0x20, 1, 0x30, 0, 0x40, 1, 0x42, 2, 0x42, 3, 0x52},
		// Runs of writes of one systemMetadata, then of another, onto
		// rows of equal systemMetadata (a received copy of each run's
		// first write's members).
		{0, 0x00, 1, 0x00, 2, 0x00, 3, 0x10, 0, 0x21, 1, 0x21, 2, 0x22, 3, 0x32, 0, 0x43, 1, 0x43, 2, 0x44, 3, 0x54},
		{0, 0x03, 1, 0x03, 2, 0x03, 3, 0x13, 0, 0x23, 1, 0x23, 2, 0x23, 3, 0x37, 0, 0x47, 1, 0x47, 2, 0x40, 3, 0x50},
	}
}

// FuzzFieldMemoShared is FuzzFieldMemo with the writes of one
// systemMetadata sharing its memory.
func FuzzFieldMemoShared(f *testing.F) {
	for _, s := range memoSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ops []byte) {
		memoOps(t, newMemoPair(t), ops, true)
	})
}

// TestFieldMemoSharedBatches: 12 batches of 8 writes, each of one
// aspect, runs of 4 writes of one systemMetadata memory, the values
// changed or not, build the rows, results and events of the reference
// store (see memoPair).
func TestFieldMemoSharedBatches(t *testing.T) {
	t.Parallel()
	p := newMemoPair(t)
	var ops []byte
	for i := range 96 {
		batch := i / 8
		a := byte(i%5) | byte(batch%4)<<3 // dataset i%5, aspect batch%4 (see memoOps)
		b := byte(batch%3)<<5 | byte(i/4+batch)%8
		ops = append(ops, a, b)
	}
	memoOps(t, p, ops, true)
}

// storedRef is a stored value as a read found it: its memory and a copy.
type storedRef struct {
	key       string
	val, copy []byte
}

// storedRefs returns every row of s's aspectRows, history included, as
// the memory backend holds it.
func storedRefs(t *testing.T, s *Store) []storedRef {
	t.Helper()
	var out []storedRef
	err := s.kv.view(func(tx txn) error {
		return tx.scan(aspectRows, nil, nil, func(k, v []byte) (bool, error) {
			out = append(out, storedRef{key: string(k), val: v, copy: append([]byte(nil), v...)})
			return true, nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStoredRowsOwnTheirMemory: the rows a batch stores (built before the
// writer lock, with fields from the memo or not, refreshed or new
// versions) keep their bytes while later batches reuse the memory the
// batches are built in (the pooled batch memory, the memo's field and the
// systemMetadata room): a stored row shares no memory a later batch
// writes.
func TestStoredRowsOwnTheirMemory(t *testing.T) {
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	const n = 60
	batch := func(v, run int) []Write {
		ws := make([]Write, n)
		for i := range ws {
			ws[i] = Write{URN: urnN(i % 20), Aspect: []string{props, "status", "ownership"}[i%3],
				Value:     json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, v+i%2)),
				KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
				SystemMetadata: json.RawMessage(fmt.Sprintf(`{"runId":"r%d","lastObserved":%d}`, run, 5+i%2))}
		}
		return ws
	}
	var seen []storedRef
	for round := range 12 {
		// New versions, then unchanged values from another run (refreshed
		// rows), then the same again (nothing written).
		mustApply(t, s, batch(round/3, round%3)...)
		for _, r := range seen {
			if string(r.val) != string(r.copy) {
				t.Fatalf("round %d: the stored row %q changed:\nwas %q\nnow %q", round, r.key, r.copy, r.val)
			}
		}
		seen = append(seen, storedRefs(t, s)...)
	}
}

// TestPreBuildAllocations: building the row of a write before the writer
// lock allocates the row and nothing else, and nothing at all for a value
// and systemMetadata that leave the latest row as it is.
func TestPreBuildAllocations(t *testing.T) {
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	w := func(v string) Write {
		return Write{URN: urnN(1), Aspect: props, Value: json.RawMessage(`{"description":"` + v + `"}`),
			KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
			SystemMetadata: json.RawMessage(`{"runId":"r","lastObserved":5,"properties":{"a":"b"}}`)}
	}
	mustApply(t, s, w("1"))
	mustApply(t, s, w("1")) // lastRunId: the row changes once
	for _, c := range []struct {
		name  string
		value string
		want  float64
	}{{"unchanged", "1", 0}, {"new version", "2", 1}} {
		a := s.begin([]Write{w(c.value)})
		p := &a.ps[0]
		if !p.pre.ok || p.pre.unchanged != (c.want == 0) || (c.want == 0) != (p.pre.val == nil) {
			t.Fatalf("%s: built %v, unchanged %v, row %q", c.name, p.pre.ok, p.pre.unchanged, p.pre.val)
		}
		if got := testing.AllocsPerRun(50, func() { p.pre.build(p) }); got != c.want {
			t.Errorf("%s: %v allocations a build, want %v", c.name, got, c.want)
		}
		a.release()
	}
}

// TestFieldMemoInterleavedAspects: a batch that writes three aspects of
// each entity in turn, whose rows carry versions (and so systemMetadata)
// of their own, takes each aspect's field from the memo after its first
// (a memo of one field would build every one of them).
func TestFieldMemoInterleavedAspects(t *testing.T) {
	t.Parallel()
	const n = 50
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	var next, same, first atomic.Int64
	s.SetRules(nextRules{defaultRules, &next, &same, &first})
	aspects := []string{props, "status", "ownership"}
	batch := func(v int, only string) []Write {
		var ws []Write
		for i := range n {
			for _, a := range aspects {
				if only != "" && a != only {
					continue
				}
				ws = append(ws, Write{URN: urnN(i), Aspect: a, Value: json.RawMessage(fmt.Sprintf(`{"description":"%d"}`, v)),
					KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
					SystemMetadata: json.RawMessage(`{"runId":"r","lastObserved":7}`)})
			}
		}
		return ws
	}
	mustApply(t, s, batch(1, "")...)
	mustApply(t, s, batch(2, "status")...) // status is a version ahead
	mustApply(t, s, batch(3, "ownership")...)
	mustApply(t, s, batch(4, "ownership")...) // ownership two
	next.Store(0)
	mustApply(t, s, batch(5, "")...)
	if got := next.Load(); got > 3*8 {
		t.Errorf("%d calls of Next for %d writes, want at most %d", got, 3*n, 3*8)
	}
}

// TestFieldMemoProbesAfterMisses: a chunk stops looking in its memo after
// memoGiveUp writes that found nothing there, and looks again with two
// writes in a row of every memoProbe after that; a write that finds its
// field keeps it looking.
func TestFieldMemoProbesAfterMisses(t *testing.T) {
	t.Parallel()
	var ms fieldMemos
	for i := range memoGiveUp {
		if !ms.looks() {
			t.Fatalf("write %d does not look, after %d misses", i, i)
		}
		ms.misses++ // a miss
	}
	for round := range 3 {
		skipped := 0
		for !ms.looks() {
			if skipped++; skipped > memoProbe {
				t.Fatalf("round %d: no write looks after %d", round, skipped)
			}
		}
		if skipped < memoProbe-1 {
			t.Fatalf("round %d: a write looks after %d skipped, want %d", round, skipped, memoProbe-1)
		}
		ms.misses++ // the probe misses
		if !ms.looks() {
			t.Fatalf("round %d: the probe's next write does not look", round)
		}
		ms.misses++ // and misses too
	}
	if ms.looks() {
		t.Fatal("looks again right after a probe that missed")
	}
	ms.misses = 0 // a hit
	if !ms.looks() {
		t.Fatal("a write after a hit does not look")
	}
}
