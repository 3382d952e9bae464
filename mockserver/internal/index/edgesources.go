package index

import "slices"

// RelatedSources returns, sorted, the entities whose indexed aspects name
// any URN in a @Relationship field (the sources of every edge, as far as
// the index has caught up with the store), from the postings: O(edges),
// whatever the number of entities without any.
func (x *Index) RelatedSources() []string {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	x.flushSearch()
	var out []string
	for _, i := range x.indices {
		if i.search == nil {
			continue
		}
		for _, sources := range i.search.post[fieldRelated] {
			for w := range sources {
				out = append(out, w)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
