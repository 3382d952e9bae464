package index

import (
	"fmt"
	"sync"
	"testing"
)

// TestEntityDocumentWrites checks an entity document and its index's sizes
// through writes, deletes of aspects and of the whole document, with and
// without a reader holding the document in between: a document handed out
// stays as it was, and the index's Docs and SizeBytes always match its
// documents.
func TestEntityDocumentWrites(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	const u, w = "urn:li:corpuser:a", "urn:li:corpuser:bb"
	name := EntityIndexName("corpuser")
	check := func(step string, want map[string]map[string]string) {
		t.Helper()
		docs, size := 0, 0
		for _, u := range []string{u, w} {
			d, ok := x.Get(name, u)
			if ok != (want[u] != nil) {
				t.Fatalf("%s: %s indexed = %v, want %v", step, u, ok, want[u] != nil)
			}
			if !ok {
				continue
			}
			docs++
			wantSize := len(u)
			for a, v := range want[u] {
				wantSize += len(a) + len(v)
			}
			got := map[string]string{}
			for a, v := range d.Aspects {
				got[a] = string(v)
			}
			if fmt.Sprint(got) != fmt.Sprint(want[u]) || d.Size != wantSize {
				t.Errorf("%s: %s = %v (size %d), want %v (size %d)", step, u, got, d.Size, want[u], wantSize)
			}
			size += d.Size
		}
		var info Info
		for _, i := range x.Indices() {
			if i.Name == name {
				info = i
			}
		}
		if info.Docs != docs || info.SizeBytes != int64(size) {
			t.Errorf("%s: index holds %d documents of %d bytes, want %d of %d", step, info.Docs, info.SizeBytes, docs, size)
		}
	}
	put(t, st, u, "status", `{"removed":false}`)
	put(t, st, u, "corpUserEditableInfo", `{"displayName":"A"}`)
	put(t, st, w, "status", `{"removed":true}`)
	check("first writes", map[string]map[string]string{
		u: {"status": `{"removed":false}`, "corpUserEditableInfo": `{"displayName":"A"}`},
		w: {"status": `{"removed":true}`}})

	held, _ := x.Get(name, u) // a reader holds u's document from here on
	put(t, st, u, "corpUserEditableInfo", `{"displayName":"Ab"}`)
	put(t, st, u, "globalTags", `{"tags":[]}`)
	if _, err := st.DeleteAspect(u, "status"); err != nil {
		t.Fatal(err)
	}
	check("writes after a read", map[string]map[string]string{
		u: {"corpUserEditableInfo": `{"displayName":"Ab"}`, "globalTags": `{"tags":[]}`},
		w: {"status": `{"removed":true}`}})
	if len(held.Aspects) != 2 || string(held.Aspects["status"]) != `{"removed":false}` ||
		string(held.Aspects["corpUserEditableInfo"]) != `{"displayName":"A"}` || held.Size != len(u)+6+17+20+19 {
		t.Errorf("the document a reader held changed: %+v", held)
	}

	// Several writes without a reader in between, then the last aspects go.
	put(t, st, w, "status", `{"removed":false}`)
	put(t, st, w, "status", `{"removed":true}`)
	x.Sync()
	put(t, st, w, "corpUserEditableInfo", `{"displayName":"B"}`)
	if _, err := st.DeleteAspect(w, "status"); err != nil {
		t.Fatal(err)
	}
	x.Sync()
	if _, err := st.DeleteAspect(w, "corpUserEditableInfo"); err != nil {
		t.Fatal(err)
	}
	check("last aspect deleted", map[string]map[string]string{
		u: {"corpUserEditableInfo": `{"displayName":"Ab"}`, "globalTags": `{"tags":[]}`}})
	if res, err := x.Search(Query{Types: []string{"corpuser"}, Count: 10}); err != nil || res.Total != 1 {
		t.Errorf("search = %+v, %v; want 1 hit", res, err)
	}
}

// TestDocumentsReadWhileWritten reads documents handed out by Get and Each
// while a writer changes them (the race detector's test: a document handed
// out is never changed again).
func TestDocumentsReadWhileWritten(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	const u = "urn:li:corpuser:a"
	name := EntityIndexName("corpuser")
	put(t, st, u, "status", `{"removed":false}`)
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 200 {
			put(t, st, u, "corpUserEditableInfo", fmt.Sprintf(`{"displayName":"%d"}`, i))
			x.Sync()
		}
	})
	wg.Go(func() {
		for range 200 {
			d, ok := x.Get(name, u)
			n := 0
			for _, v := range d.Aspects {
				n += len(v)
			}
			if !ok || n == 0 || d.Size == 0 {
				t.Errorf("document = %+v, %v", d, ok)
			}
			x.Each(name, func(d *Document) bool {
				for range d.Aspects {
					n++
				}
				return true
			})
		}
	})
	wg.Wait()
}
