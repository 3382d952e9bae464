package patch

import (
	"fmt"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
)

// addEdge adds e to aspect's edge field, keyed by its destination:
// add /<field>/<destination urn> with the edge, checking that the
// destination is an entity of one of the types.
func (b *Builder) addEdge(aspect, field string, e aspects.Edge, types ...string) {
	if !b.checkType(aspect+"."+field, e.DestinationURN, types...) {
		return
	}
	b.Add(aspect, Path(field, e.DestinationURN), e)
}

// checkType reports whether u is the URN of an entity of one of types,
// recording an error when not.
func (b *Builder) checkType(what, u string, types ...string) bool {
	for _, t := range types {
		if strings.HasPrefix(u, "urn:li:"+t+":") {
			return true
		}
	}
	b.fail(fmt.Errorf("patch: %s: %q is not the URN of a %s: %w", what, u, strings.Join(types, " or "), datahub.ErrValidation))
	return false
}

// setEdges replaces a whole edge field.
func (b *Builder) setEdges(aspect, field string, edges []aspects.Edge, types ...string) {
	for _, e := range edges {
		if !b.checkType(aspect+"."+field, e.DestinationURN, types...) {
			return
		}
	}
	if edges == nil {
		edges = []aspects.Edge{}
	}
	b.Add(aspect, Path(field), edges)
}

// to returns the edge to u, as DataHub's Python builders make an edge
// given as a URN (no stamps).
func to(u string) aspects.Edge { return aspects.Edge{DestinationURN: u} }
