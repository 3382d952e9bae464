package index

import (
	"slices"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// LineageEdge is one @Relationship annotation with isLineage: an aspect
// field whose values are URNs its entity has a lineage edge to.
type LineageEdge struct {
	// Aspect is the aspect's name; Path the field's path in its JSON, as in
	// [SearchField].
	Aspect, Path string
	// Name is the relationship's name ("DownstreamOf").
	Name string
	// Upstream is isUpstream (DataHub's default, true): the values are the
	// entity's upstreams; false: its downstreams.
	Upstream bool
	// Via is the path of the URN the edge goes through ("" for none), in
	// the same array element as the edge's value ("upstreams/*/query": the
	// query an upstream was derived through).
	Via string
}

// Document fields that hold an entity's lineage edges: the URNs its own
// aspects name as upstreams and as downstreams. The walk reads the other
// direction of an edge from their postings.
const (
	fieldUpstreams   = "\x00upstreams"
	fieldDownstreams = "\x00downstreams"
	// fieldVia holds "neighbor\x00via" for each lineage edge of the
	// entity's own aspects that goes through a via entity.
	fieldVia = "\x00via"
)

// fieldRelated is the document field that holds every URN an entity's
// aspects name in a @Relationship field (lineage or not): its postings
// answer which entities name a URN, as DataHub's graph index answers an
// incoming relationships query.
const fieldRelated = "\x00related"

// relationshipPaths are the paths of the @Relationship fields of each
// aspect, built on first use.
var relationshipPaths = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, e := range pdl.Entities() {
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if _, done := m[a]; done {
				continue
			}
			var paths []string
			for _, r := range pdl.Relationships(a) {
				paths = append(paths, r.Path)
			}
			m[a] = paths
		}
	}
	return m
})

// Referrers returns, sorted, the entities whose indexed aspects name u in
// a @Relationship field (the sources of u's incoming edges, as far as the
// index has caught up with the store), from the postings: O(answer).
func (x *Index) Referrers(u string) []string {
	return x.relatedSources(func(related map[string]map[string]struct{}, out []string) []string {
		for w := range related[u] {
			out = append(out, w)
		}
		return out
	})
}

// relatedSources returns, sorted and without repeats, what collect adds
// to its list from each index's postings of @Relationship fields (target
// URN -> sources), the index caught up first.
func (x *Index) relatedSources(collect func(related map[string]map[string]struct{}, out []string) []string) []string {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	x.flushSearch()
	var out []string
	for _, i := range x.indices {
		if i.search != nil {
			out = collect(i.search.post[fieldRelated], out)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// lineageFacts are the lineage relationships of DataHub's PDL by aspect
// (package pdl's LineageEdges, an aspect shared by several entity types
// once), built on first use.
var lineageFacts = sync.OnceValue(func() map[string][]LineageEdge {
	m := map[string][]LineageEdge{}
	seen := map[[2]string]bool{}
	for _, e := range pdl.LineageEdges() {
		k := [2]string{e.Aspect, e.Path}
		if seen[k] {
			continue
		}
		seen[k] = true
		m[e.Aspect] = append(m[e.Aspect], LineageEdge{Aspect: e.Aspect, Path: e.Path, Name: e.Name, Upstream: e.IsUpstream, Via: e.Via})
	}
	return m
})

// LineageEdges returns the lineage relationships of an aspect.
func LineageEdges(aspect string) []LineageEdge { return lineageFacts()[aspect] }
