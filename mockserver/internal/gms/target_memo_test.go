package gms

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
)

// TestCheckTargetMemo: CheckTarget answers as checkTarget, the check it
// remembers, for URNs checked the first time and again, more of them than
// its memo has slots (so that they share slots), from several goroutines
// at once.
func TestCheckTargetMemo(t *testing.T) {
	t.Parallel()
	urns := []string{"urn:li:corpuser:a", "urn:li:noSuchEntity:x", "urn:li:dataset:bad",
		"urn:li:DATASET:(urn:li:dataPlatform:hive,db.t,PROD)", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,NOPE)"}
	for i := range len(targetMemo) + 500 {
		urns = append(urns, fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,memo.t%d,PROD)", i))
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 2 {
				for k := range urns {
					u := urns[(k*(g+1)+round)%len(urns)]
					want, wantErr := checkTarget(u)
					got, err := CheckTarget(u)
					if (err == nil) != (wantErr == nil) || err != nil && *err != *wantErr ||
						got.URN != want.URN || got.Known != want.Known || got.Entity.Name != want.Entity.Name {
						t.Errorf("CheckTarget(%s) = %+v, %v; want %+v, %v", u, got, err, want, wantErr)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestCheckTargetCachesAspects: the URN facts checkTarget caches carry the
// entity's allowed aspects, as the ones prepare caches do, so that a
// proposal whose URN an adapter checked first looks its aspect up in one
// map (prepare falls back to allowedAspects when they are missing).
func TestCheckTargetCachesAspects(t *testing.T) {
	t.Parallel()
	for i := range 5 { // again if a concurrent test's URNs filled the cache, which starts over
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,aspects.t%d,PROD)", i)
		if _, err := checkTarget(u); err != nil {
			t.Fatal(err)
		}
		f, ok := cachedURNFacts(u)
		if !ok {
			continue
		}
		want := allowedAspects()["dataset"]
		if f.entity.Name != "dataset" || len(want) == 0 || reflect.ValueOf(f.aspects).Pointer() != reflect.ValueOf(want).Pointer() {
			t.Fatalf("checkTarget(%s) cached %s with %d aspects; want dataset's %d", u, f.entity.Name, len(f.aspects), len(want))
		}
		return
	}
	t.Fatal("checkTarget's URN facts were not cached")
}

// TestCheckTargetMemoSecondSlot: two URNs of one first slot are both
// remembered, the later in its second slot, and a URN found in either
// slot is answered from it. It is not parallel, so that no other test
// writes to the memo meanwhile (parallel tests wait for it).
func TestCheckTargetMemoSecondSlot(t *testing.T) {
	bySlot := map[*atomic.Pointer[Target]]string{}
	var a, b string
	for i := 0; b == ""; i++ {
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,second.t%d,PROD)", i)
		first, second := memoSlots(URNHash(u))
		if v, ok := bySlot[first]; ok {
			if vFirst, _ := memoSlots(URNHash(v)); vFirst == first && second != first {
				a, b = v, u
			}
			continue
		}
		bySlot[first] = u
	}
	aFirst, _ := memoSlots(URNHash(a))
	_, bSecond := memoSlots(URNHash(b))
	aFirst.Store(nil)
	bSecond.Store(nil)
	for _, u := range []string{a, b} {
		if _, err := CheckTarget(u); err != nil {
			t.Fatal(err)
		}
	}
	if got := aFirst.Load(); got == nil || got.URN != a {
		t.Errorf("first slot holds %+v, want %s", got, a)
	}
	if got := bSecond.Load(); got == nil || got.URN != b {
		t.Errorf("second slot holds %+v, want %s", got, b)
	}
	// Found in the second slot, with a Target of another URN in it
	// written there: the memo's answer is the slot's.
	bSecond.Store(&Target{URN: b, Known: true})
	if got, err := CheckTarget(b); err != nil || got.URN != b || got.Entity.Name != "" {
		t.Errorf("CheckTarget(%s) = %+v, %v; want the second slot's Target", b, got, err)
	}
	bSecond.Store(nil)
}
