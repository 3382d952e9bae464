package index

// RelatedSources returns, sorted, the entities whose indexed aspects name
// any URN in a @Relationship field (the sources of every edge, as far as
// the index has caught up with the store), from the postings: O(edges),
// whatever the number of entities without any.
func (x *Index) RelatedSources() []string {
	return x.relatedSources(func(related map[string]map[string]struct{}, out []string) []string {
		for _, sources := range related {
			for w := range sources {
				out = append(out, w)
			}
		}
		return out
	})
}
