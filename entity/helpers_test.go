package entity_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSharedHelpers(t *testing.T) {
	t.Parallel()
	c := &entity.Chart{URN: urn.MustParse("urn:li:chart:(looker,c1)").(urn.Chart)}
	pii, gold := urn.MustParse("urn:li:tag:pii").(urn.Tag), urn.MustParse("urn:li:tag:gold").(urn.Tag)
	c.RemoveTag(pii)
	c.RemoveTerm(urn.MustParse("urn:li:glossaryTerm:x").(urn.GlossaryTerm))
	c.RemoveOwner(aspects.Owner{Owner: "urn:li:corpuser:x"})
	c.RemoveLink("https://x")
	c.RemoveStructuredProperty(urn.MustParse("urn:li:structuredProperty:x").(urn.StructuredProperty))
	if n := len(entity.Aspects(c)); n != 0 {
		t.Errorf("removes from an empty chart made %d aspects to write", n)
	}
	c.AddTag(pii)
	c.AddTag(gold)
	c.AddTag(pii) // replaced, not doubled
	c.RemoveTag(gold)
	c.RemoveTag(gold) // no error when absent
	if got := mustJSON(t, c.GlobalTags); got != `{"tags":[{"tag":"urn:li:tag:pii"}]}` {
		t.Errorf("tags %s", got)
	}
	c.SetTags(gold, gold)
	if got := mustJSON(t, c.GlobalTags); got != `{"tags":[{"tag":"urn:li:tag:gold"}]}` {
		t.Errorf("SetTags %s", got)
	}

	term := urn.MustParse("urn:li:glossaryTerm:Revenue").(urn.GlossaryTerm)
	c.AddTerm(term)
	if got := mustJSON(t, c.GlossaryTerms); got != `{"terms":[{"urn":"urn:li:glossaryTerm:Revenue"}],"auditStamp":{"time":0,"actor":"urn:li:corpuser:__ingestion"}}` {
		t.Errorf("terms %s", got)
	}
	c.RemoveTerm(term)
	if len(c.GlossaryTerms.Terms) != 0 {
		t.Errorf("RemoveTerm left %v", c.GlossaryTerms.Terms)
	}

	jdoe := urn.MustParse("urn:li:corpuser:jdoe").(urn.CorpUser)
	team := urn.MustParse("urn:li:corpGroup:data").(urn.CorpGroup)
	steward := urn.MustParse("urn:li:ownershipType:steward").(urn.OwnershipType)
	c.AddOwner(entity.NewOwner(jdoe, ""))
	c.AddOwner(entity.NewOwner(jdoe, aspects.OwnershipTypeBusinessOwner))
	c.AddOwner(entity.NewCustomOwner(team, steward))
	c.AddOwner(aspects.Owner{Owner: team.String()}) // no type: technical
	if got := len(c.Ownership.Owners); got != 4 {
		t.Fatalf("owners %v", c.Ownership.Owners)
	}
	c.RemoveOwner(aspects.Owner{Owner: team.String(), TypeURN: aspects.Ptr(steward.String())}) // typed: that one only
	if got := mustJSON(t, c.Ownership.Owners); got != `[{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpuser:jdoe","type":"BUSINESS_OWNER"},{"owner":"urn:li:corpGroup:data","type":"TECHNICAL_OWNER"}]` {
		t.Errorf("owners after a typed remove %s", got)
	}
	c.RemoveOwner(aspects.Owner{Owner: jdoe.String()}) // untyped: every type
	if got := mustJSON(t, c.Ownership.Owners); got != `[{"owner":"urn:li:corpGroup:data","type":"TECHNICAL_OWNER"}]` {
		t.Errorf("owners after an untyped remove %s", got)
	}

	c.SetDomain(urn.MustParse("urn:li:domain:sales").(urn.Domain))
	if got := mustJSON(t, c.Domains); got != `{"domains":["urn:li:domain:sales"]}` {
		t.Errorf("domain %s", got)
	}

	c.AddLink("https://wiki/c1", "")
	c.AddLink("https://wiki/c1", "Wiki") // same URL: replaced
	c.AddLink("https://x/y", "Y")
	c.RemoveLink("https://x/y")
	if got := mustJSON(t, c.InstitutionalMemory.Elements); got != `[{"url":"https://wiki/c1","description":"Wiki","createStamp":{"time":0,"actor":"urn:li:corpuser:__ingestion"}}]` {
		t.Errorf("links %s", got)
	}

	c.SetSubtype("Look")
	if got := mustJSON(t, c.SubTypes); got != `{"typeNames":["Look"]}` {
		t.Errorf("subtype %s", got)
	}

	looker := urn.MustParse("urn:li:dataPlatform:looker").(urn.DataPlatform)
	if err := c.SetPlatformInstance(looker, "eu"); err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(t, c.DataPlatformInstance); got != `{"platform":"urn:li:dataPlatform:looker","instance":"urn:li:dataPlatformInstance:(urn:li:dataPlatform:looker,eu)"}` {
		t.Errorf("platform instance %s", got)
	}
	if err := c.SetPlatformInstance(urn.DataPlatform{}, ""); err == nil {
		t.Error("SetPlatformInstance without a platform succeeded")
	}

	c.Deprecate("Use c2.", time.UnixMilli(1_800_000_000_000))
	if got := mustJSON(t, c.Deprecation); got != `{"deprecated":true,"decommissionTime":1800000000000,"note":"Use c2.","actor":"urn:li:corpuser:__ingestion"}` {
		t.Errorf("deprecation %s", got)
	}
	c.Undeprecate()
	if c.Deprecation.Deprecated {
		t.Error("Undeprecate left it deprecated")
	}

	c.SetCustomProperty("owner_team", "bi")
	c.SetCustomProperty("refresh", "daily")
	c.RemoveCustomProperty("refresh")
	if got := c.Info.CustomProperties; !cmp.Equal(got, map[string]string{"owner_team": "bi"}) {
		t.Errorf("custom properties %v", got)
	}
	c.SetCustomProperties(map[string]string{"a": "1"})
	if got := c.Info.CustomProperties; !cmp.Equal(got, map[string]string{"a": "1"}) {
		t.Errorf("SetCustomProperties %v", got)
	}
}

