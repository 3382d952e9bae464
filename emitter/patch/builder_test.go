package patch_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func mustDataset(t *testing.T, name string) urn.Dataset {
	t.Helper()
	u, err := urn.NewDataset("hive", name, "PROD")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// wire renders proposals as the golden files hold them: per proposal a
// header line, then the GenericAspect value.
func wire(t *testing.T, ps []emitter.Proposal) string {
	t.Helper()
	var b strings.Builder
	for _, p := range ps {
		raw, ok := p.Aspect.(emitter.RawAspect)
		if !ok {
			t.Fatalf("aspect of %s is %T, not a RawAspect", p.AspectName, p.Aspect)
		}
		value, err := raw.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		ct := p.ContentType
		if ct == "" && p.ChangeType == emitter.Patch {
			ct = emitter.ContentTypeJSONPatch // the emitter's default for a PATCH
		}
		b.WriteString(p.EntityType + " " + p.URN.String() + " " + string(p.ChangeType) + " " + p.AspectName + " " + ct + "\n")
		b.Write(value)
		b.WriteString("\n")
	}
	return b.String()
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestBuildersGolden checks the exact proposals each builder makes.
func TestBuildersGolden(t *testing.T) {
	t.Parallel()
	for _, tc := range builderCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ps, err := tc.build().Proposals()
			if err != nil {
				t.Fatalf("Proposals: %v", err)
			}
			golden(t, tc.name, wire(t, ps))
		})
	}
}

