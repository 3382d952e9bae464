package gms

import (
	"fmt"
	"reflect"
	"sync"
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