func TestStructuredPropertyHelper(t *testing.T) {
	t.Parallel()
	m := &entity.MLModel{URN: urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)").(urn.MLModel)}
	p := urn.MustParse("urn:li:structuredProperty:io.acryl.privacy.retentionTime").(urn.StructuredProperty)
	if err := m.SetStructuredProperty(p, 30, "days", 1.5, uint8(2)); err != nil {
		t.Fatal(err)
	}
	got := m.StructuredProperties.Properties
	if len(got) != 1 || mustJSON(t, got[0].Values) != `[{"double":30},{"string":"days"},{"double":1.5},{"double":2}]` {
		t.Errorf("values %s", mustJSON(t, got))
	}
	if got[0].Created == nil || got[0].LastModified == nil || got[0].Created.Actor != entity.IngestionActor {
		t.Errorf("stamps %s", mustJSON(t, got[0]))
	}
	if err := m.SetStructuredProperty(p, "x"); err != nil { // replaces the values
		t.Fatal(err)
	}
	if n := len(m.StructuredProperties.Properties); n != 1 || mustJSON(t, m.StructuredProperties.Properties[0].Values) != `[{"string":"x"}]` {
		t.Errorf("after a second set: %s", mustJSON(t, m.StructuredProperties))
	}
	err := m.SetStructuredProperty(p, true)
	if err == nil || !strings.Contains(err.Error(), "bool") || !strings.Contains(err.Error(), p.String()) {
		t.Errorf("a bool value: %v", err)
	}
	m.RemoveStructuredProperty(p)
	if len(m.StructuredProperties.Properties) != 0 {
		t.Error("RemoveStructuredProperty left it")
	}
}

func TestContainerHelper(t *testing.T) {
	t.Parallel()
	db := &entity.Container{URN: urn.MustParse("urn:li:container:db").(urn.Container)}
	schema := &entity.Container{URN: urn.MustParse("urn:li:container:schema").(urn.Container)}
	if err := schema.SetContainer(db); err == nil {
		t.Error("SetContainer under a parent without a browse path succeeded")
	}
	if err := db.SetBrowsePath("prod"); err != nil {
		t.Fatal(err)
	}
	if db.Container != nil {
		t.Errorf("a browse path without a container set container %v", db.Container)
	}
	if err := schema.SetContainer(db); err != nil {
		t.Fatal(err)
	}
	ds := &entity.Dataset{URN: urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:pg,db.s.t,PROD)").(urn.Dataset)}
	if err := ds.SetContainer(schema); err != nil {
		t.Fatal(err)
	}
	if ds.Container.Container != "urn:li:container:schema" {
		t.Errorf("container %v", ds.Container)
	}
	want := `{"path":[{"id":"prod"},{"id":"urn:li:container:db","urn":"urn:li:container:db"},{"id":"urn:li:container:schema","urn":"urn:li:container:schema"}]}`
	if got := mustJSON(t, ds.BrowsePathsV2); got != want {
		t.Errorf("browse path %s\nwant %s", got, want)
	}
	if err := ds.SetBrowsePath("a", "urn:li:container:db", "urn:li:container:schema"); err != nil {
		t.Fatal(err)
	}
	if ds.Container.Container != "urn:li:container:schema" || mustJSON(t, ds.BrowsePathsV2) != strings.Replace(want, `"prod"`, `"a"`, 1) {
		t.Errorf("SetBrowsePath: %v %s", ds.Container, mustJSON(t, ds.BrowsePathsV2))
	}
	if err := ds.SetBrowsePath("urn:li:bad"); err == nil {
		t.Error("SetBrowsePath with a bad URN succeeded")
	}
}

