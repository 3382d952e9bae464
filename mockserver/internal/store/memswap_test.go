package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// retainRules are the tests' Rules with version retention: datasetProperties
// keeps 3 versions, status 1 (no history), any other aspect all of them.
type retainRules struct{ Rules }

func (retainRules) KeepVersions(_, aspect string) int64 {
	switch aspect {
	case props:
		return 3
	case "status":
		return 1
	}
	return 0
}

// swapPair is two memory stores given the same operations: one whose
// writes take swapPreBuilt, one whose writes never do (the reference).
type swapPair struct {
	fast, slow       *Store
	fastSub, slowSub *Subscription
}

func newSwapPair(t testing.TB) *swapPair {
	p := &swapPair{fast: OpenMemory(stepClock()), slow: OpenMemory(stepClock())}
	p.slow.kv.(*memBackend).noSwap = true
	for _, s := range []*Store{p.fast, p.slow} {
		s.SetRules(retainRules{defaultRules})
		t.Cleanup(func() { _ = s.Close() })
	}
	p.fastSub, p.slowSub = p.fast.Subscribe(), p.slow.Subscribe()
	return p
}

// swapOps turns fuzz input into operations on a swapPair: batches of
// writes to three aspects of three datasets (whose values repeat, so that
// some are unchanged), a batch whose last write's check fails (rolled
// back), entity and aspect deletes, and a batch begun before the next
// operation and committed after it.
func swapOps(t *testing.T, p *swapPair, ops []byte) {
	aspects := []string{props, "status", "ownership"}
	values := []string{`{"description":"a"}`, `{"removed":false}`, `{"owners":[]}`}
	boom := errors.New("boom")
	var pending [2]*applying // nil: none
	for step := 0; len(ops) >= 3 && step < 48; step++ {
		op, b1, b2 := ops[0], ops[1], ops[2]
		ops = ops[3:]
		var ws []Write
		for j := range 1 + int(b2>>6) {
			a := (int(b1>>2) + j) % len(aspects)
			v := values[a]
			if a != 1 {
				v = fmt.Sprintf(`{"description":"%d"}`, (int(b2)+j)%4)
			}
			ws = append(ws, Write{URN: urnN(int(b1)%3 + j), Aspect: aspects[a], Value: json.RawMessage(v),
				KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV),
				SystemMetadata: json.RawMessage(fmt.Sprintf(`{"runId":"r%d","lastObserved":%d}`, b2&3, step+1))})
		}
		var got [2]string
		for k, s := range []*Store{p.fast, p.slow} {
			var res []Result
			var err error
			switch op % 8 {
			case 4:
				_, _, err = s.DeleteEntity(ws[0].URN)
			case 5:
				_, err = s.DeleteAspect(ws[0].URN, ws[0].Aspect)
			case 6:
				fail := ws[len(ws)-1]
				fail.Check = func(Current) error { return boom }
				res, err = s.Apply(append(ws[:len(ws)-1:len(ws)-1], fail))
			case 7:
				if pending[k] == nil {
					a := s.begin(ws)
					pending[k] = &a // committed after the next operation
					continue
				}
				fallthrough
			default:
				res, err = s.Apply(ws)
			}
			got[k] = fmt.Sprintf("%+v %v", res, err)
			if a := pending[k]; a != nil && op%8 != 7 {
				res, err := a.commit()
				a.release()
				pending[k] = nil
				got[k] += fmt.Sprintf(" then %+v %v", res, err)
			}
		}
		if got[0] != got[1] {
			t.Fatalf("step %d: swap %s, reference %s", step, got[0], got[1])
		}
		if diff := cmp.Diff(drain(p.slowSub), drain(p.fastSub)); diff != "" {
			t.Fatalf("step %d: events (-reference +swap):\n%s", step, diff)
		}
	}
	for k, a := range pending {
		if a != nil {
			a.release()
			pending[k] = nil
		}
	}
	if diff := cmp.Diff(dump(t, p.slow.kv, aspectRows), dump(t, p.fast.kv, aspectRows)); diff != "" {
		t.Fatalf("rows (-reference +swap):\n%s", diff)
	}
}

