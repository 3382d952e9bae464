package index

// A search's page shows its hits from their entities' documents: with
// [Query.WithAspects], each hit of the page carries its document's latest
// aspects ([Hit.Aspects]) and the result says whether the index had every
// change the store committed when it answered ([Result.Current]), so that a
// caller can show the hits without reading the store for each.

// withAspects sets the Aspects of res's hits and res.Current when q asks
// for them. A hit whose document is gone (deleted since the evaluation)
// keeps nil Aspects.
func (x *Index) withAspects(q Query, res *Result) {
	if !q.WithAspects || len(res.Hits) == 0 {
		return
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	_, pending := x.sub.Peek()
	res.Current = !pending && x.dropped == 0 && !x.paused
	for k := range res.Hits {
		h := &res.Hits[k]
		i := x.entities[entityTypeOf(h.URN)]
		if i == nil {
			continue
		}
		if d := i.byID[h.URN]; d != nil {
			d.shared = true // never modified again: a write replaces it with a copy
			h.Aspects = d.Aspects
		}
	}
}