func TestContainerKeyHelper(t *testing.T) {
	t.Parallel()
	key := urn.SchemaKey{ContainerKey: urn.ContainerKey{Platform: "postgres", Instance: "eu", Env: "PROD"}, Database: "shop", Schema: "public"}
	schemaURN, err := key.URN()
	if err != nil {
		t.Fatal(err)
	}
	dbURN, err := key.Parent().URN()
	if err != nil {
		t.Fatal(err)
	}
	ds := &entity.Dataset{URN: urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.t,PROD)").(urn.Dataset)}
	if err := ds.SetContainerKey(key); err != nil {
		t.Fatal(err)
	}
	if ds.Container.Container != schemaURN.String() {
		t.Errorf("container %v, want %s", ds.Container, schemaURN)
	}
	want := fmt.Sprintf(`{"path":[{"id":"%[1]s","urn":"%[1]s"},{"id":"%[2]s","urn":"%[2]s"},{"id":"%[3]s","urn":"%[3]s"}]}`,
		"urn:li:dataPlatformInstance:(urn:li:dataPlatform:postgres,eu)", dbURN, schemaURN)
	if got := mustJSON(t, ds.BrowsePathsV2); got != want {
		t.Errorf("browse path %s\nwant %s", got, want)
	}
	if err := ds.SetContainerKey(urn.DatabaseKey{ContainerKey: urn.ContainerKey{Platform: "postgres"}, Database: "shop"}); err != nil {
		t.Fatal(err)
	}
	if n := len(ds.BrowsePathsV2.Path); n != 1 {
		t.Errorf("a root key without an instance made a path of %d", n)
	}
	if err := ds.SetContainerKey(nil); err == nil {
		t.Error("a nil key was accepted")
	}
}

func TestVersionHelpers(t *testing.T) {
	t.Parallel()
	m := &entity.MLModel{URN: urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)").(urn.MLModel)}
	if err := m.AddVersionAlias("champion"); err != nil {
		t.Fatal(err)
	}
	vs := m.VersionProperties.VersionSet
	if !strings.HasPrefix(vs, "urn:li:versionSet:(") || !strings.HasSuffix(vs, ",mlModel)") {
		t.Errorf("version set %s", vs)
	}
	if *m.VersionProperties.Version.VersionTag != "0.1.0" || m.VersionProperties.SortID != "0000000.1.0" {
		t.Errorf("default version %s", mustJSON(t, m.VersionProperties))
	}
	m.SetVersion("3")
	if *m.VersionProperties.Version.VersionTag != "3" || m.VersionProperties.SortID != "0000000003" || m.VersionProperties.VersionSet != vs {
		t.Errorf("SetVersion %s", mustJSON(t, m.VersionProperties))
	}
	m.SetVersionAliases("a", "b")
	m.RemoveVersionAlias("a")
	if got := mustJSON(t, m.VersionProperties.Aliases); got != `[{"versionTag":"b"}]` {
		t.Errorf("aliases %s", got)
	}
	if err := m.AddVersionAlias(""); err == nil {
		t.Error("an empty alias was added")
	}
}

