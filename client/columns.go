package client

import (
	"context"
	"slices"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

// The column helpers (SetFieldDescription, AddFieldTag, RemoveFieldTag,
// AddFieldTerm, RemoveFieldTerm) edit one column's entry of a dataset's
// editableSchemaMetadata, the aspect DataHub's UI edits and ingestion
// leaves alone, keeping the other columns' entries. They name the column
// as SetFieldDescription says: its schema field path, or the simple form
// of a version-2 path that exactly one field has; the entry is written
// under the schema's path, so that DataHub shows it on that column.

// AddFieldTag adds tag to the column fieldPath of dataset ds (its
// editableSchemaMetadata entry's globalTags). The column is named and
// refused as in SetFieldDescription; a tag the column has writes nothing.
func (c *Client) AddFieldTag(ctx context.Context, ds urn.Dataset, fieldPath string, tag urn.Tag) error {
	if err := checkURN(tag); err != nil {
		return err
	}
	return c.writeField(ctx, ds, fieldPath, func(f *patch.Field) { f.AddTag(aspects.TagAssociation{Tag: tag.String()}) },
		func(f *aspects.EditableSchemaFieldInfo) error {
			if f.GlobalTags == nil {
				f.GlobalTags = &aspects.GlobalTags{}
			}
			return addTag(f.GlobalTags, tag)
		})
}

// RemoveFieldTag removes tag from the column fieldPath of dataset ds (its
// editableSchemaMetadata entry's globalTags). A tag of the schema itself
// (schemaMetadata, written by ingestion) is not removed; a tag the column
// does not have writes nothing.
func (c *Client) RemoveFieldTag(ctx context.Context, ds urn.Dataset, fieldPath string, tag urn.Tag) error {
	if err := checkURN(tag); err != nil {
		return err
	}
	return c.writeField(ctx, ds, fieldPath, func(f *patch.Field) { f.RemoveTag(tag.String()) },
		func(f *aspects.EditableSchemaFieldInfo) error {
			if f.GlobalTags == nil {
				return ErrNoChange
			}
			return removeTag(f.GlobalTags, tag)
		})
}

// AddFieldTerm adds glossary term term to the column fieldPath of dataset
// ds (its editableSchemaMetadata entry's glossaryTerms), setting those
// terms' audit stamp to now by the client's actor. The column is named
// and refused as in SetFieldDescription; a term the column has writes
// nothing.
func (c *Client) AddFieldTerm(ctx context.Context, ds urn.Dataset, fieldPath string, term urn.GlossaryTerm) error {
	if err := checkURN(term); err != nil {
		return err
	}
	return c.writeField(ctx, ds, fieldPath, func(f *patch.Field) { f.AddTerm(aspects.GlossaryTermAssociation{URN: term.String()}) },
		func(f *aspects.EditableSchemaFieldInfo) error {
			if f.GlossaryTerms == nil {
				f.GlossaryTerms = &aspects.GlossaryTerms{}
			}
			return c.addTerm(f.GlossaryTerms, term)
		})
}

// RemoveFieldTerm removes glossary term term from the column fieldPath of
// dataset ds (its editableSchemaMetadata entry's glossaryTerms). A term of
// the schema itself is not removed; a term the column does not have
// writes nothing.
func (c *Client) RemoveFieldTerm(ctx context.Context, ds urn.Dataset, fieldPath string, term urn.GlossaryTerm) error {
	if err := checkURN(term); err != nil {
		return err
	}
	return c.writeField(ctx, ds, fieldPath, func(f *patch.Field) { f.RemoveTerm(term.String()) },
		func(f *aspects.EditableSchemaFieldInfo) error {
			if f.GlossaryTerms == nil {
				return ErrNoChange
			}
			return c.removeTerm(f.GlossaryTerms, term)
		})
}

// writeField changes the editableSchemaMetadata entry of the column of ds
// that fieldPath names (resolved against the schema, see
// SetFieldDescription): under the patch strategy by the patch build makes
// on the column's builder, else by Modify applying change to the column's
// entry (a new, empty one when there is none; change returning
// ErrNoChange writes nothing) and stamping the aspect.
func (c *Client) writeField(ctx context.Context, ds urn.Dataset, fieldPath string, build func(*patch.Field), change func(*aspects.EditableSchemaFieldInfo) error) error {
	if err := checkURN(ds); err != nil {
		return err
	}
	fieldPath, err := c.schemaFieldPath(ctx, ds, fieldPath)
	if err != nil {
		return err
	}
	if patched, err := c.patched(); err != nil {
		return err
	} else if patched {
		// The schema read showed that the dataset exists.
		b := patch.NewDataset(ds)
		build(b.Field(fieldPath))
		return c.writePatch(ctx, ds, "editableSchemaMetadata", b.Builder, false)
	}
	return modify(ctx, c, ds, true, func(m *aspects.EditableSchemaMetadata) error {
		i := slices.IndexFunc(m.EditableSchemaFieldInfo, func(f aspects.EditableSchemaFieldInfo) bool { return f.FieldPath == fieldPath })
		if i >= 0 {
			if err := change(&m.EditableSchemaFieldInfo[i]); err != nil {
				return err
			}
			m.LastModified = c.stamp()
			return nil
		}
		f := aspects.EditableSchemaFieldInfo{FieldPath: fieldPath}
		if err := change(&f); err != nil {
			return err
		}
		m.EditableSchemaFieldInfo = append(m.EditableSchemaFieldInfo, f)
		if m.Created.IsZero() || m.Created.Actor == aspects.UnknownActor && m.Created.Time == 0 {
			m.Created = c.stamp()
		}
		m.LastModified = c.stamp()
		return nil
	})
}
