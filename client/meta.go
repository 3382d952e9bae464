package client

import (
	"context"
	"errors"
	"fmt"
	"slices"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/fieldpath"
	"github.com/catalogkit/datahub-go/urn"
)

// The metadata helpers work on any entity type whose registry entry has
// the aspect they write (institutionalMemory, globalTags, glossaryTerms,
// ownership); for another they fail wrapping datahub.ErrValidation before
// sending anything. Like the ML helpers they go through Modify (or send a
// PATCH under the patch strategy, see WithWriteStrategy), are
// idempotent, refuse an entity that does not exist with an
// *EntityNotFoundError and do not require the tag, term or owner to exist.

// stamp is an audit stamp of now by the client's actor.
func (c *Client) stamp() aspects.AuditStamp {
	return aspects.AuditStamp{Time: c.now().UnixMilli(), Actor: c.actor}
}

// AddLink adds a link (institutionalMemory element) to entity u with a
// create stamp of now by the client's actor (WithActor). A link to the same
// URL with the same description writes nothing; with another description,
// the description is replaced and an update stamp set.
func (c *Client) AddLink(ctx context.Context, u urn.URN, linkURL, description string) error {
	if linkURL == "" {
		return fmt.Errorf("client: add link to %s: empty URL: %w", u, datahub.ErrValidation)
	}
	return writeChange(ctx, c, u, func(b *patch.Builder) {
		b.AddLink(aspects.InstitutionalMemoryMetadata{URL: linkURL, Description: description, CreateStamp: c.stamp()})
	}, func(m *aspects.InstitutionalMemory) error {
		for i := range m.Elements {
			e := &m.Elements[i]
			if e.URL != linkURL {
				continue
			}
			if e.Description == description {
				return ErrNoChange
			}
			e.Description = description
			e.UpdateStamp = aspects.Ptr(c.stamp())
			return nil
		}
		m.Elements = append(m.Elements, aspects.InstitutionalMemoryMetadata{
			URL: linkURL, Description: description, CreateStamp: c.stamp(),
		})
		return nil
	})
}

// RemoveLink removes every link to linkURL from entity u.
func (c *Client) RemoveLink(ctx context.Context, u urn.URN, linkURL string) error {
	return writeChange(ctx, c, u, func(b *patch.Builder) { b.RemoveLink(linkURL) }, func(m *aspects.InstitutionalMemory) error {
		n := len(m.Elements)
		m.Elements = slices.DeleteFunc(m.Elements, func(e aspects.InstitutionalMemoryMetadata) bool { return e.URL == linkURL })
		if len(m.Elements) == n {
			return ErrNoChange
		}
		return nil
	})
}

// AddTag adds tag to entity u's globalTags.
func (c *Client) AddTag(ctx context.Context, u urn.URN, tag urn.Tag) error {
	if err := checkURN(tag); err != nil {
		return err
	}
	return writeChange(ctx, c, u, func(b *patch.Builder) { b.AddTag(aspects.TagAssociation{Tag: tag.String()}) }, func(g *aspects.GlobalTags) error {
		return addTag(g, tag)
	})
}

// RemoveTag removes tag from entity u's globalTags.
func (c *Client) RemoveTag(ctx context.Context, u urn.URN, tag urn.Tag) error {
	return writeChange(ctx, c, u, func(b *patch.Builder) { b.RemoveTag(tag.String()) }, func(g *aspects.GlobalTags) error {
		return removeTag(g, tag)
	})
}

// AddTerm adds glossary term term to entity u's glossaryTerms, setting the
// aspect's audit stamp to now by the client's actor.
func (c *Client) AddTerm(ctx context.Context, u urn.URN, term urn.GlossaryTerm) error {
	if err := checkURN(term); err != nil {
		return err
	}
	return writeChange(ctx, c, u, func(b *patch.Builder) {
		b.AddTerm(aspects.GlossaryTermAssociation{URN: term.String()})
	}, func(g *aspects.GlossaryTerms) error {
		return c.addTerm(g, term)
	})
}

// RemoveTerm removes glossary term term from entity u's glossaryTerms.
func (c *Client) RemoveTerm(ctx context.Context, u urn.URN, term urn.GlossaryTerm) error {
	return writeChange(ctx, c, u, func(b *patch.Builder) { b.RemoveTerm(term.String()) }, func(g *aspects.GlossaryTerms) error {
		return c.removeTerm(g, term)
	})
}