func TestDatasetColumnHelpers(t *testing.T) {
	t.Parallel()
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:kafka,orders,PROD)").(urn.Dataset)
	ds := &entity.Dataset{URN: u}
	if err := ds.SetColumnDescription("id", "x"); err == nil {
		t.Error("a column of a dataset without a schema was found")
	}
	ds = entity.NewDataset(u, "", entity.Column{Name: "id", Type: "long"},
		entity.Column{Name: "[version=2.0].[type=Order].[type=Address].address.[type=string].zip", Type: "string"})
	pii := urn.MustParse("urn:li:tag:pii").(urn.Tag)
	term := urn.MustParse("urn:li:glossaryTerm:Zip").(urn.GlossaryTerm)
	for _, err := range []error{
		ds.SetColumnDescription("id", "Order id"),
		ds.SetColumnDescription("address.zip", "Zip code"), // its simple path
		ds.AddColumnTag("address.zip", pii),
		ds.AddColumnTerm("[version=2.0].[type=Order].[type=Address].address.[type=string].zip", term),
		ds.SetColumnTags("id", pii),
		ds.RemoveColumnTag("id", pii),
		ds.SetColumnTerms("id", term),
		ds.RemoveColumnTerm("id", term),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := `{"created":{"time":0,"actor":"urn:li:corpuser:unknown"},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"editableSchemaFieldInfo":[` +
		`{"fieldPath":"id","description":"Order id","globalTags":{"tags":[]},"glossaryTerms":{"terms":[],"auditStamp":{"time":0,"actor":"urn:li:corpuser:__ingestion"}}},` +
		`{"fieldPath":"[version=2.0].[type=Order].[type=Address].address.[type=string].zip","description":"Zip code","globalTags":{"tags":[{"tag":"urn:li:tag:pii"}]},"glossaryTerms":{"terms":[{"urn":"urn:li:glossaryTerm:Zip"}],"auditStamp":{"time":0,"actor":"urn:li:corpuser:__ingestion"}}}]}`
	if diff := cmp.Diff(want, mustJSON(t, ds.EditableSchema)); diff != "" {
		t.Errorf("editable schema (-want +got):\n%s", diff)
	}
	if err := ds.AddColumnTag("nope", pii); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("an unknown column: %v", err)
	}
}

func TestTypeHelpers(t *testing.T) {
	t.Parallel()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:pg,db.t,PROD)").(urn.Dataset)
	ch := urn.MustParse("urn:li:chart:(looker,c1)").(urn.Chart)
	c := &entity.Chart{URN: ch}
	c.AddInputDataset(ds)
	c.AddInputDataset(ds)
	if got := mustJSON(t, c.Info.InputEdges); got != `[{"destinationUrn":"urn:li:dataset:(urn:li:dataPlatform:pg,db.t,PROD)"}]` {
		t.Errorf("chart inputs %s", got)
	}
	c.RemoveInputDataset(ds)
	if len(c.Info.InputEdges) != 0 {
		t.Error("RemoveInputDataset")
	}
	d := &entity.Dashboard{URN: urn.MustParse("urn:li:dashboard:(looker,d1)").(urn.Dashboard)}
	d.SetCharts(ch, ch)
	d.AddInputDataset(ds)
	d.AddDashboard(urn.MustParse("urn:li:dashboard:(looker,d0)").(urn.Dashboard))
	if len(d.Info.ChartEdges) != 1 || len(d.Info.DatasetEdges) != 1 || len(d.Info.Dashboards) != 1 {
		t.Errorf("dashboard %s", mustJSON(t, d.Info))
	}
	d.RemoveChart(ch)
	if len(d.Info.ChartEdges) != 0 {
		t.Error("RemoveChart")
	}

	j := &entity.DataJob{URN: urn.MustParse("urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),t)").(urn.DataJob)}
	j.SetInlets(ds)
	j.SetOutlets(ds)
	j.SetFineGrainedLineages(aspects.FineGrainedLineage{UpstreamType: "FIELD_SET", DownstreamType: "FIELD"})
	if len(j.InputOutput.InputDatasetEdges) != 1 || len(j.InputOutput.OutputDatasetEdges) != 1 || len(j.InputOutput.FineGrainedLineages) != 1 {
		t.Errorf("job %s", mustJSON(t, j.InputOutput))
	}

	m := &entity.MLModel{URN: urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)").(urn.MLModel)}
	m.SetHyperParams(map[string]any{"lr": 0.1})
	m.AddHyperParams(map[string]any{"depth": 3})
	m.SetTrainingMetrics(map[string]any{"auc": 0.9})
	m.AddTrainingMetrics(map[string]any{"f1": 0.8})
	m.SetModelGroup(urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)").(urn.MLModelGroup))
	run := urn.MustParse("urn:li:dataProcessInstance:run1")
	if err := m.AddTrainingJob(run); err != nil {
		t.Fatal(err)
	}
	if err := m.AddTrainingJob(ds); err == nil {
		t.Error("a dataset was added as a training job")
	}
	if err := m.SetDownstreamJobs(urn.MustParse("urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),score)")); err != nil {
		t.Fatal(err)
	}
	dep := urn.MustParse("urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-endpoint,PROD)").(urn.MLModelDeployment)
	m.AddDeployment(dep)
	m.AddDeployment(dep)
	want := `{"customProperties":{},"trainingJobs":["urn:li:dataProcessInstance:run1"],"downstreamJobs":["urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),score)"],` +
		`"hyperParams":[{"name":"lr","value":"0.1"},{"name":"depth","value":"3"}],"trainingMetrics":[{"name":"auc","value":"0.9"},{"name":"f1","value":"0.8"}],` +
		`"tags":[],"deployments":["urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-endpoint,PROD)"],"groups":["urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)"]}`
	if diff := cmp.Diff(want, mustJSON(t, m.Properties)); diff != "" {
		t.Errorf("model (-want +got):\n%s", diff)
	}
	m.RemoveTrainingJob(run)
	m.RemoveDeployment(dep)
	if len(m.Properties.TrainingJobs) != 0 || len(m.Properties.Deployments) != 0 {
		t.Error("RemoveTrainingJob or RemoveDeployment")
	}

	g := &entity.GlossaryTerm{URN: urn.MustParse("urn:li:glossaryTerm:Revenue").(urn.GlossaryTerm)}
	money := urn.MustParse("urn:li:glossaryTerm:Money").(urn.GlossaryTerm)
	g.AddIsA(money)
	g.AddIsA(money)
	g.SetHasA(money)
	g.AddValue(money)
	g.AddRelatedTerm(money)
	g.RemoveHasA(money)
	if got := mustJSON(t, g.RelatedTerms); got != `{"isRelatedTerms":["urn:li:glossaryTerm:Money"],"hasRelatedTerms":[],"values":["urn:li:glossaryTerm:Money"],"relatedTerms":["urn:li:glossaryTerm:Money"]}` {
		t.Errorf("related terms %s", got)
	}

	doc := &entity.Document{URN: urn.MustParse("urn:li:document:faq").(urn.Document)}
	doc.SetTitle("FAQ")
	doc.SetText("Ask away.")
	doc.Publish()
	doc.AddRelatedAsset(ds)
	if err := doc.SetParentDocument(doc.URN); err == nil {
		t.Error("a document became its own parent")
	}
	if err := doc.SetParentDocument(urn.MustParse("urn:li:document:home").(urn.Document)); err != nil {
		t.Fatal(err)
	}
	if got := mustJSON(t, doc.Info); !strings.Contains(got, `"title":"FAQ"`) || !strings.Contains(got, `"contents":{"text":"Ask away."}`) ||
		!strings.Contains(got, `"state":"PUBLISHED"`) || !strings.Contains(got, `"parentDocument":{"document":"urn:li:document:home"}`) {
		t.Errorf("document %s", got)
	}
}

