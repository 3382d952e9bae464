package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// Dataset builds the patches of a dataset, as DataHub's Python
// DatasetPatchBuilder does. The embedded Builder gives the tag, term,
// owner, link and custom-property methods.
type Dataset struct {
	*Builder
}

// NewDataset returns a patch builder for dataset u.
func NewDataset(u urn.Dataset) *Dataset { return &Dataset{New(u)} }

// SetDescription sets datasetProperties.description.
func (d *Dataset) SetDescription(description string) {
	d.Add("datasetProperties", "/description", description)
}

// SetEditableDescription sets editableDatasetProperties.description, the
// description edited in DataHub's UI.
func (d *Dataset) SetEditableDescription(description string) {
	d.Add("editableDatasetProperties", "/description", description)
}

// SetDisplayName sets datasetProperties.name.
func (d *Dataset) SetDisplayName(name string) { d.Add("datasetProperties", "/name", name) }

// SetQualifiedName sets datasetProperties.qualifiedName.
func (d *Dataset) SetQualifiedName(name string) {
	d.Add("datasetProperties", "/qualifiedName", name)
}

// SetExternalURL sets datasetProperties.externalUrl.
func (d *Dataset) SetExternalURL(url string) { d.Add("datasetProperties", "/externalUrl", url) }

// AddUpstream adds an upstream: add /upstreams/<dataset urn> on
// upstreamLineage.
// A zero AuditStamp is written as DataHub's default
// {"time":0,"actor":"urn:li:corpuser:unknown"}.
func (d *Dataset) AddUpstream(up aspects.Upstream) {
	d.Add("upstreamLineage", Path("upstreams", up.Dataset), up)
}

// RemoveUpstream removes the upstream dataset with URN dataset.
func (d *Dataset) RemoveUpstream(dataset string) {
	d.Remove("upstreamLineage", Path("upstreams", dataset))
}

// SetUpstreams replaces all upstreams.
func (d *Dataset) SetUpstreams(ups []aspects.Upstream) {
	if ups == nil {
		ups = []aspects.Upstream{}
	}
	d.Add("upstreamLineage", "/upstreams", ups)
}

// AddFineGrainedUpstream adds column-level lineage from upstream (a
// schemaField URN) to downstream: add
// /fineGrainedLineages/<transform>/<downstream>/<query>/<upstream> with
// {"confidenceScore": score}. transform and query default to "NONE".
func (d *Dataset) AddFineGrainedUpstream(transform, downstream, query, upstream string, score float32) {
	d.Add("upstreamLineage", fineGrainedPath(transform, downstream, query, upstream), map[string]float32{"confidenceScore": score})
}

// RemoveFineGrainedUpstream removes one column-level lineage edge.
func (d *Dataset) RemoveFineGrainedUpstream(transform, downstream, query, upstream string) {
	d.Remove("upstreamLineage", fineGrainedPath(transform, downstream, query, upstream))
}

// AddFineGrainedLineage adds the column-level edges of l (exactly one
// downstream, a schemaField of this dataset) to upstreamLineage, one add
// per upstream as [Dataset.AddFineGrainedUpstream] writes it.
func (d *Dataset) AddFineGrainedLineage(l aspects.FineGrainedLineage) {
	d.fineGrainedOn("upstreamLineage", OpAdd, l)
}

// RemoveFineGrainedLineage removes the column-level edges of l.
func (d *Dataset) RemoveFineGrainedLineage(l aspects.FineGrainedLineage) {
	d.fineGrainedOn("upstreamLineage", OpRemove, l)
}

// SetFineGrainedLineages replaces all column-level lineage of the dataset.
func (d *Dataset) SetFineGrainedLineages(lineages []aspects.FineGrainedLineage) {
	if lineages == nil {
		lineages = []aspects.FineGrainedLineage{}
	}
	d.Add("upstreamLineage", "/fineGrainedLineages", lineages)
}