// TestPythonParity pins values whose bytes DataHub's Python builders are
// known to produce (read from datahub/specific/*.py and
// emitter/mcp_patch_builder.py at the reference commit: op, path, value in
// that order, remove with value {}, the envelope's arrayPrimaryKeys before
// its patch), here without Python's blanks after , and :.
func TestPythonParity(t *testing.T) {
	t.Parallel()
	ds := mustDataset(t, "db.t")
	cases := []struct {
		name  string
		build func(*patch.Dataset)
		want  string
	}{
		{"add_tag", func(d *patch.Dataset) { d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii"}) },
			`{"arrayPrimaryKeys":{"tags":["attribution␟source","tag"]},"patch":[{"op":"add","path":"/tags//urn:li:tag:pii","value":{"tag":"urn:li:tag:pii"}}]}`},
		{"add_tag_attributed", func(d *patch.Dataset) {
			d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii", Attribution: &aspects.MetadataAttribution{Actor: "urn:li:corpuser:datahub", Source: aspects.Ptr("urn:li:dataHubAction:a")}})
		}, `{"arrayPrimaryKeys":{"tags":["attribution␟source","tag"]},"patch":[{"op":"add","path":"/tags/urn:li:dataHubAction:a/urn:li:tag:pii","value":{"tag":"urn:li:tag:pii","attribution":{"time":0,"actor":"urn:li:corpuser:datahub","source":"urn:li:dataHubAction:a","sourceDetail":{}}}}]}`},
		{"remove_tag", func(d *patch.Dataset) { d.RemoveTag("urn:li:tag:pii") },
			`{"arrayPrimaryKeys":{"tags":["tag","attribution␟source"]},"patch":[{"op":"remove","path":"/tags/urn:li:tag:pii","value":{}}]}`},
		{"remove_tag_attributed", func(d *patch.Dataset) { d.RemoveTagFrom("urn:li:tag:pii", "urn:li:dataHubAction:a") },
			`{"arrayPrimaryKeys":{"tags":["attribution␟source","tag"]},"patch":[{"op":"remove","path":"/tags/urn:li:dataHubAction:a/urn:li:tag:pii","value":{}}]}`},
		{"add_term", func(d *patch.Dataset) { d.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:t"}) },
			`{"arrayPrimaryKeys":{"terms":["urn","attribution␟source"]},"patch":[{"op":"add","path":"/terms/urn:li:glossaryTerm:t/","value":{"urn":"urn:li:glossaryTerm:t"}}]}`},
		{"add_term_attributed", func(d *patch.Dataset) {
			d.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:t", Attribution: &aspects.MetadataAttribution{Actor: "urn:li:corpuser:u", Source: aspects.Ptr("urn:li:dataHubAction:a")}})
		}, `{"arrayPrimaryKeys":{"terms":["urn","attribution␟source"]},"patch":[{"op":"add","path":"/terms/urn:li:glossaryTerm:t/urn:li:dataHubAction:a","value":{"urn":"urn:li:glossaryTerm:t","attribution":{"time":0,"actor":"urn:li:corpuser:u","source":"urn:li:dataHubAction:a","sourceDetail":{}}}}]}`},
		{"remove_term", func(d *patch.Dataset) { d.RemoveTerm("urn:li:glossaryTerm:t") },
			`{"arrayPrimaryKeys":{"terms":["urn","attribution␟source"]},"patch":[{"op":"remove","path":"/terms/urn:li:glossaryTerm:t","value":{}}]}`},
		{"remove_term_attributed", func(d *patch.Dataset) { d.RemoveTermFrom("urn:li:glossaryTerm:t", "urn:li:dataHubAction:a") },
			`{"arrayPrimaryKeys":{"terms":["urn","attribution␟source"]},"patch":[{"op":"remove","path":"/terms/urn:li:glossaryTerm:t/urn:li:dataHubAction:a","value":{}}]}`},
		{"add_owner", func(d *patch.Dataset) {
			d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeDataOwner})
		}, `{"arrayPrimaryKeys":{"owners":["owner","type","typeUrn","attribution␟source"]},"patch":[{"op":"add","path":"/owners/urn:li:corpuser:jdoe/DATAOWNER//","value":{"owner":"urn:li:corpuser:jdoe","type":"DATAOWNER"}}]}`},
		{"remove_owner", func(d *patch.Dataset) { d.RemoveOwner("urn:li:corpuser:jdoe", "") },
			`{"arrayPrimaryKeys":{"owners":["owner","type","typeUrn","attribution␟source"]},"patch":[{"op":"remove","path":"/owners/urn:li:corpuser:jdoe","value":{}}]}`},
		{"remove_owner_type", func(d *patch.Dataset) { d.RemoveOwner("urn:li:corpuser:jdoe", aspects.OwnershipTypeDataOwner) },
			`{"arrayPrimaryKeys":{"owners":["owner","type","typeUrn","attribution␟source"]},"patch":[{"op":"remove","path":"/owners/urn:li:corpuser:jdoe/DATAOWNER","value":{}}]}`},
		{"add_domain", func(d *patch.Dataset) { d.AddDomain("urn:li:domain:sales") },
			`{"arrayPrimaryKeys":{"domainAssociations":["attribution␟source","domain"]},"patch":[{"op":"add","path":"/domainAssociations//urn:li:domain:sales","value":{"domain":"urn:li:domain:sales"}}]}`},
		{"remove_domain", func(d *patch.Dataset) { d.RemoveDomain("urn:li:domain:sales") },
			`{"arrayPrimaryKeys":{"domainAssociations":["domain","attribution␟source"]},"patch":[{"op":"remove","path":"/domainAssociations/urn:li:domain:sales","value":{}}]}`},
		{"set_structured_property", func(d *patch.Dataset) { d.SetStructuredProperty("io.acryl.p", "v") },
			`{"arrayPrimaryKeys":{"properties":["propertyUrn","attribution␟source"]},"patch":[{"op":"add","path":"/properties/urn:li:structuredProperty:io.acryl.p/","value":{"propertyUrn":"urn:li:structuredProperty:io.acryl.p","values":[{"string":"v"}]}}]}`},
		{"remove_structured_property", func(d *patch.Dataset) { d.RemoveStructuredProperty("urn:li:structuredProperty:io.acryl.p") },
			`{"arrayPrimaryKeys":{"properties":["propertyUrn","attribution␟source"]},"patch":[{"op":"remove","path":"/properties/urn:li:structuredProperty:io.acryl.p","value":{}}]}`},
		{"add_documentation", func(d *patch.Dataset) { d.AddDocumentation(aspects.DocumentationAssociation{Documentation: "docs"}) },
			`{"arrayPrimaryKeys":{"documentations":["attribution␟source"]},"patch":[{"op":"add","path":"/documentations/","value":{"documentation":"docs"}}]}`},
		{"remove_documentation", func(d *patch.Dataset) { d.RemoveDocumentation("") },
			`{"arrayPrimaryKeys":{"documentations":["attribution␟source"]},"patch":[{"op":"remove","path":"/documentations","value":{}}]}`},
		{"add_link", func(d *patch.Dataset) {
			d.AddLink(aspects.InstitutionalMemoryMetadata{URL: "https://w/x", Description: "w", CreateStamp: aspects.AuditStamp{Actor: "urn:li:corpuser:u"}})
		}, `{"arrayPrimaryKeys":{"elements":["url"]},"patch":[{"op":"add","path":"/elements/https:~1~1w~1x","value":{"url":"https://w/x","description":"w","createStamp":{"time":0,"actor":"urn:li:corpuser:u"}}}]}`},
		{"add_custom_property", func(d *patch.Dataset) { d.AddCustomProperty("team/owner", "x") },
			`[{"op":"add","path":"/customProperties/team~1owner","value":"x"}]`},
		{"set_description", func(d *patch.Dataset) { d.SetDescription("d") },
			`[{"op":"add","path":"/description","value":"d"}]`},
		{"add_upstream_lineage", func(d *patch.Dataset) {
			d.AddUpstream(aspects.Upstream{Dataset: "urn:li:dataset:(urn:li:dataPlatform:hive,db.u,PROD)", Type: aspects.DatasetLineageTypeTransformed})
		}, `[{"op":"add","path":"/upstreams/urn:li:dataset:(urn:li:dataPlatform:hive,db.u,PROD)","value":{"auditStamp":{"time":0,"actor":"urn:li:corpuser:unknown"},"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,db.u,PROD)","type":"TRANSFORMED"}}]`},
		{"for_field_add_tag", func(d *patch.Dataset) { d.Field("a.b").AddTag(aspects.TagAssociation{Tag: "urn:li:tag:x"}) },
			`[{"op":"add","path":"/editableSchemaFieldInfo/a.b/globalTags/tags/urn:li:tag:x","value":{"tag":"urn:li:tag:x"}}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := patch.NewDataset(ds)
			tc.build(d)
			ps, err := d.Proposals()
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) != 1 {
				t.Fatalf("%d proposals, want 1", len(ps))
			}
			got, err := ps[0].Aspect.(emitter.RawAspect).MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("value (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDocumentForms(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		doc  patch.Document
		want string
	}{
		{"bare", patch.Document{Ops: []patch.Operation{{Op: "add", Path: "/a", Value: []byte(`1`)}}},
			`[{"op":"add","path":"/a","value":1}]`},
		{"empty", patch.Document{}, `[]`},
		{"force", patch.Document{Ops: []patch.Operation{{Op: "remove", Path: "/a"}}, ForceGenericPatch: true},
			`{"arrayPrimaryKeys":{},"patch":[{"op":"remove","path":"/a"}],"forceGenericPatch":true}`},
		{"keys sorted", patch.Document{ArrayPrimaryKeys: map[string][]string{"z": {"k"}, "a": {"x", "y␟z"}}},
			`{"arrayPrimaryKeys":{"a":["x","y␟z"],"z":["k"]},"patch":[]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := tc.doc.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	if got, want := patch.Path("owners", "urn:li:corpuser:a/b~c", "T"), "/owners/urn:li:corpuser:a~1b~0c/T"; got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
	if got := patch.Path(); got != "" {
		t.Errorf("Path() = %q, want empty", got)
	}
}

func TestBuilderErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		build func() *patch.Builder
	}{
		{"no URN", func() *patch.Builder { b := patch.New(nil); b.AddTag(aspects.TagAssociation{Tag: "t"}); return b }},
		{"zero dataset URN", func() *patch.Builder { return patch.NewDataset(urn.Dataset{}).Builder }},
		{"nothing to patch", func() *patch.Builder { return patch.New(mustDataset(t, "x")) }},
		{"no properties aspect", func() *patch.Builder {
			u, _ := urn.NewCorpUser("jdoe")
			b := patch.New(u)
			b.AddCustomProperty("k", "v")
			return b
		}},
		{"empty aspect name", func() *patch.Builder { b := patch.New(mustDataset(t, "x")); b.Add("", "/a", 1); return b }},
		{"unencodable value", func() *patch.Builder { b := patch.New(mustDataset(t, "x")); b.Add("status", "/a", func() {}); return b }},
		{"zero URN for a typed builder", func() *patch.Builder { return patch.NewDataJob(urn.DataJob{}).Builder }},
		{"chart input not a dataset or chart", func() *patch.Builder {
			c := patch.NewChart(mustParse(t, urn.ParseChart, "urn:li:chart:(looker,c)"))
			c.AddInput("urn:li:dashboard:(looker,d)")
			return c.Builder
		}},
		{"dashboard chart edge to a dataset", func() *patch.Builder {
			d := patch.NewDashboard(mustParse(t, urn.ParseDashboard, "urn:li:dashboard:(looker,d)"))
			d.SetChartEdges([]aspects.Edge{{DestinationURN: mustDataset(t, "x").String()}})
			return d.Builder
		}},
		{"job input job not a job", func() *patch.Builder {
			j := patch.NewDataJob(mustParse(t, urn.ParseDataJob, "urn:li:dataJob:(urn:li:dataFlow:(a,b,PROD),c)"))
			j.AddInputJob(mustDataset(t, "x").String())
			return j.Builder
		}},
		{"job dataset field not a schema field", func() *patch.Builder {
			j := patch.NewDataJob(mustParse(t, urn.ParseDataJob, "urn:li:dataJob:(urn:li:dataFlow:(a,b,PROD),c)"))
			j.AddOutputDatasetField(mustDataset(t, "x").String())
			return j.Builder
		}},
		{"job flow not a flow", func() *patch.Builder {
			j := patch.NewDataJob(mustParse(t, urn.ParseDataJob, "urn:li:dataJob:(urn:li:dataFlow:(a,b,PROD),c)"))
			j.SetFlowURN("urn:li:dataJob:(urn:li:dataFlow:(a,b,PROD),d)")
			return j.Builder
		}},
		{"fine-grained lineage with two downstreams", func() *patch.Builder {
			j := patch.NewDataJob(mustParse(t, urn.ParseDataJob, "urn:li:dataJob:(urn:li:dataFlow:(a,b,PROD),c)"))
			j.AddFineGrainedLineage(aspects.FineGrainedLineage{UpstreamType: "FIELD_SET", DownstreamType: "FIELD", Upstreams: []string{"u"}, Downstreams: []string{"d1", "d2"}})
			return j.Builder
		}},
		{"structured property value of another type", func() *patch.Builder {
			d := patch.NewDataset(mustDataset(t, "x"))
			d.SetStructuredProperty("p", true)
			return d.Builder
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ps, err := tc.build().Proposals()
			if !errors.Is(err, datahub.ErrValidation) {
				t.Fatalf("Proposals = %v, %v; want ErrValidation", ps, err)
			}
		})
	}
}

func TestProposalCarriesMetadataAndHeaders(t *testing.T) {
	t.Parallel()
	d := patch.NewDataset(mustDataset(t, "x"))
	d.SetSystemMetadata(&aspects.SystemMetadata{RunID: aspects.Ptr("r1")})
	d.SetHeader("If-Version-Match", "3")
	d.SetDescription("d")
	ps, err := d.Proposals()
	if err != nil {
		t.Fatal(err)
	}
	if ps[0].SystemMetadata == nil || ps[0].SystemMetadata.RunID == nil || *ps[0].SystemMetadata.RunID != "r1" || ps[0].Headers["If-Version-Match"] != "3" {
		t.Errorf("proposal = %+v", ps[0])
	}
	if !bytes.Contains(ps[0].Aspect.(emitter.RawAspect).JSON, []byte(`"/description"`)) {
		t.Errorf("aspect = %s", ps[0].Aspect.(emitter.RawAspect).JSON)
	}
}

// TestFileSinkRoundTrip writes builder proposals with the file emitter,
// in DataHub's file-sink format, and reads them back unchanged: a PATCH
// keeps its change type, content type and patch document.
func TestFileSinkRoundTrip(t *testing.T) {
	t.Parallel()
	for _, tc := range builderCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ps, err := tc.build().Proposals()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "mcps.json")
			f, err := emitter.NewFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Emit(t.Context(), ps...); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			back, err := emitter.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wire(t, ps), wire(t, back)); diff != "" {
				t.Errorf("read back (-written +read):\n%s", diff)
			}
		})
	}
}