// TestConcurrentHelpers runs 16 writers, each with its own client, that
// each read one dataset and apply one helper through Entities().Update at
// the same time: every change is there afterwards.
func TestConcurrentHelpers(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:pg,db.orders,PROD)").(urn.Dataset)
	if err := newClient(t, s).Entities().Create(t.Context(), entity.NewDataset(u, "Orders.")); err != nil {
		t.Fatal(err)
	}
	const writers = 16
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		c := newClient(t, s)
		wg.Go(func() {
			e, err := c.Entities().Get(t.Context(), u)
			if err != nil {
				errs[i] = err
				return
			}
			d := e.(*entity.Dataset)
			_, errs[i] = c.Entities().Update(t.Context(), d, func() error {
				switch i % 4 {
				case 0:
					d.AddTag(urn.MustParse(fmt.Sprintf("urn:li:tag:t%d", i)).(urn.Tag))
				case 1:
					d.AddTerm(urn.MustParse(fmt.Sprintf("urn:li:glossaryTerm:g%d", i)).(urn.GlossaryTerm))
				case 2:
					d.AddOwner(entity.NewOwner(urn.MustParse(fmt.Sprintf("urn:li:corpuser:u%d", i)).(urn.CorpUser), ""))
				case 3:
					d.AddLink(fmt.Sprintf("https://wiki/%d", i), "")
				}
				return nil
			})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	e, err := newClient(t, s).Entities().Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	d := e.(*entity.Dataset)
	got := 0
	if d.GlobalTags != nil {
		got += len(d.GlobalTags.Tags)
	}
	if d.GlossaryTerms != nil {
		got += len(d.GlossaryTerms.Terms)
	}
	if d.Ownership != nil {
		got += len(d.Ownership.Owners)
	}
	if d.InstitutionalMemory != nil {
		got += len(d.InstitutionalMemory.Elements)
	}
	if got != writers {
		t.Errorf("%d changes stored, want %d: %s %s %s %s", got, writers, mustJSON(t, d.GlobalTags), mustJSON(t, d.GlossaryTerms), mustJSON(t, d.Ownership), mustJSON(t, d.InstitutionalMemory))
	}
}