// FuzzSwapPreBuilt checks that the writes that put their rows in the
// cells preBuild found (swapPreBuilt) store, report and publish what the
// general path does, whatever commits between their two halves.
func FuzzSwapPreBuilt(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 3})
	f.Add([]byte{0, 0, 0, 7, 0, 1, 4, 0, 0, 0, 0, 2, 7, 0, 3, 0, 0, 0, 0, 0, 1})
	f.Add([]byte{0, 4, 0, 0, 4, 1, 7, 4, 2, 6, 4, 3, 0, 4, 0, 7, 8, 1, 5, 8, 1, 0, 8, 2})
	f.Add([]byte{0, 0, 0xc0, 7, 1, 0x41, 0, 1, 0x82, 7, 2, 3, 6, 2, 0x43, 0, 2, 0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		swapOps(t, newSwapPair(t), ops)
	})
}

// TestSwapPreBuiltFindsMovedCells: a batch whose rows were built on cells
// that a delete and a rewrite of their entity replaced before it took the
// writer lock stores its rows in the new cells, where reads find them.
func TestSwapPreBuiltFindsMovedCells(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	w := func(d string) Write {
		return Write{URN: urnN(1), Aspect: props, Value: json.RawMessage(`{"description":"` + d + `"}`),
			KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)}
	}
	mustApply(t, s, w("1"))
	mustApply(t, s, w("2"))
	a := s.begin([]Write{w("late")}) // built on version 2
	defer a.release()
	if !a.ps[0].pre.ok || a.ps[0].pre.cell == nil {
		t.Fatal("the write's row was not built on its cell before the lock")
	}
	if _, _, err := s.DeleteEntity(urnN(1)); err != nil {
		t.Fatal(err)
	}
	mustApply(t, s, w("again"))
	res, err := a.commit()
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Version != "2" {
		t.Errorf("version %q, want 2 (after the entity's new first version)", res[0].Version)
	}
	if got := mustGet(t, s, urnN(1), props, 0); string(got.Value) != `{"description":"late"}` {
		t.Errorf("latest value %s, want the late write's", got.Value)
	}
	if got := mustGet(t, s, urnN(1), props, 1); string(got.Value) != `{"description":"again"}` {
		t.Errorf("history row 1 %s, want the rewrite's", got.Value)
	}
}

// TestSwapPreBuiltIsTaken: a new version of an aspect, and a refreshed
// one, of an existing entity take swapPreBuilt, which a delete between the
// two halves of the write turns off.
func TestSwapPreBuiltIsTaken(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	t.Cleanup(func() { _ = s.Close() })
	w := func(d, run string) Write {
		return Write{URN: urnN(1), Aspect: props, Value: json.RawMessage(`{"description":"` + d + `"}`),
			KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV), SystemMetadata: json.RawMessage(`{"runId":"` + run + `"}`)}
	}
	mustApply(t, s, w("1", "a"), Write{URN: urnN(2), Aspect: props, Value: json.RawMessage(`{}`), KeyAspect: dsKey, KeyValue: json.RawMessage(dsKeyV)})
	swapped := func(ws []Write, between func()) bool {
		a := s.begin(ws)
		defer a.release()
		between()
		var ok bool
		err := s.kv.update(func(tx txn) error {
			_, ok = swapPreBuilt(tx, &a.ws[0], &a.ps[0])
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if !swapped([]Write{w("2", "a")}, func() {}) {
		t.Error("a new version did not take swapPreBuilt")
	}
	if !swapped([]Write{w("2", "b")}, func() {}) {
		t.Error("a refreshed row did not take swapPreBuilt")
	}
	if swapped([]Write{w("3", "a")}, func() {
		if _, _, err := s.DeleteEntity(urnN(2)); err != nil {
			t.Fatal(err)
		}
	}) {
		t.Error("a write took swapPreBuilt after a delete")
	}
}
