package patch_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	builders "github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

// TestBuildersApply feeds the SDK builders' proposals through Apply, from
// an absent or an existing aspect, and checks the merged aspects: the SDK
// and the mock agree on paths, keys and escaping. Member order follows
// DataHub's: members the template or the path creation add come before
// those the operations set.
func TestBuildersApply(t *testing.T) {
	t.Parallel()
	ds, _ := urn.NewDataset("hive", "db.orders", "PROD")
	up, _ := urn.NewDataset("hive", "db.raw", "PROD")
	model, _ := urn.NewMLModel("mlflow", "churn", "PROD")
	group, _ := urn.NewMLModelGroup("mlflow", "g", "PROD")
	feature, _ := urn.NewMLFeature("users", "age")
	table, _ := urn.NewMLFeatureTable("feast", "users")
	stamp := aspects.AuditStamp{Time: 5, Actor: "urn:li:corpuser:jdoe"}
	sys := `{"actor":"urn:li:corpuser:__datahub_system","time":1700000000000}`
	field := "urn:li:schemaField:(" + ds.String() + ",id)"
	upField := "urn:li:schemaField:(" + up.String() + ",order_id)"

	cases := []struct {
		name    string
		build   func() *builders.Builder
		current map[string]string // aspect -> current JSON; absent when missing
		want    map[string]string // aspect -> result JSON
	}{
		{
			name: "dataset properties",
			build: func() *builders.Builder {
				d := builders.NewDataset(ds)
				d.SetDescription("d")
				d.SetExternalURL("https://x")
				d.AddCustomProperty("team/owner", "sales")
				d.RemoveCustomProperty("legacy")
				d.SetEditableDescription("e")
				return d.Builder
			},
			current: map[string]string{"datasetProperties": `{"customProperties":{"legacy":"1","keep":"2"},"name":"orders"}`},
			want: map[string]string{
				"datasetProperties":         `{"customProperties":{"keep":"2","team/owner":"sales"},"name":"orders","tags":[],"description":"d","externalUrl":"https://x"}`,
				"editableDatasetProperties": `{"description":"e"}`,
			},
		},
		{
			name: "dataset tags terms owners links",
			build: func() *builders.Builder {
				d := builders.NewDataset(ds)
				d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:a/b"})
				d.RemoveTag("urn:li:tag:old")
				d.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:t"})
				d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
				d.RemoveOwner("urn:li:corpuser:ann", "")
				d.AddLink(aspects.InstitutionalMemoryMetadata{URL: "https://wiki/x", Description: "wiki", CreateStamp: stamp})
				d.RemoveLink("https://wiki/old")
				return d.Builder
			},
			current: map[string]string{
				"globalTags":          `{"tags":[{"tag":"urn:li:tag:old"},{"tag":"urn:li:tag:keep"}]}`,
				"ownership":           `{"owners":[{"owner":"urn:li:corpuser:ann","type":"BUSINESS_OWNER"},{"owner":"urn:li:corpuser:ann","type":"DATAOWNER"}],"lastModified":{"time":1,"actor":"urn:li:corpuser:x"}}`,
				"institutionalMemory": `{"elements":[{"url":"https://wiki/old","description":"old","createStamp":{"time":1,"actor":"a"}}]}`,
			},
			want: map[string]string{
				"globalTags":          `{"tags":[{"tag":"urn:li:tag:keep"},{"tag":"urn:li:tag:a/b"}]}`,
				"glossaryTerms":       `{"terms":[{"urn":"urn:li:glossaryTerm:t"}],"auditStamp":` + sys + `}`,
				"ownership":           `{"owners":[{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"}],"lastModified":{"time":1,"actor":"urn:li:corpuser:x"}}`,
				"institutionalMemory": `{"elements":[{"url":"https://wiki/x","description":"wiki","createStamp":{"time":5,"actor":"urn:li:corpuser:jdoe"}}]}`,
			},
		},
		{
			name: "dataset lineage",
			build: func() *builders.Builder {
				d := builders.NewDataset(ds)
				d.AddUpstream(aspects.Upstream{Dataset: up.String(), Type: aspects.DatasetLineageTypeTransformed})
				d.RemoveUpstream("urn:li:dataset:(urn:li:dataPlatform:hive,db.gone,PROD)")
				d.AddFineGrainedUpstream("", field, "", upField, 0.5)
				return d.Builder
			},
			current: map[string]string{"upstreamLineage": `{"upstreams":[{"auditStamp":{"time":0,"actor":"urn:li:corpuser:unknown"},"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,db.gone,PROD)","type":"COPY"}]}`},
			want: map[string]string{
				"upstreamLineage": `{"upstreams":[{"auditStamp":{"time":0,"actor":"urn:li:corpuser:unknown"},"dataset":"` + up.String() + `","type":"TRANSFORMED"}],` +
					`"fineGrainedLineages":[{"downstreams":["` + field + `"],"upstreams":["` + upField + `"],"upstreamType":"FIELD_SET","downstreamType":"FIELD","confidenceScore":0.5,"transformOperation":"NONE"}]}`,
			},
		},
		{
			name: "dataset fields",
			build: func() *builders.Builder {
				d := builders.NewDataset(ds)
				f := d.Field("address/zip")
				f.SetDescription("zip")
				f.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii"})
				f.AddTerm(aspects.GlossaryTermAssociation{URN: "urn:li:glossaryTerm:Zip"})
				d.Field("name").RemoveTag("urn:li:tag:old")
				return d.Builder
			},
			current: map[string]string{"editableSchemaMetadata": `{"editableSchemaFieldInfo":[{"fieldPath":"name","globalTags":{"tags":[{"tag":"urn:li:tag:old"}]}}]}`},
			want: map[string]string{
				"editableSchemaMetadata": `{"editableSchemaFieldInfo":[{"fieldPath":"name","globalTags":{"tags":[]}},` +
					`{"globalTags":{"tags":[{"tag":"urn:li:tag:pii"}]},"glossaryTerms":{"terms":[{"urn":"urn:li:glossaryTerm:Zip"}],"auditStamp":` + sys + `},"description":"zip","fieldPath":"address/zip"}]}`,
			},
		},
		{
			name: "ml model",
			build: func() *builders.Builder {
				m := builders.NewMLModel(model)
				m.SetDescription("churn")
				m.AddFeature("urn:li:mlFeature:(users,age)")
				m.RemoveFeature("urn:li:mlFeature:(users,old)")
				m.AddGroup(group.String())
				m.AddCustomProperty("k", "v")
				m.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:prod"})
				return m.Builder
			},
			current: map[string]string{"mlModelProperties": `{"customProperties":{},"mlFeatures":["urn:li:mlFeature:(users,old)","urn:li:mlFeature:(users,keep)"],"tags":[]}`},
			want: map[string]string{
				"mlModelProperties": `{"customProperties":{"k":"v"},"mlFeatures":["urn:li:mlFeature:(users,keep)","urn:li:mlFeature:(users,age)"],"tags":[],"groups":["` + group.String() + `"],"description":"churn"}`,
				"globalTags":        `{"tags":[{"tag":"urn:li:tag:prod"}]}`,
			},
		},
		{
			name: "ml model group from absent",
			build: func() *builders.Builder {
				g := builders.NewMLModelGroup(group)
				g.SetDescription("models")
				g.AddTrainingJob("urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)")
				return g.Builder
			},
			want: map[string]string{
				"mlModelGroupProperties": `{"trainingJobs":["urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)"],"description":"models"}`,
			},
		},
		{
			name: "ml feature sources",
			build: func() *builders.Builder {
				f := builders.NewMLFeature(feature)
				f.AddSource(up.String())
				f.RemoveSource(ds.String())
				return f.Builder
			},
			current: map[string]string{"mlFeatureProperties": `{"customProperties":{},"sources":["` + ds.String() + `"]}`},
			want:    map[string]string{"mlFeatureProperties": `{"customProperties":{},"sources":["` + up.String() + `"]}`},
		},
		{
			name: "ml feature table features",
			build: func() *builders.Builder {
				tb := builders.NewMLFeatureTable(table)
				tb.AddFeature(feature.String())
				tb.AddPrimaryKey("urn:li:mlPrimaryKey:(users,id)")
				return tb.Builder
			},
			current: map[string]string{"mlFeatureTableProperties": `{"customProperties":{},"mlFeatures":["urn:li:mlFeature:(users,x)"]}`},
			want: map[string]string{
				"mlFeatureTableProperties": `{"customProperties":{},"mlFeatures":["urn:li:mlFeature:(users,x)","` + feature.String() + `"],"mlPrimaryKeys":["urn:li:mlPrimaryKey:(users,id)"]}`,
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ps, err := tc.build().Proposals()
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, p := range ps {
				if p.ChangeType != emitter.Patch || p.ContentType != emitter.ContentTypeJSONPatch {
					t.Errorf("%s: change type %s, content type %s", p.AspectName, p.ChangeType, p.ContentType)
				}
				value, err := p.Aspect.(emitter.RawAspect).MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				// An aspect may get several proposals (one per set of
				// arrayPrimaryKeys): each applies to the previous result.
				var cur []byte
				if c, ok := got[p.AspectName]; ok {
					cur = []byte(c)
				} else if c, ok := tc.current[p.AspectName]; ok {
					cur = []byte(c)
				}
				res, err := fixed.Apply(p.AspectName, cur, value)
				if err != nil {
					t.Fatalf("Apply %s: %v", p.AspectName, err)
				}
				got[p.AspectName] = string(res)
			}
			want := map[string]string{}
			for k, v := range tc.want {
				want[k] = compact(t, v)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("patched aspects (-want +got):\n%s", diff)
			}
		})
	}
}
