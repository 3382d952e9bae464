package gms

import (
	"context"
	"slices"
)

// Label is the kind of label the UI's label mutations change: a tag
// (globalTags) or a glossary term (glossaryTerms).
type Label int

// The labels.
const (
	// Tags are tag URNs in globalTags.tags[].tag.
	Tags Label = iota + 1
	// Terms are glossary term URNs in glossaryTerms.terms[].urn.
	Terms
)

// entityType is the label's entity type.
func (l Label) entityType() string {
	if l == Tags {
		return "tag"
	}
	return "glossaryTerm"
}

// aspect, member and key name where the label lives: aspect.member[].key
// (and the member of an editableSchemaFieldInfo or businessAttributeInfo).
func (l Label) aspect() (aspect, member, key string) {
	if l == Tags {
		return "globalTags", "tags", "tag"
	}
	return "glossaryTerms", "terms", "urn"
}

// LabelChange is an add or remove of labels on resources: DataHub's
// addTag(s), removeTag(s), addTerm(s), removeTerm(s) and their batch forms.
type LabelChange struct {
	Label Label
	// URNs are the labels.
	URNs []string
	// Resources are the entities or schema fields changed.
	Resources []ResourceRef
	// Remove removes the labels instead of adding them.
	Remove bool
}

// ChangeLabels adds or removes tags or glossary terms as DataHub's label
// resolvers and LabelUtils do. Every URN must be well formed; an added
// label must be of its type and exist; every resource must exist (a
// soft-deleted one does), and a sub-resource must be a field of the
// dataset's schemaMetadata (DataHub's texts, BadArgument). Then each
// resource is one read-modify-write with the UI's systemMetadata, so that
// concurrent changes lose nothing: the entity's globalTags or glossaryTerms
// (a business attribute's businessAttributeInfo), or the field's entry of
// editableSchemaMetadata (made when absent). Adding keeps a label already
// present once; glossary terms get an audit stamp of the change.
func (c *Core) ChangeLabels(ctx context.Context, ch LabelChange) error {
	for _, u := range ch.URNs {
		if err := checkURNs(u); err != nil {
			return err
		}
	}
	for _, r := range ch.Resources {
		if err := checkURNs(r.URN); err != nil {
			return err
		}
	}
	if !ch.Remove {
		for _, u := range ch.URNs {
			if err := c.validateLabel(ctx, u, ch.Label.entityType()); err != nil {
				return err
			}
		}
	}
	for _, r := range ch.Resources {
		if err := c.validateResource(ctx, r); err != nil {
			return err
		}
	}
	for _, r := range ch.Resources {
		if err := c.changeLabels(ctx, ch, r); err != nil {
			return err
		}
	}
	return nil
}

// changeLabels changes the labels of one resource.
func (c *Core) changeLabels(ctx context.Context, ch LabelChange, r ResourceRef) error {
	aspect, member, _ := ch.Label.aspect()
	missing := func(u string) *Error { return errorf(BadArgument, MsgResourceMissing, u) }
	stamp := c.stamp(ctx)
	switch {
	case r.sub() != "":
		return c.edit(ctx, r.URN, "editableSchemaMetadata", missing, func(obj map[string]any) error {
			info := fieldInfo(obj, r.sub())
			labels := object(info, aspect)
			if ch.Label == Terms && (!ch.Remove || labels["auditStamp"] == nil) {
				labels["auditStamp"] = stamp
			}
			labels[member] = editLabels(ch, list(labels, member))
			return nil
		})
	case EntityTypeOf(r.URN) == "businessAttribute":
		return c.edit(ctx, r.URN, "businessAttributeInfo", missing, func(obj map[string]any) error {
			labels := object(obj, aspect)
			if ch.Label == Terms && (!ch.Remove || labels["auditStamp"] == nil) {
				labels["auditStamp"] = stamp
			}
			labels[member] = editLabels(ch, list(labels, member))
			return nil
		})
	}
	return c.edit(ctx, r.URN, aspect, missing, func(obj map[string]any) error {
		if ch.Label == Terms {
			obj["auditStamp"] = stamp
		}
		obj[member] = editLabels(ch, list(obj, member))
		return nil
	})
}

// editLabels returns the associations with ch's labels added (each once,
// in ch's order, after those present) or removed.
func editLabels(ch LabelChange, cur []any) []any {
	_, _, key := ch.Label.aspect()
	out := make([]any, 0, len(cur)+len(ch.URNs))
	have := map[string]bool{}
	for _, it := range cur {
		m, _ := it.(map[string]any)
		u := strMember(m, key)
		if ch.Remove && slices.Contains(ch.URNs, u) {
			continue
		}
		have[u] = true
		out = append(out, it)
	}
	if !ch.Remove {
		for _, u := range ch.URNs {
			if !have[u] {
				have[u] = true
				out = append(out, map[string]any{key: u})
			}
		}
	}
	return out
}
