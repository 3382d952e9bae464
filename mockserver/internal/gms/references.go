package gms

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// RelatedAspect is one aspect that names an entity
// (com.linkedin.metadata.run.RelatedAspect).
type RelatedAspect struct {
	Entity, Aspect, Relationship string
}

// DeleteReferences finds the aspects of other entities that name urn
// through a @Relationship field and, unless dryRun, removes the reference
// from each, as GMS's entities?action=deleteReferences
// (DeleteEntityService.deleteReferencesTo): an array item that names urn is
// removed from its array (a read-modify-write of the aspect); a reference
// outside an array is reported and left (GMS deletes such an aspect when it
// would become invalid; the mock does not).
func (c *Core) DeleteReferences(ctx context.Context, urn string, dryRun bool) ([]RelatedAspect, error) {
	c.barrier()
	if _, err := CheckURN(urn); err != nil {
		return nil, err
	}
	edges, err := c.edges(ctx, urn, nil, true)
	if err != nil {
		return nil, err
	}
	var out []RelatedAspect
	type target struct{ urn, aspect string }
	seen := map[RelatedAspect]bool{}
	var targets []target
	done := map[target]bool{}
	for _, e := range edges {
		if e.Source == urn {
			continue
		}
		ra := RelatedAspect{Entity: e.Source, Aspect: e.Aspect, Relationship: e.Type}
		if !seen[ra] {
			seen[ra] = true
			out = append(out, ra)
		}
		t := target{e.Source, e.Aspect}
		if !done[t] {
			done[t] = true
			targets = append(targets, t)
		}
	}
	if dryRun {
		return out, nil
	}
	for _, t := range targets {
		paths := pdl.Relationships(t.aspect)
		err := c.Update(ctx, t.urn, t.aspect, func(cur json.RawMessage) (json.RawMessage, error) {
			var v any
			d := json.NewDecoder(bytes.NewReader(cur))
			d.UseNumber() // longs keep every digit
			if err := d.Decode(&v); err != nil {
				return nil, err
			}
			for _, r := range paths {
				segs := strings.Split(strings.TrimPrefix(r.Path, "/"), "/")
				v = dropReferences(v, segs, urn)
			}
			return json.Marshal(v)
		}, UpdateOptions{})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// dropReferences removes from v the items of the arrays at path segs (a
// @Relationship path, "*" for an array) whose value at the rest of the
// path is urn.
func dropReferences(v any, segs []string, urn string) any {
	if len(segs) == 0 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if child, ok := x[segs[0]]; ok {
			x[segs[0]] = dropReferences(child, segs[1:], urn)
		}
		return x
	case []any:
		if segs[0] != "*" {
			return x
		}
		kept := x[:0]
		for _, item := range x {
			if names(item, segs[1:], urn) {
				continue
			}
			kept = append(kept, dropReferences(item, segs[1:], urn))
		}
		return kept
	}
	return v
}

// names reports whether v holds urn at path segs.
func names(v any, segs []string, urn string) bool {
	if len(segs) == 0 {
		s, ok := v.(string)
		return ok && s == urn
	}
	if m, ok := v.(map[string]any); ok {
		return names(m[segs[0]], segs[1:], urn)
	}
	return false
}
