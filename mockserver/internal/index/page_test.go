package index

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// bruteForcePage is Page by a walk of every document.
func bruteForcePage(x *Index, name, after string, count int, includeRemoved bool) Page {
	var p Page
	x.Each(name, func(d *Document) bool {
		if !includeRemoved && Removed(d.Aspects["status"]) {
			return true
		}
		p.Total++
		if d.URN > after && len(p.URNs) < count {
			p.URNs = append(p.URNs, d.URN)
		}
		return true
	})
	return p
}

// Page's URNs and totals match a walk of the index after every kind of
// change (a status set, unset, changed in place and on a shared copy; an
// aspect and an entity deleted), so the removed count the index keeps
// follows the documents.
func TestPageMatchesWalk(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	r := rand.New(rand.NewPCG(1, 2))
	urn := func() string { return fmt.Sprintf("urn:li:corpuser:u%03d", r.IntN(60)) }
	for step := range 600 {
		u := urn()
		switch r.IntN(7) {
		case 0, 1:
			put(t, st, u, "status", fmt.Sprintf(`{"removed":%v}`, r.IntN(2) == 0))
		case 2:
			put(t, st, u, "corpUserInfo", `{"active":true}`)
		case 3:
			if _, err := st.DeleteAspect(u, "status"); err != nil {
				t.Fatal(err)
			}
		case 4:
			if _, _, err := st.DeleteEntity(u); err != nil {
				t.Fatal(err)
			}
		case 5:
			x.Get("corpuserindex_v2", u) // hand the document out: the next write copies it
		case 6:
			after := ""
			if r.IntN(3) > 0 {
				after = urn()
			}
			count, incl := r.IntN(8), r.IntN(2) == 0
			got := x.Page("corpuserindex_v2", after, count, incl)
			want := bruteForcePage(x, "corpuserindex_v2", after, count, incl)
			if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b []string) bool { return slices.Equal(a, b) })); diff != "" {
				t.Fatalf("step %d: Page(%q, %d, %v) (-walk +page):\n%s", step, after, count, incl, diff)
			}
		}
	}
}

// A page visits the documents it returns (and the removed ones it steps
// over), not the whole index: a page of 10 from the middle of 5,000
// documents visits 10.
func TestPageVisitsPage(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	for i := range 5000 {
		put(t, st, fmt.Sprintf("urn:li:corpuser:u%05d", i), "status", `{"removed":false}`)
	}
	x.Sync()
	before := x.testedCount()
	p := x.Page("corpuserindex_v2", "urn:li:corpuser:u02500", 10, false)
	if got := x.testedCount() - before; got != 10 {
		t.Errorf("visited %d documents, want 10", got)
	}
	if p.Total != 5000 || len(p.URNs) != 10 || p.URNs[0] != "urn:li:corpuser:u02501" {
		t.Errorf("page %v of %d", p.URNs, p.Total)
	}
}