// TestDocumentsPerKeySet checks that operations with different
// arrayPrimaryKeys land in documents of their own, in first-use order,
// and that Document returns the plain one.
func TestDocumentsPerKeySet(t *testing.T) {
	t.Parallel()
	d := patch.NewDataset(mustDataset(t, "x"))
	d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:a"})
	d.RemoveTag("urn:li:tag:b")
	d.Add("globalTags", "/tags", []any{})
	d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:c"})
	docs := d.Documents("globalTags")
	var got []string
	for _, doc := range docs {
		v, err := doc.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(v))
	}
	want := []string{
		`{"arrayPrimaryKeys":{"tags":["attribution␟source","tag"]},"patch":[{"op":"add","path":"/tags//urn:li:tag:a","value":{"tag":"urn:li:tag:a"}},{"op":"add","path":"/tags//urn:li:tag:c","value":{"tag":"urn:li:tag:c"}}]}`,
		`{"arrayPrimaryKeys":{"tags":["tag","attribution␟source"]},"patch":[{"op":"remove","path":"/tags/urn:li:tag:b","value":{}}]}`,
		`[{"op":"add","path":"/tags","value":[]}]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Documents (-want +got):\n%s", diff)
	}
	if plain := d.Document("globalTags"); plain != docs[2] {
		t.Errorf("Document = %p, want the plain document %p", plain, docs[2])
	}
	if d.Document("ownership") != nil || len(d.Documents("ownership")) != 0 {
		t.Error("an unpatched aspect has documents")
	}
	ps, err := d.Proposals()
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 {
		t.Errorf("%d proposals, want one per document (3)", len(ps))
	}
}
