package client

import "slices"

// The description an entity shows in DataHub is the one edited in DataHub
// (editableProperties, or editableSchemaMetadata for a column) when it is
// set and not empty, else the one ingested with the entity's properties
// (or its schema). The accessors below apply that rule.

// effectiveDescription returns the first of ds that is set and not empty.
func effectiveDescription(ds ...*string) string {
	for _, d := range ds {
		if d != nil && *d != "" {
			return *d
		}
	}
	return ""
}

// edited returns the description of editableProperties, nil when none.
func (c *Common) edited() *string {
	if c.EditableProperties == nil {
		return nil
	}
	return c.EditableProperties.Description
}

// EffectiveDescription returns the feature's description as DataHub shows
// it: the one edited in DataHub when set and not empty, else the ingested
// one, else "".
func (f *MLFeatureView) EffectiveDescription() string {
	var ingested *string
	if f.Properties != nil {
		ingested = f.Properties.Description
	}
	return effectiveDescription(f.edited(), ingested, f.Description)
}

// EffectiveDescription returns the feature table's description as DataHub
// shows it: the one edited in DataHub when set and not empty, else the
// ingested one, else "".
func (t *MLFeatureTableView) EffectiveDescription() string {
	var ingested *string
	if t.Properties != nil {
		ingested = t.Properties.Description
	}
	return effectiveDescription(t.edited(), ingested, t.Description)
}

// EffectiveDescription returns the model's description as DataHub shows
// it: the one edited in DataHub when set and not empty, else the ingested
// one, else "".
func (m *MLModelView) EffectiveDescription() string {
	var ingested *string
	if m.Properties != nil {
		ingested = m.Properties.Description
	}
	return effectiveDescription(m.edited(), ingested, m.Description)
}

// EffectiveDescription returns the model group's description as DataHub
// shows it: the one edited in DataHub when set and not empty, else the
// ingested one, else "".
func (g *MLModelGroupView) EffectiveDescription() string {
	var ingested *string
	if g.Properties != nil {
		ingested = g.Properties.Description
	}
	return effectiveDescription(g.edited(), ingested, g.Description)
}

// EffectiveDescription returns the dataset's description as DataHub shows
// it: the one edited in DataHub (editableDatasetProperties) when set and
// not empty, else the ingested one (datasetProperties), else "".
func (d *DatasetView) EffectiveDescription() string {
	var ingested *string
	if d.Properties != nil {
		ingested = d.Properties.Description
	}
	return effectiveDescription(d.edited(), ingested)
}

// ColumnView is one column of a dataset: its schema field joined with what
// was edited in DataHub for it (description, tags, glossary terms).
type ColumnView struct {
	SchemaFieldView
	// EditedDescription is the description edited in DataHub
	// (editableSchemaMetadata) under the field's path, nil when none.
	EditedDescription *string
	// EditedTags are the tags added in DataHub (editableSchemaMetadata,
	// as AddFieldTag adds them) under the field's path, nil when none
	// were ever added; SchemaField.Tags are the schema's own.
	EditedTags *GlobalTagsView
	// EditedGlossaryTerms are the glossary terms added in DataHub under
	// the field's path, nil when none were ever added;
	// SchemaField.GlossaryTerms are the schema's own.
	EditedGlossaryTerms *GlossaryTermsView
}

// EffectiveDescription returns the column's description as DataHub shows
// it: the edited one when set and not empty, else the schema's, else "".
func (c ColumnView) EffectiveDescription() string {
	return effectiveDescription(c.EditedDescription, c.Description)
}

// AllTags returns the column's tags as DataHub shows them together: the
// schema's, then those added in DataHub, each tag once.
func (c ColumnView) AllTags() []TagAssociationView {
	var out []TagAssociationView
	for _, g := range []*GlobalTagsView{c.Tags, c.EditedTags} {
		if g == nil {
			continue
		}
		for _, t := range g.Tags {
			if !slices.ContainsFunc(out, func(o TagAssociationView) bool { return o.Tag.URN == t.Tag.URN }) {
				out = append(out, t)
			}
		}
	}
	return out
}

// AllGlossaryTerms returns the column's glossary terms as DataHub shows
// them together: the schema's, then those added in DataHub, each term
// once.
func (c ColumnView) AllGlossaryTerms() []GlossaryTermAssociationView {
	var out []GlossaryTermAssociationView
	for _, g := range []*GlossaryTermsView{c.GlossaryTerms, c.EditedGlossaryTerms} {
		if g == nil {
			continue
		}
		for _, t := range g.Terms {
			if !slices.ContainsFunc(out, func(o GlossaryTermAssociationView) bool { return o.Term.URN == t.Term.URN }) {
				out = append(out, t)
			}
		}
	}
	return out
}

// Columns returns the dataset's columns in schema order, each schema field
// with what was edited for it. An edited entry belongs to the field with
// exactly its path, as DataHub's UI matches them (the column helpers write
// under the schema's path); an entry for a path the schema lacks is left
// out. Columns is nil for a dataset without schema.
func (d *DatasetView) Columns() []ColumnView {
	if d.SchemaMetadata == nil {
		return nil
	}
	edited := map[string]*EditableSchemaFieldInfoView{}
	if d.EditableSchemaMetadata != nil {
		for i, e := range d.EditableSchemaMetadata.EditableSchemaFieldInfo {
			if _, seen := edited[e.FieldPath]; !seen {
				edited[e.FieldPath] = &d.EditableSchemaMetadata.EditableSchemaFieldInfo[i]
			}
		}
	}
	cols := make([]ColumnView, len(d.SchemaMetadata.Fields))
	for i, f := range d.SchemaMetadata.Fields {
		cols[i] = ColumnView{SchemaFieldView: f}
		if e := edited[f.FieldPath]; e != nil {
			cols[i].EditedDescription, cols[i].EditedTags, cols[i].EditedGlossaryTerms = e.Description, e.Tags, e.GlossaryTerms
		}
	}
	return cols
}