func fineGrainedPath(transform, downstream, query, upstream string) string {
	if transform == "" {
		transform = "NONE"
	}
	if query == "" {
		query = "NONE"
	}
	return Path("fineGrainedLineages", transform, downstream, query, upstream)
}

// Field returns the builder of the editable schema metadata of the column
// whose schema field path is fieldPath
// (editableSchemaMetadata.editableSchemaFieldInfo).
//
// fieldPath must be the path exactly as the dataset's schemaMetadata has
// it. For a schema of version-2 paths that is the full path
// ("[version=2.0].[type=struct].address.[type=string].city"), not its
// simple form ("address.city"): an entry under a path the schema lacks is
// stored without error but belongs to no column, so DataHub shows nothing
// of it. The builder has no schema and cannot tell the two apart. To name
// a column by its simple form, use the client's column helpers
// ([github.com/catalogkit/datahub-go/client.Client.SetFieldDescription],
// [github.com/catalogkit/datahub-go/client.Client.AddFieldTag],
// [github.com/catalogkit/datahub-go/client.Client.AddFieldTerm] and their
// Remove forms), which read the schema and write under its path; or take
// the path from the schema's fields (the one whose
// [github.com/catalogkit/datahub-go/fieldpath.Simplify] is the simple
// form), or build it as the schema does with
// [github.com/catalogkit/datahub-go/fieldpath.New].
func (d *Dataset) Field(fieldPath string) *Field { return &Field{b: d.Builder, path: fieldPath} }

// Field builds patches of one column's editable schema metadata, the
// column named by its schema field path (see [Dataset.Field]).
type Field struct {
	b    *Builder
	path string
}

// SetDescription sets the field's editable description.
func (f *Field) SetDescription(description string) {
	f.b.Add("editableSchemaMetadata", Path("editableSchemaFieldInfo", f.path, "description"), description)
}

// AddTag adds a tag to the field: add
// /editableSchemaFieldInfo/<field>/globalTags/tags/<tag urn>.
func (f *Field) AddTag(tag aspects.TagAssociation) {
	f.b.Add("editableSchemaMetadata", Path("editableSchemaFieldInfo", f.path, "globalTags", "tags", tag.Tag), tag)
}

// RemoveTag removes a tag from the field.
func (f *Field) RemoveTag(tagURN string) {
	f.b.Remove("editableSchemaMetadata", Path("editableSchemaFieldInfo", f.path, "globalTags", "tags", tagURN))
}

// AddTerm adds a glossary term to the field: add
// /editableSchemaFieldInfo/<field>/glossaryTerms/terms/<term urn>, keyed
// by URN alone as DataHub's template keys a field's terms.
func (f *Field) AddTerm(term aspects.GlossaryTermAssociation) {
	f.b.Add("editableSchemaMetadata", Path("editableSchemaFieldInfo", f.path, "glossaryTerms", "terms", term.URN), term)
}

// RemoveTerm removes a glossary term from the field.
func (f *Field) RemoveTerm(termURN string) {
	f.b.Remove("editableSchemaMetadata", Path("editableSchemaFieldInfo", f.path, "glossaryTerms", "terms", termURN))
}

// AddSibling adds a sibling entity (the siblings aspect): add
// /siblings/<urn> with the URN; primary, when true, also sets /primary,
// marking this dataset the primary of the pair.
func (d *Dataset) AddSibling(sibling string, primary bool) {
	d.Add("siblings", Path("siblings", sibling), sibling)
	if primary {
		d.Add("siblings", "/primary", true)
	}
}

// RemoveSibling removes a sibling entity.
func (d *Dataset) RemoveSibling(sibling string) { d.Remove("siblings", Path("siblings", sibling)) }

// SetSiblings replaces all siblings and sets /primary.
func (d *Dataset) SetSiblings(siblings []string, primary bool) {
	d.setList("siblings", "siblings", siblings)
	d.Add("siblings", "/primary", primary)
}