// AddOwner adds owner (a corpuser or corpGroup URN) with ownership type typ
// to entity u's ownership, setting lastModified to now by the client's
// actor. An owner already there with the same type writes nothing; the
// same owner with another type is added again, as DataHub keys owners by
// (owner, type).
func (c *Client) AddOwner(ctx context.Context, u urn.URN, owner urn.URN, typ aspects.OwnershipType) error {
	if err := checkURN(owner); err != nil {
		return err
	}
	if typ == "" {
		typ = aspects.OwnershipTypeTechnicalOwner
	}
	return writeChange(ctx, c, u, func(b *patch.Builder) {
		b.AddOwner(aspects.Owner{Owner: owner.String(), Type: typ})
	}, func(o *aspects.Ownership) error {
		if slices.ContainsFunc(o.Owners, func(x aspects.Owner) bool { return x.Owner == owner.String() && x.Type == typ }) {
			return ErrNoChange
		}
		o.Owners = append(o.Owners, aspects.Owner{Owner: owner.String(), Type: typ})
		o.LastModified = c.stamp()
		return nil
	})
}

// RemoveOwner removes owner, of every ownership type, from entity u's
// ownership.
func (c *Client) RemoveOwner(ctx context.Context, u urn.URN, owner urn.URN) error {
	if err := checkURN(owner); err != nil {
		return err
	}
	return writeChange(ctx, c, u, func(b *patch.Builder) { b.RemoveOwner(owner.String(), "") }, func(o *aspects.Ownership) error {
		n := len(o.Owners)
		o.Owners = slices.DeleteFunc(o.Owners, func(x aspects.Owner) bool { return x.Owner == owner.String() })
		if len(o.Owners) == n {
			return ErrNoChange
		}
		o.LastModified = c.stamp()
		return nil
	})
}

// SetDescription sets the description of a dataset or an ML entity
// (mlFeature, mlFeatureTable, mlModel, mlModelGroup) by a proposal to its
// editable properties aspect (editableDatasetProperties,
// editableMlFeatureProperties, ...), the aspect DataHub's UI edits and
// ingestion does not overwrite. This works on every DataHub version,
// whereas GraphQL's updateDescription refuses whole datasets in some.
// Other entity types fail wrapping datahub.ErrValidation.
func (c *Client) SetDescription(ctx context.Context, u urn.URN, description string) error {
	if err := checkURN(u); err != nil {
		return err
	}
	set := func(d **string) error {
		if *d != nil && **d == description {
			return ErrNoChange
		}
		*d = aspects.Ptr(description)
		return nil
	}
	switch u.EntityType() {
	case urn.TypeDataset:
		return writeChange(ctx, c, u, func(b *patch.Builder) {
			(&patch.Dataset{Builder: b}).SetEditableDescription(description)
		}, func(p *aspects.EditableDatasetProperties) error {
			if err := set(&p.Description); err != nil {
				return err
			}
			if p.Created.IsZero() || p.Created.Actor == aspects.UnknownActor && p.Created.Time == 0 {
				p.Created = c.stamp()
			}
			p.LastModified = c.stamp()
			return nil
		})
	case urn.TypeMLFeature:
		return modify(ctx, c, u, true, func(p *aspects.EditableMLFeatureProperties) error { return set(&p.Description) })
	case urn.TypeMLFeatureTable:
		return modify(ctx, c, u, true, func(p *aspects.EditableMLFeatureTableProperties) error { return set(&p.Description) })
	case urn.TypeMLModel:
		return modify(ctx, c, u, true, func(p *aspects.EditableMLModelProperties) error { return set(&p.Description) })
	case urn.TypeMLModelGroup:
		return modify(ctx, c, u, true, func(p *aspects.EditableMLModelGroupProperties) error { return set(&p.Description) })
	}
	return fmt.Errorf("client: set description of %s: entity type %s is not a dataset or ML entity: %w", u, u.EntityType(), datahub.ErrValidation)
}

