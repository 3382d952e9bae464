package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/urn"
)

// keyed is an aspect split into its keyed list (tags, terms, owners) and
// the rest: a change that only adds or removes list items can be sent as
// a PATCH, which DataHub's templates for these aspects merge by key.
type keyed struct {
	rest  any      // the aspect without the list
	keys  []string // the items' keys, in order
	items []any    // the items
}

// keyedOf splits v when it is an aspect with a keyed list.
func keyedOf(v aspects.Aspect) (keyed, bool) {
	var k keyed
	switch a := v.(type) {
	case *aspects.GlobalTags:
		cp := *a
		cp.Tags = nil
		k.rest = cp
		for _, t := range a.Tags {
			k.keys, k.items = append(k.keys, t.Tag), append(k.items, t)
		}
	case *aspects.GlossaryTerms:
		cp := *a
		cp.Terms = nil
		k.rest = cp
		for _, t := range a.Terms {
			k.keys, k.items = append(k.keys, t.URN), append(k.items, t)
		}
	case *aspects.Ownership:
		cp := *a
		cp.Owners = nil
		k.rest = cp
		for _, o := range a.Owners {
			k.keys, k.items = append(k.keys, o.Owner+"\x00"+string(o.Type)), append(k.items, o)
		}
	default:
		return k, false
	}
	return k, true
}

// listPatch is a change sent as a PATCH: the items added and the keys
// removed.
type listPatch struct {
	aspect  string
	added   []any
	addKeys []string
	removed []string
}

// patchOf returns the PATCH that turns the aspect read (raw; nil when
// there was none) into now, when the change only adds and removes items
// of its keyed list.
func patchOf(name string, raw json.RawMessage, now aspects.Aspect) (*listPatch, bool) {
	next, ok := keyedOf(now)
	if !ok {
		return nil, false
	}
	before, _ := aspects.New(name)
	if raw != nil && json.Unmarshal(raw, before) != nil {
		return nil, false
	}
	prev, _ := keyedOf(before)
	if !sameJSON(prev.rest, next.rest) {
		return nil, false
	}
	old := map[string]any{}
	for i, k := range prev.keys {
		old[k] = prev.items[i]
	}
	p := &listPatch{aspect: name}
	seen := map[string]bool{}
	for i, k := range next.keys {
		if seen[k] {
			return nil, false // a duplicate is no add
		}
		seen[k] = true
		o, had := old[k]
		switch {
		case !had:
			p.added, p.addKeys = append(p.added, next.items[i]), append(p.addKeys, k)
		case !sameJSON(o, next.items[i]):
			return nil, false // an item changed in place
		}
	}
	for _, k := range prev.keys {
		if !seen[k] {
			p.removed = append(p.removed, k)
		}
	}
	if len(p.added) == 0 && len(p.removed) == 0 {
		return nil, false // reordered: write it whole
	}
	return p, true
}

func sameJSON(a, b any) bool {
	x, err1 := marshalNoEscape(a)
	y, err2 := marshalNoEscape(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// proposals returns p as the PATCH proposals of u (the builder sends adds
// and removes of keyed items as documents of their own).
func (p *listPatch) proposals(u urn.URN) ([]emitter.Proposal, error) {
	b := patch.New(u)
	for _, it := range p.added {
		switch v := it.(type) {
		case aspects.TagAssociation:
			b.AddTag(v)
		case aspects.GlossaryTermAssociation:
			b.AddTerm(v)
		case aspects.Owner:
			b.AddOwner(v)
		}
	}
	for _, k := range p.removed {
		switch p.aspect {
		case "globalTags":
			b.RemoveTag(k)
		case "glossaryTerms":
			b.RemoveTerm(k)
		default:
			owner, typ, _ := strings.Cut(k, "\x00")
			b.RemoveOwner(owner, aspects.OwnershipType(typ))
		}
	}
	return b.Proposals()
}

// landed reports whether the aspect read back holds what p added and not
// what it removed: a PATCH whose answer was lost.
func (p *listPatch) landed(ctx context.Context, c *Client, u urn.URN, name string) (bool, error) {
	raw, _, err := c.readVersioned(ctx, u, name)
	if err != nil || raw == nil {
		return false, err
	}
	v, _ := aspects.New(name)
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("client: decode %s of %s: %w", name, u, err)
	}
	k, _ := keyedOf(v)
	for _, key := range p.addKeys {
		if !slices.Contains(k.keys, key) {
			return false, nil
		}
	}
	for _, key := range p.removed {
		if slices.Contains(k.keys, key) {
			return false, nil
		}
	}
	return true, nil
}

// patchChanges turns the changes of cs that only add or remove keyed list
// items into PATCHes, when the client writes with the Patch strategy.
func (c *Client) patchChanges(cs []change, st *entitystate.State) {
	if c.strategy != Patch {
		return
	}
	for i, ch := range cs {
		if p, ok := patchOf(ch.name, st.Aspects[ch.name].Raw, ch.now); ok {
			cs[i].patch = p
		}
	}
}
