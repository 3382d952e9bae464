package client

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestEffectiveDescription reads ML entities and datasets through GraphQL
// and checks that the edited description wins over the ingested one, that
// an empty edited one does not, and that nothing written gives "".
func TestEffectiveDescription(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	table, feature, model, group, ds := gqlURNs(t)
	plain, _ := urn.NewDataset("hive", "db.plain", "PROD")
	blank, _ := urn.NewDataset("hive", "db.blank", "PROD")
	emitAll(t, s, map[urn.URN][]aspects.Aspect{
		feature: {aspects.MLFeatureProperties{Description: aspects.Ptr("ingested feature")},
			aspects.EditableMLFeatureProperties{Description: aspects.Ptr("edited feature")}},
		table: {aspects.MLFeatureTableProperties{Description: aspects.Ptr("ingested table")}},
		model: {aspects.MLModelProperties{Description: aspects.Ptr("ingested model")},
			aspects.EditableMLModelProperties{Description: aspects.Ptr("")}},
		group: {aspects.EditableMLModelGroupProperties{Description: aspects.Ptr("edited group")}},
		ds: {aspects.DatasetProperties{Description: aspects.Ptr("ingested dataset")},
			aspects.EditableDatasetProperties{Description: aspects.Ptr("edited dataset")}},
		plain: {aspects.DatasetProperties{Description: aspects.Ptr("ingested only")}},
		blank: {aspects.Status{}},
	})
	c := newTestClient(t, s)
	ctx := t.Context()
	got := map[string]string{}
	f, err := c.MLFeature(ctx, feature)
	if err != nil {
		t.Fatal(err)
	}
	got["feature"] = f.EffectiveDescription()
	ft, err := c.MLFeatureTable(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	got["table"] = ft.EffectiveDescription()
	m, err := c.MLModel(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	got["model"] = m.EffectiveDescription()
	g, err := c.MLModelGroup(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	got["group"] = g.EffectiveDescription()
	for name, u := range map[string]urn.Dataset{"dataset": ds, "plain": plain, "blank": blank} {
		d, err := c.Dataset(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		got[name] = d.EffectiveDescription()
	}
	want := map[string]string{"feature": "edited feature", "table": "ingested table", "model": "ingested model",
		"group": "edited group", "dataset": "edited dataset", "plain": "ingested only", "blank": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("effective descriptions (-want +got):\n%s", diff)
	}
}

// TestColumns checks the joined column view: schema fields in order, each
// with the description edited for exactly its path.
func TestColumns(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	_, _, _, _, ds := gqlURNs(t)
	const v2 = "[version=2.0].[type=struct].[type=string].user_id"
	emitAll(t, s, map[urn.URN][]aspects.Aspect{
		ds: {aspects.SchemaMetadata{SchemaName: "users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
			Fields: []aspects.SchemaField{
				{FieldPath: "id", Description: aspects.Ptr("Row id."), Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "int"},
				{FieldPath: v2, Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
				{FieldPath: "email", Description: aspects.Ptr("Ingested."), Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
			}}},
	})
	c := newTestClient(t, s)
	ctx := t.Context()
	if err := c.SetFieldDescription(ctx, ds, "user_id", "Who."); err != nil { // written under the v2 path
		t.Fatal(err)
	}
	if err := c.SetFieldDescription(ctx, ds, "email", "Contact address."); err != nil {
		t.Fatal(err)
	}
	d, err := c.Dataset(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	type view struct{ Path, Edited, Effective string }
	var got []view
	for _, col := range d.Columns() {
		got = append(got, view{col.FieldPath, deref(col.EditedDescription), col.EffectiveDescription()})
	}
	want := []view{{"id", "<nil>", "Row id."}, {v2, "Who.", "Who."}, {"email", "Contact address.", "Contact address."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	if cols := (&DatasetView{}).Columns(); cols != nil {
		t.Errorf("a dataset without schema has columns %v", cols)
	}
}

// TestColumnTagsAndTerms: the GraphQL read of a dataset gives each column
// the schema's tags and terms and those added with the column helpers,
// under the v2 path a simple name resolved to, and AllTags and
// AllGlossaryTerms join them with each label once.
func TestColumnTagsAndTerms(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	_, _, _, _, ds := gqlURNs(t)
	const v2 = "[version=2.0].[type=struct].address.[type=string].city"
	pii, gold := urn.MustParse("urn:li:tag:pii").(urn.Tag), urn.MustParse("urn:li:tag:gold").(urn.Tag)
	place, revenue := urn.MustParse("urn:li:glossaryTerm:Geo.Place").(urn.GlossaryTerm), urn.MustParse("urn:li:glossaryTerm:Finance.Revenue").(urn.GlossaryTerm)
	emitAll(t, s, map[urn.URN][]aspects.Aspect{
		ds: {aspects.SchemaMetadata{SchemaName: "users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
			Fields: []aspects.SchemaField{
				{FieldPath: "[version=2.0].[type=struct].[type=long].id", Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "long"},
				{FieldPath: v2, Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string",
					GlobalTags:    &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: pii.String()}}},
					GlossaryTerms: &aspects.GlossaryTerms{Terms: []aspects.GlossaryTermAssociation{{URN: place.String()}}, AuditStamp: aspects.AuditStamp{Actor: "urn:li:corpuser:ingest"}}},
			}}},
	})
	c := newTestClient(t, s)
	ctx := t.Context()
	for _, err := range []error{
		c.AddFieldTag(ctx, ds, "address.city", pii), // also the schema's: shown once
		c.AddFieldTag(ctx, ds, "address.city", gold),
		c.AddFieldTerm(ctx, ds, "address.city", revenue),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	d, err := c.Dataset(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		Path                      string
		SchemaTags, EditedTags    []string
		SchemaTerms, EditedTerms  []string
		AllTags, AllGlossaryTerms []string
	}
	tagURNs := func(g *GlobalTagsView) []string {
		if g == nil {
			return nil
		}
		var out []string
		for _, t := range g.Tags {
			out = append(out, t.Tag.URN+" "+t.Tag.Name)
		}
		return out
	}
	termURNs := func(g *GlossaryTermsView) []string {
		if g == nil {
			return nil
		}
		var out []string
		for _, t := range g.Terms {
			out = append(out, t.Term.URN)
		}
		return out
	}
	var got []view
	for _, col := range d.Columns() {
		v := view{Path: col.FieldPath, SchemaTags: tagURNs(col.Tags), EditedTags: tagURNs(col.EditedTags),
			SchemaTerms: termURNs(col.GlossaryTerms), EditedTerms: termURNs(col.EditedGlossaryTerms),
			AllTags: tagURNs(&GlobalTagsView{Tags: col.AllTags()}), AllGlossaryTerms: termURNs(&GlossaryTermsView{Terms: col.AllGlossaryTerms()})}
		got = append(got, v)
	}
	want := []view{
		{Path: "[version=2.0].[type=struct].[type=long].id"},
		{Path: v2, SchemaTags: []string{"urn:li:tag:pii pii"}, EditedTags: []string{"urn:li:tag:pii pii", "urn:li:tag:gold gold"},
			SchemaTerms: []string{place.String()}, EditedTerms: []string{revenue.String()},
			AllTags: []string{"urn:li:tag:pii pii", "urn:li:tag:gold gold"}, AllGlossaryTerms: []string{place.String(), revenue.String()}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("columns (-want +got):\n%s", diff)
	}
	// The edited entry itself carries them too.
	if e := d.EditableSchemaMetadata.EditableSchemaFieldInfo; len(e) != 1 || e[0].FieldPath != v2 || e[0].Tags == nil || len(e[0].Tags.Tags) != 2 ||
		e[0].GlossaryTerms == nil || len(e[0].GlossaryTerms.Terms) != 1 {
		t.Errorf("editableSchemaFieldInfo %+v", e)
	}
}