// SetFieldDescription sets the description of the column fieldPath of
// dataset ds in its editableSchemaMetadata, keeping the other fields'
// entries. fieldPath names a field of the dataset's schemaMetadata: its
// path exactly, or, for a schema of version-2 paths, the simple form of
// one ("user_id" for "[version=2.0].[type=struct].[type=string].user_id",
// see fieldpath.Simplify) when exactly one field has it; the entry is then
// written under the field's full path, as DataHub's UI writes it. A simple
// form that several fields share (the members of a union) is refused with
// an *AmbiguousFieldError naming them; a path no field has is a
// *FieldNotFoundError; a dataset that does not exist an
// *EntityNotFoundError.
func (c *Client) SetFieldDescription(ctx context.Context, ds urn.Dataset, fieldPath, description string) error {
	return c.writeField(ctx, ds, fieldPath, func(f *patch.Field) { f.SetDescription(description) },
		func(f *aspects.EditableSchemaFieldInfo) error {
			if f.Description != nil && *f.Description == description {
				return ErrNoChange
			}
			f.Description = aspects.Ptr(description)
			return nil
		})
}

// schemaFieldPath returns the path of the field of ds's schemaMetadata
// that fieldPath names: the field with exactly that path, or else the one
// field whose path simplifies to it (see SetFieldDescription).
func (c *Client) schemaFieldPath(ctx context.Context, ds urn.Dataset, fieldPath string) (string, error) {
	schema, err := GetAspect[aspects.SchemaMetadata](ctx, c, ds)
	switch {
	case errors.Is(err, datahub.ErrNotFound):
		ok, xerr := c.Exists(ctx, ds)
		if xerr != nil {
			return "", xerr
		}
		if !ok {
			return "", &EntityNotFoundError{URN: ds.String()}
		}
		return "", &FieldNotFoundError{URN: ds.String(), FieldPath: fieldPath}
	case err != nil:
		return "", err
	}
	return resolveFieldPath(ds, schema.Fields, fieldPath)
}

// resolveFieldPath finds the field fieldPath names among fields: the one
// with that exact path, or else, for a simple path, the one version-2
// field whose simple form it is.
func resolveFieldPath(ds urn.Dataset, fields []aspects.SchemaField, fieldPath string) (string, error) {
	if slices.ContainsFunc(fields, func(f aspects.SchemaField) bool { return f.FieldPath == fieldPath }) {
		return fieldPath, nil
	}
	var candidates []string
	if !fieldpath.IsV2(fieldPath) {
		for _, f := range fields {
			if fieldpath.IsV2(f.FieldPath) && fieldpath.Simplify(f.FieldPath) == fieldPath {
				candidates = append(candidates, f.FieldPath)
			}
		}
	}
	switch len(candidates) {
	case 0:
		return "", &FieldNotFoundError{URN: ds.String(), FieldPath: fieldPath}
	case 1:
		return candidates[0], nil
	}
	return "", &AmbiguousFieldError{URN: ds.String(), FieldPath: fieldPath, Candidates: candidates}
}

// addTag adds tag to g; ErrNoChange when g has it.
func addTag(g *aspects.GlobalTags, tag urn.Tag) error {
	if slices.ContainsFunc(g.Tags, func(t aspects.TagAssociation) bool { return t.Tag == tag.String() }) {
		return ErrNoChange
	}
	g.Tags = append(g.Tags, aspects.TagAssociation{Tag: tag.String()})
	return nil
}

// removeTag removes tag from g; ErrNoChange when g does not have it.
func removeTag(g *aspects.GlobalTags, tag urn.Tag) error {
	n := len(g.Tags)
	g.Tags = slices.DeleteFunc(g.Tags, func(t aspects.TagAssociation) bool { return t.Tag == tag.String() })
	if len(g.Tags) == n {
		return ErrNoChange
	}
	return nil
}

// addTerm adds term to g and stamps g with now by the client's actor;
// ErrNoChange when g has it.
func (c *Client) addTerm(g *aspects.GlossaryTerms, term urn.GlossaryTerm) error {
	if slices.ContainsFunc(g.Terms, func(t aspects.GlossaryTermAssociation) bool { return t.URN == term.String() }) {
		return ErrNoChange
	}
	g.Terms = append(g.Terms, aspects.GlossaryTermAssociation{URN: term.String()})
	g.AuditStamp = c.stamp()
	return nil
}

// removeTerm removes term from g and stamps g; ErrNoChange when g does not
// have it.
func (c *Client) removeTerm(g *aspects.GlossaryTerms, term urn.GlossaryTerm) error {
	n := len(g.Terms)
	g.Terms = slices.DeleteFunc(g.Terms, func(t aspects.GlossaryTermAssociation) bool { return t.URN == term.String() })
	if len(g.Terms) == n {
		return ErrNoChange
	}
	g.AuditStamp = c.stamp()
	return nil
}
