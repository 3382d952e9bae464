package patch

import (
	"fmt"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/urn"
)

// newTyped returns a Builder for u, which must be an entity of type
// entityType.
func newTyped(u urn.URN, entityType string) *Builder {
	b := New(u)
	if b.err == nil && u.EntityType() != entityType {
		b.fail(fmt.Errorf("patch: %s is a %s, not a %s: %w", u, u.EntityType(), entityType, datahub.ErrValidation))
	}
	return b
}

// edge is the value of an edge added by URN: {"destinationUrn": urn}, as
// DataHub's Python builders send an edge given as a URN (created and
// lastModified left out).
type edge struct {
	DestinationURN string `json:"destinationUrn"`
}

// addEdge adds the edge to urn u in aspect's keyed edge field, checking
// that u is an entity of one of the types.
func (b *Builder) addEdge(aspect, field, u string, types ...string) {
	if !b.checkType(aspect+"."+field, u, types...) {
		return
	}
	b.Add(aspect, Path(field, u), edge{u})
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

// setEdges replaces a whole edge field with edges to the URNs.
func (b *Builder) setEdges(aspect, field string, urns []string, types ...string) {
	edges := make([]edge, 0, len(urns))
	for _, u := range urns {
		if !b.checkType(aspect+"."+field, u, types...) {
			return
		}
		edges = append(edges, edge{u})
	}
	b.Add(aspect, Path(field), edges)
}
