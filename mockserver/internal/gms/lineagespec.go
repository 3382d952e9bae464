package gms

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// EdgeInfo is one lineage edge type of an entity type in DataHub's lineage
// registry: the relationship, its direction from the entity and the entity
// type at its other end.
type EdgeInfo struct {
	Type, Direction, OpposingEntityType string
}

// LineageSpec is an entity type's lineage edges, upstream and downstream.
type LineageSpec struct {
	Upstream, Downstream []EdgeInfo
}

// LineageSpecs returns the lineage registry as DataHub's LineageRegistry
// builds it from the @Relationship annotations with isLineage: an edge
// "A Rel B" that is upstream gives A the upstream edge (Rel, OUTGOING, B)
// and B the downstream edge (Rel, INCOMING, A); one that is not, the
// other way round. Keys are lower-case entity names; every registry
// entity has an entry (possibly empty); edges are sorted.
var LineageSpecs = sync.OnceValue(func() map[string]LineageSpec {
	type key struct{ src, dst, typ string }
	seen := map[key]bool{}
	up := map[string]map[EdgeInfo]bool{}
	down := map[string]map[EdgeInfo]bool{}
	add := func(m map[string]map[EdgeInfo]bool, ent string, e EdgeInfo) {
		ent = strings.ToLower(ent)
		if m[ent] == nil {
			m[ent] = map[EdgeInfo]bool{}
		}
		m[ent][e] = true
	}
	for _, le := range pdl.LineageEdges() {
		for _, dst := range le.EntityTypes {
			k := key{le.Entity, dst, le.Name}
			if seen[k] {
				continue
			}
			seen[k] = true
			if le.IsUpstream {
				add(up, le.Entity, EdgeInfo{le.Name, "OUTGOING", dst})
				add(down, dst, EdgeInfo{le.Name, "INCOMING", le.Entity})
			} else {
				add(down, le.Entity, EdgeInfo{le.Name, "OUTGOING", dst})
				add(up, dst, EdgeInfo{le.Name, "INCOMING", le.Entity})
			}
		}
	}
	sorted := func(m map[EdgeInfo]bool) []EdgeInfo {
		out := make([]EdgeInfo, 0, len(m))
		for e := range m {
			out = append(out, e)
		}
		slices.SortFunc(out, func(a, b EdgeInfo) int {
			return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.Direction, b.Direction), cmp.Compare(a.OpposingEntityType, b.OpposingEntityType))
		})
		return out
	}
	out := map[string]LineageSpec{}
	for _, e := range pdl.Entities() {
		n := strings.ToLower(e.Name)
		out[n] = LineageSpec{Upstream: sorted(up[n]), Downstream: sorted(down[n])}
	}
	return out
})
