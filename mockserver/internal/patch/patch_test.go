package patch_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
)

// fixed is the clock of every test: template defaults carry its time.
var fixed = &patch.Patcher{Now: func() time.Time { return time.UnixMilli(1700000000000) }}

// applyCase is one patch applied to one aspect value.
type applyCase struct {
	name    string
	aspect  string
	current string // "" means absent
	patch   string
	want    string // compact JSON, member order significant
	wantErr error
}

func runApply(t *testing.T, cases []applyCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var cur []byte
			if tc.current != "" {
				cur = []byte(tc.current)
			}
			got, err := fixed.Apply(tc.aspect, cur, []byte(tc.patch))
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Apply error = %v, want %v", err, tc.wantErr)
				}
				var pe *patch.Error
				if !errors.As(err, &pe) || pe.Aspect != tc.aspect {
					t.Fatalf("Apply error %v is not a *patch.Error naming aspect %s", err, tc.aspect)
				}
				if got != nil {
					t.Fatalf("Apply returned %s with an error", got)
				}
				wantStatus := 500
				if tc.wantErr == patch.ErrBadPatch || tc.wantErr == patch.ErrBadOp {
					wantStatus = 400
				}
				if s := pe.DataHubStatus(); s != wantStatus {
					t.Errorf("DataHubStatus = %d, want %d", s, wantStatus)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if diff := cmp.Diff(compact(t, tc.want), string(got)); diff != "" {
				t.Errorf("Apply result (-want +got):\n%s", diff)
			}
		})
	}
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatalf("bad want JSON %s: %v", s, err)
	}
	return b.String()
}

const (
	tagA = `{"tag":"urn:li:tag:a"}`
	tagB = `{"tag":"urn:li:tag:b"}`
)

func TestApplyGlobalTags(t *testing.T) {
	t.Parallel()
	runApply(t, []applyCase{
		{name: "add to absent aspect starts from default", aspect: "globalTags",
			patch: `[{"op":"add","path":"/tags/urn:li:tag:a","value":` + tagA + `}]`,
			want:  `{"tags":[` + tagA + `]}`},
		{name: "add keeps existing order and appends", aspect: "globalTags",
			current: `{"tags":[` + tagB + `]}`,
			patch:   `[{"op":"add","path":"/tags/urn:li:tag:a","value":` + tagA + `}]`,
			want:    `{"tags":[` + tagB + `,` + tagA + `]}`},
		{name: "add of an existing tag replaces it in place", aspect: "globalTags",
			current: `{"tags":[` + tagA + `,` + tagB + `]}`,
			patch:   `[{"op":"add","path":"/tags/urn:li:tag:a","value":{"tag":"urn:li:tag:a","context":"c"}}]`,
			want:    `{"tags":[{"tag":"urn:li:tag:a","context":"c"},` + tagB + `]}`},
		{name: "remove by key", aspect: "globalTags",
			current: `{"tags":[` + tagA + `,` + tagB + `]}`,
			patch:   `[{"op":"remove","path":"/tags/urn:li:tag:a","value":{}}]`,
			want:    `{"tags":[` + tagB + `]}`},
		{name: "remove of a missing tag is a no-op", aspect: "globalTags",
			current: `{"tags":[` + tagB + `]}`,
			patch:   `[{"op":"remove","path":"/tags/urn:li:tag:zzz"}]`,
			want:    `{"tags":[` + tagB + `]}`},
		{name: "escaped key", aspect: "globalTags",
			patch: `[{"op":"add","path":"/tags/urn:li:tag:a~1b~0c","value":{"tag":"urn:li:tag:a/b~c"}}]`,
			want:  `{"tags":[{"tag":"urn:li:tag:a/b~c"}]}`},
		{name: "key restored from the path", aspect: "globalTags",
			patch: `[{"op":"add","path":"/tags/urn:li:tag:a","value":{"context":"c"}}]`,
			want:  `{"tags":[{"context":"c","tag":"urn:li:tag:a"}]}`},
		{name: "add whole array replaces", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `[{"op":"add","path":"/tags","value":[` + tagB + `]}]`,
			want:    `{"tags":[` + tagB + `]}`},
		{name: "replace existing tag", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `[{"op":"replace","path":"/tags/urn:li:tag:a","value":{"tag":"urn:li:tag:a","context":"x"}}]`,
			want:    `{"tags":[{"tag":"urn:li:tag:a","context":"x"}]}`},
		{name: "replace missing tag fails", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `[{"op":"replace","path":"/tags/urn:li:tag:b","value":` + tagB + `}]`,
			wantErr: patch.ErrBadPath},
		{name: "test passes then add", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `[{"op":"test","path":"/tags/urn:li:tag:a/tag","value":"urn:li:tag:a"},{"op":"add","path":"/tags/urn:li:tag:b","value":` + tagB + `}]`,
			want:    `{"tags":[` + tagA + `,` + tagB + `]}`},
		{name: "test fails and nothing applies", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `[{"op":"add","path":"/tags/urn:li:tag:b","value":` + tagB + `},{"op":"test","path":"/tags/urn:li:tag:a/tag","value":"other"}]`,
			wantErr: patch.ErrTestFailed},
		{name: "copy a tag under a new key", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `[{"op":"copy","from":"/tags/urn:li:tag:a","path":"/tags/urn:li:tag:b"},{"op":"replace","path":"/tags/urn:li:tag:b/tag","value":"urn:li:tag:b"}]`,
			want:    `{"tags":[` + tagA + `,` + tagB + `]}`},
		{name: "move a tag", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `[{"op":"move","from":"/tags/urn:li:tag:a","path":"/tags/urn:li:tag:b"},{"op":"replace","path":"/tags/urn:li:tag:b/tag","value":"urn:li:tag:b"}]`,
			want:    `{"tags":[` + tagB + `]}`},
		{name: "move from missing fails", aspect: "globalTags",
			current: `{"tags":[]}`,
			patch:   `[{"op":"move","from":"/tags/urn:li:tag:a","path":"/tags/urn:li:tag:b"}]`,
			wantErr: patch.ErrBadPath},
		{name: "uppercase op accepted", aspect: "globalTags",
			patch: `[{"op":"ADD","path":"/tags/urn:li:tag:a","value":` + tagA + `}]`,
			want:  `{"tags":[` + tagA + `]}`},
	})
}

func TestApplyGlossaryTerms(t *testing.T) {
	t.Parallel()
	stamp := `{"actor":"urn:li:corpuser:__datahub_system","time":1700000000000}`
	runApply(t, []applyCase{
		{name: "absent starts with terms and auditStamp", aspect: "glossaryTerms",
			patch: `[{"op":"add","path":"/terms/urn:li:glossaryTerm:t","value":{"urn":"urn:li:glossaryTerm:t"}}]`,
			want:  `{"terms":[{"urn":"urn:li:glossaryTerm:t"}],"auditStamp":` + stamp + `}`},
		{name: "existing without auditStamp gains one", aspect: "glossaryTerms",
			current: `{"terms":[{"urn":"urn:li:glossaryTerm:x"}]}`,
			patch:   `[{"op":"remove","path":"/terms/urn:li:glossaryTerm:x"}]`,
			want:    `{"terms":[],"auditStamp":` + stamp + `}`},
		// GlossaryTermsTemplate keys terms by urn alone: a term of two
		// sources is one key, the later element's members merged over the
		// earlier's.
		{name: "keyed by urn alone", aspect: "glossaryTerms",
			current: `{"terms":[{"urn":"u1"},{"urn":"u1","attribution":{"source":"s1","time":0,"actor":"a"}}],"auditStamp":{"time":1,"actor":"a"}}`,
			patch:   `[{"op":"add","path":"/terms/u2","value":{"urn":"u2"}}]`,
			want:    `{"terms":[{"urn":"u1","attribution":{"source":"s1","time":0,"actor":"a"}},{"urn":"u2"}],"auditStamp":{"time":1,"actor":"a"}}`},
		{name: "remove a term removes every source", aspect: "glossaryTerms",
			current: `{"terms":[{"urn":"u1"},{"urn":"u1","attribution":{"source":"s1","time":0,"actor":"a"}},{"urn":"u2"}],"auditStamp":{"time":1,"actor":"a"}}`,
			patch:   `[{"op":"remove","path":"/terms/u1"}]`,
			want:    `{"terms":[{"urn":"u2"}],"auditStamp":{"time":1,"actor":"a"}}`},
		{name: "existing auditStamp kept", aspect: "glossaryTerms",
			current: `{"terms":[],"auditStamp":{"time":1,"actor":"urn:li:corpuser:u"}}`,
			patch:   `[{"op":"add","path":"/terms/urn:li:glossaryTerm:t","value":{"urn":"urn:li:glossaryTerm:t"}}]`,
			want:    `{"terms":[{"urn":"urn:li:glossaryTerm:t"}],"auditStamp":{"time":1,"actor":"urn:li:corpuser:u"}}`},
	})
}

func TestApplyOwnership(t *testing.T) {
	t.Parallel()
	jdoe := `{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"}`
	jdoeBiz := `{"owner":"urn:li:corpuser:jdoe","type":"BUSINESS_OWNER"}`
	ann := `{"owner":"urn:li:corpuser:ann","type":"TECHNICAL_OWNER"}`
	runApply(t, []applyCase{
		{name: "absent starts with lastModified", aspect: "ownership",
			patch: `[{"op":"add","path":"/owners/urn:li:corpuser:jdoe/TECHNICAL_OWNER","value":` + jdoe + `}]`,
			want:  `{"owners":[` + jdoe + `],"lastModified":{"time":1700000000000,"actor":"urn:li:corpuser:__datahub_system"}}`},
		{name: "second type of same owner", aspect: "ownership",
			current: `{"owners":[` + jdoe + `]}`,
			patch:   `[{"op":"add","path":"/owners/urn:li:corpuser:jdoe/BUSINESS_OWNER","value":` + jdoeBiz + `}]`,
			want:    `{"owners":[` + jdoe + `,` + jdoeBiz + `]}`},
		{name: "remove one type", aspect: "ownership",
			current: `{"owners":[` + jdoe + `,` + ann + `,` + jdoeBiz + `]}`,
			patch:   `[{"op":"remove","path":"/owners/urn:li:corpuser:jdoe/TECHNICAL_OWNER","value":"urn:li:corpuser:jdoe"}]`,
			want:    `{"owners":[` + jdoeBiz + `,` + ann + `]}`},
		{name: "remove all types of an owner", aspect: "ownership",
			current: `{"owners":[` + jdoe + `,` + ann + `,` + jdoeBiz + `]}`,
			patch:   `[{"op":"remove","path":"/owners/urn:li:corpuser:jdoe"}]`,
			want:    `{"owners":[` + ann + `]}`},
		{name: "add at the owner level, one key short", aspect: "ownership",
			current: `{"owners":[` + ann + `]}`,
			patch:   `[{"op":"add","path":"/owners/urn:li:corpuser:jdoe","value":` + jdoe + `}]`,
			want:    `{"owners":[` + ann + `,` + jdoe + `]}`},
		{name: "owner element not an object", aspect: "ownership",
			current: `{"owners":["x"]}`,
			patch:   `[{"op":"remove","path":"/owners/x"}]`,
			wantErr: patch.ErrBadAspect},
	})
}

func TestApplyUpstreamLineage(t *testing.T) {
	t.Parallel()
	up1 := `{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)","type":"TRANSFORMED"}`
	up2 := `{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)","type":"COPY"}`
	runApply(t, []applyCase{
		{name: "absent", aspect: "upstreamLineage",
			patch: `[{"op":"add","path":"/upstreams/urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)","value":` + up1 + `}]`,
			want:  `{"upstreams":[` + up1 + `],"fineGrainedLineages":[]}`},
		{name: "add and remove", aspect: "upstreamLineage",
			current: `{"upstreams":[` + up1 + `]}`,
			patch: `[{"op":"add","path":"/upstreams/urn:li:dataset:(urn:li:dataPlatform:hive,b,PROD)","value":` + up2 + `},` +
				`{"op":"remove","path":"/upstreams/urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)"}]`,
			want: `{"upstreams":[` + up2 + `],"fineGrainedLineages":[]}`},
		{name: "fine-grained add to absent", aspect: "upstreamLineage",
			patch: `[{"op":"add","path":"/fineGrainedLineages/TRANSFORM/urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),c)/NONE/urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD),x)","value":{"confidenceScore":0.5}}]`,
			want: `{"upstreams":[],"fineGrainedLineages":[{"downstreams":["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD),c)"],` +
				`"upstreams":["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD),x)"],"upstreamType":"FIELD_SET","downstreamType":"FIELD","confidenceScore":0.5,"transformOperation":"TRANSFORM"}]}`},
		{name: "fine-grained merge keeps lowest confidence and query", aspect: "upstreamLineage",
			current: `{"upstreams":[],"fineGrainedLineages":[{"upstreamType":"FIELD_SET","upstreams":["urn:li:schemaField:(d,x)"],"downstreamType":"FIELD","downstreams":["urn:li:schemaField:(t,c)"],"confidenceScore":0.9,"query":"urn:li:query:q"}]}`,
			patch:   `[{"op":"add","path":"/fineGrainedLineages/NONE/urn:li:schemaField:(t,c)/urn:li:query:q/urn:li:schemaField:(d,y)","value":{"confidenceScore":0.2}}]`,
			want: `{"upstreams":[],"fineGrainedLineages":[{"downstreams":["urn:li:schemaField:(t,c)"],"upstreams":["urn:li:schemaField:(d,x)","urn:li:schemaField:(d,y)"],` +
				`"query":"urn:li:query:q","upstreamType":"FIELD_SET","downstreamType":"FIELD","confidenceScore":0.2,"transformOperation":"NONE"}]}`},
		{name: "fine-grained with two downstreams cannot be patched", aspect: "upstreamLineage",
			current: `{"upstreams":[],"fineGrainedLineages":[{"upstreamType":"FIELD_SET","downstreamType":"FIELD","downstreams":["a","b"]}]}`,
			patch:   `[{"op":"add","path":"/upstreams/x","value":{"dataset":"x","type":"COPY"}}]`,
			wantErr: patch.ErrBadAspect},
	})
}

func TestApplyDatasetProperties(t *testing.T) {
	t.Parallel()
	runApply(t, []applyCase{
		{name: "absent: description and custom property", aspect: "datasetProperties",
			patch: `[{"op":"add","path":"/description","value":"d"},{"op":"add","path":"/customProperties/k~1v","value":"1"}]`,
			want:  `{"tags":[],"customProperties":{"k/v":"1"},"description":"d"}`},
		{name: "existing without customProperties", aspect: "datasetProperties",
			current: `{"name":"t","tags":["x"]}`,
			patch:   `[{"op":"add","path":"/customProperties/a","value":"1"},{"op":"add","path":"/tags/y","value":"y"}]`,
			want:    `{"name":"t","tags":["x","y"],"customProperties":{"a":"1"}}`},
		{name: "remove custom property and description", aspect: "datasetProperties",
			current: `{"customProperties":{"a":"1","b":"2"},"description":"d"}`,
			patch:   `[{"op":"remove","path":"/customProperties/a"},{"op":"remove","path":"/description"}]`,
			want:    `{"customProperties":{"b":"2"},"tags":[]}`},
		{name: "set all custom properties", aspect: "datasetProperties",
			current: `{"customProperties":{"a":"1"}}`,
			patch:   `[{"op":"add","path":"/customProperties","value":{"z":"9"}}]`,
			want:    `{"customProperties":{"z":"9"},"tags":[]}`},
	})
}

func TestApplyEditableSchemaMetadata(t *testing.T) {
	t.Parallel()
	stamp := `{"actor":"urn:li:corpuser:__datahub_system","time":1700000000000}`
	runApply(t, []applyCase{
		{name: "absent: field description", aspect: "editableSchemaMetadata",
			patch: `[{"op":"add","path":"/editableSchemaFieldInfo/a.b/description","value":"d"}]`,
			want:  `{"created":` + stamp + `,"lastModified":` + stamp + `,"editableSchemaFieldInfo":[{"description":"d","fieldPath":"a.b"}]}`},
		{name: "field tag added beside existing", aspect: "editableSchemaMetadata",
			current: `{"editableSchemaFieldInfo":[{"fieldPath":"c","globalTags":{"tags":[` + tagA + `]}}]}`,
			patch:   `[{"op":"add","path":"/editableSchemaFieldInfo/c/globalTags/tags/urn:li:tag:b","value":` + tagB + `}]`,
			want:    `{"editableSchemaFieldInfo":[{"fieldPath":"c","globalTags":{"tags":[` + tagA + `,` + tagB + `]}}]}`},
		{name: "field term to a field without terms", aspect: "editableSchemaMetadata",
			current: `{"editableSchemaFieldInfo":[{"fieldPath":"c"}]}`,
			patch:   `[{"op":"add","path":"/editableSchemaFieldInfo/c/glossaryTerms/terms/urn:li:glossaryTerm:t","value":{"urn":"urn:li:glossaryTerm:t"}}]`,
			want:    `{"editableSchemaFieldInfo":[{"fieldPath":"c","glossaryTerms":{"terms":[{"urn":"urn:li:glossaryTerm:t"}],"auditStamp":` + stamp + `}}]}`},
		{name: "escaped field path", aspect: "editableSchemaMetadata",
			current: `{"editableSchemaFieldInfo":[{"fieldPath":"[version=2.0].[type=x]/y"}]}`,
			patch:   `[{"op":"add","path":"/editableSchemaFieldInfo/[version=2.0].[type=x]~1y/description","value":"d"}]`,
			want:    `{"editableSchemaFieldInfo":[{"fieldPath":"[version=2.0].[type=x]/y","description":"d"}]}`},
	})
}

func TestApplyOtherTemplates(t *testing.T) {
	t.Parallel()
	runApply(t, []applyCase{
		{name: "domains add", aspect: "domains",
			patch: `[{"op":"add","path":"/domains/urn:li:domain:d","value":"urn:li:domain:d"}]`,
			want:  `{"domains":["urn:li:domain:d"]}`},
		{name: "status default", aspect: "status",
			patch: `[{"op":"replace","path":"/removed","value":true}]`,
			want:  `{"removed":true}`},
		{name: "editableDatasetProperties default empty", aspect: "editableDatasetProperties",
			patch: `[{"op":"add","path":"/description","value":"d"}]`,
			want:  `{"description":"d"}`},
		{name: "editableContainerProperties default empty", aspect: "editableContainerProperties",
			patch: `[{"op":"add","path":"/description","value":"d"}]`,
			want:  `{"description":"d"}`},
		{name: "versionProperties replaces", aspect: "versionProperties",
			current: `{"versionSet":"urn:li:versionSet:(s,dataset)","version":{"versionTag":"1"},"sortId":"a","isLatest":false}`,
			patch:   `[{"op":"add","path":"/isLatest","value":true}]`,
			want:    `{"versionSet":"urn:li:versionSet:(s,dataset)","version":{"versionTag":"1"},"sortId":"a","isLatest":true}`},
		{name: "versionProperties absent has no default", aspect: "versionProperties",
			patch:   `[{"op":"add","path":"/isLatest","value":true}]`,
			wantErr: patch.ErrBadAspect},
		{name: "editableMlModelGroupProperties replaces", aspect: "editableMlModelGroupProperties",
			current: `{"description":"a"}`,
			patch:   `[{"op":"replace","path":"/description","value":"b"}]`,
			want:    `{"description":"b"}`},
	})
}

func TestApplyEntityInfoTemplates(t *testing.T) {
	t.Parallel()
	stamp := `{"actor":"urn:li:corpuser:__datahub_system","time":1700000000000}`
	ds := func(n string) string { return `urn:li:dataset:(urn:li:dataPlatform:hive,` + n + `,PROD)` }
	edge := func(u string) string { return `{"destinationUrn":"` + u + `"}` }
	runApply(t, []applyCase{
		{name: "dataJobInputOutput from absent", aspect: "dataJobInputOutput",
			patch: `[{"op":"add","path":"/inputDatasetEdges/` + ds("a") + `","value":` + edge(ds("a")) + `},` +
				`{"op":"add","path":"/outputDatasetEdges/` + ds("b") + `","value":{}},` +
				`{"op":"add","path":"/inputDatasetFields/urn:li:schemaField:(x,y)","value":"urn:li:schemaField:(x,y)"}]`,
			want: `{"inputDatajobEdges":[],"inputDatasetEdges":[` + edge(ds("a")) + `],"outputDatasetEdges":[{"destinationUrn":"` + ds("b") + `"}],` +
				`"fineGrainedLineages":[],"inputDatasetFields":["urn:li:schemaField:(x,y)"],"outputDatasetFields":[],"inputDatajobs":[],"inputDatasets":[],"outputDatasets":[]}`},
		{name: "dataJobInputOutput remove edge keeps deprecated arrays", aspect: "dataJobInputOutput",
			current: `{"inputDatasets":["` + ds("a") + `"],"inputDatasetEdges":[` + edge(ds("a")) + `,` + edge(ds("c")) + `]}`,
			patch:   `[{"op":"remove","path":"/inputDatasetEdges/` + ds("a") + `"}]`,
			want:    `{"inputDatasets":["` + ds("a") + `"],"inputDatasetEdges":[` + edge(ds("c")) + `],"inputDatajobEdges":[],"outputDatasetEdges":[],"inputDatasetFields":[],"outputDatasetFields":[],"fineGrainedLineages":[]}`},
		{name: "chartInfo default", aspect: "chartInfo",
			patch: `[{"op":"add","path":"/customProperties/k","value":"v"}]`,
			want:  `{"description":"","title":"","lastModified":{"created":` + stamp + `,"lastModified":` + stamp + `},"inputEdges":[],"inputs":[],"customProperties":{"k":"v"}}`},
		{name: "dashboardInfo chart edge", aspect: "dashboardInfo",
			current: `{"title":"t","description":"","lastModified":{"created":{"time":0,"actor":"a"},"lastModified":{"time":0,"actor":"a"}},"charts":["urn:li:chart:(l,1)"]}`,
			patch:   `[{"op":"add","path":"/chartEdges/urn:li:chart:(l,2)","value":{"destinationUrn":"urn:li:chart:(l,2)"}}]`,
			want:    `{"title":"t","description":"","lastModified":{"created":{"time":0,"actor":"a"},"lastModified":{"time":0,"actor":"a"}},"charts":["urn:li:chart:(l,1)"],"chartEdges":[{"destinationUrn":"urn:li:chart:(l,2)"}],"datasetEdges":[],"dashboards":[],"datasets":[]}`},
		{name: "dashboardInfo dashboards keyed by destinationUrn", aspect: "dashboardInfo",
			current: `{"title":"t","description":"","lastModified":{"created":{"time":0,"actor":"a"},"lastModified":{"time":0,"actor":"a"}},"dashboards":[{"destinationUrn":"urn:li:dashboard:(l,1)"}]}`,
			patch:   `[{"op":"add","path":"/dashboards/urn:li:dashboard:(l,2)","value":{"destinationUrn":"urn:li:dashboard:(l,2)"}},{"op":"remove","path":"/dashboards/urn:li:dashboard:(l,1)"}]`,
			want:    `{"title":"t","description":"","lastModified":{"created":{"time":0,"actor":"a"},"lastModified":{"time":0,"actor":"a"}},"dashboards":[{"destinationUrn":"urn:li:dashboard:(l,2)"}],"chartEdges":[],"datasetEdges":[],"datasets":[],"charts":[]}`},
		{name: "dataFlowInfo", aspect: "dataFlowInfo",
			patch: `[{"op":"add","path":"/customProperties/k","value":"v"},{"op":"add","path":"/name","value":"flow"}]`,
			want:  `{"customProperties":{"k":"v"},"name":"flow"}`},
		{name: "dataJobInfo", aspect: "dataJobInfo", current: `{"name":"j","type":"SQL"}`,
			patch: `[{"op":"add","path":"/customProperties/k","value":"v"}]`,
			want:  `{"name":"j","type":"SQL","customProperties":{"k":"v"}}`},
		{name: "dataProductProperties assets", aspect: "dataProductProperties",
			patch: `[{"op":"add","path":"/assets/` + ds("a") + `","value":` + edge(ds("a")) + `}]`,
			want:  `{"assets":[` + edge(ds("a")) + `]}`},
		{name: "structuredProperties by propertyUrn", aspect: "structuredProperties",
			current: `{"properties":[{"propertyUrn":"urn:li:structuredProperty:p","values":[{"string":"a"}]}]}`,
			patch:   `[{"op":"add","path":"/properties/urn:li:structuredProperty:q","value":{"propertyUrn":"urn:li:structuredProperty:q","values":[{"double":1}]}}]`,
			want:    `{"properties":[{"propertyUrn":"urn:li:structuredProperty:p","values":[{"string":"a"}]},{"propertyUrn":"urn:li:structuredProperty:q","values":[{"double":1}]}]}`},
		{name: "siblings", aspect: "siblings",
			patch: `[{"op":"add","path":"/siblings/` + ds("a") + `","value":"` + ds("a") + `"}]`,
			want:  `{"siblings":["` + ds("a") + `"],"primary":false}`},
	})
}

// TestApplyNewerTemplates covers DocumentationTemplate,
// StructuredPropertyDefinitionTemplate and FormInfoTemplate.
func TestApplyNewerTemplates(t *testing.T) {
	t.Parallel()
	doc := func(text, source string) string {
		if source == "" {
			return `{"documentation":"` + text + `"}`
		}
		return `{"documentation":"` + text + `","attribution":{"time":0,"actor":"a","source":"` + source + `","sourceDetail":{}}}`
	}
	runApply(t, []applyCase{
		{name: "documentation from absent", aspect: "documentation",
			patch: `[{"op":"add","path":"/documentations/","value":` + doc("d", "") + `}]`,
			want:  `{"documentations":[` + doc("d", "") + `]}`},
		{name: "documentation keyed by attribution source", aspect: "documentation",
			current: `{"documentations":[` + doc("a", "") + `,` + doc("b", "s1") + `]}`,
			patch:   `[{"op":"add","path":"/documentations/s1","value":` + doc("c", "s1") + `},{"op":"add","path":"/documentations/s2","value":` + doc("e", "s2") + `}]`,
			want:    `{"documentations":[` + doc("a", "") + `,` + doc("c", "s1") + `,` + doc("e", "s2") + `]}`},
		{name: "documentation remove one source", aspect: "documentation",
			current: `{"documentations":[` + doc("a", "") + `,` + doc("b", "s1") + `]}`,
			patch:   `[{"op":"remove","path":"/documentations/"}]`,
			want:    `{"documentations":[` + doc("b", "s1") + `]}`},
		{name: "propertyDefinition from absent", aspect: "propertyDefinition",
			patch: `[{"op":"add","path":"/entityTypes/urn:li:entityType:datahub.dataset","value":"urn:li:entityType:datahub.dataset"},{"op":"add","path":"/displayName","value":"Retention"}]`,
			want:  `{"qualifiedName":"","valueType":"urn:li:dataType:datahub.string","entityTypes":["urn:li:entityType:datahub.dataset"],"displayName":"Retention"}`},
		{name: "propertyDefinition allowed values by value member", aspect: "propertyDefinition",
			current: `{"qualifiedName":"q","valueType":"urn:li:dataType:datahub.number","entityTypes":["e1"],"allowedValues":[{"value":{"double":30}},{"value":{"double":90},"description":"long"}]}`,
			patch: `[{"op":"add","path":"/allowedValues/365.0","value":{"value":{"double":365}}},{"op":"remove","path":"/allowedValues/30.0"},` +
				`{"op":"add","path":"/allowedValues/90.0/description","value":"quarter"},{"op":"add","path":"/entityTypes/e2","value":"e2"}]`,
			want: `{"qualifiedName":"q","valueType":"urn:li:dataType:datahub.number","entityTypes":["e1","e2"],"allowedValues":[{"value":{"double":90},"description":"quarter"},{"value":{"double":365}}]}`},
		{name: "propertyDefinition doubles keyed as Java prints them", aspect: "propertyDefinition",
			current: `{"qualifiedName":"q","valueType":"v","entityTypes":[],"allowedValues":[{"value":{"double":1e7}},{"value":{"double":0.5}},{"value":{"double":7}}]}`,
			patch:   `[{"op":"remove","path":"/allowedValues/1.0E7"},{"op":"remove","path":"/allowedValues/0.5"},{"op":"add","path":"/allowedValues/7.0/description","value":"week"}]`,
			want:    `{"qualifiedName":"q","valueType":"v","entityTypes":[],"allowedValues":[{"value":{"double":7},"description":"week"}]}`},
		{name: "propertyDefinition allowed strings keyed as they are", aspect: "propertyDefinition",
			current: `{"qualifiedName":"q","valueType":"v","entityTypes":[],"allowedValues":[{"value":{"string":"a/b"}},{"value":{"string":"7"}}]}`,
			patch:   `[{"op":"remove","path":"/allowedValues/a~1b"}]`,
			want:    `{"qualifiedName":"q","valueType":"v","entityTypes":[],"allowedValues":[{"value":{"string":"7"}}]}`},
		{name: "propertyDefinition allowed platforms by value", aspect: "propertyDefinition",
			current: `{"qualifiedName":"q","valueType":"v","entityTypes":[],"allowedPlatforms":["p1"]}`,
			patch:   `[{"op":"add","path":"/allowedPlatforms/p2","value":"p2"},{"op":"remove","path":"/allowedPlatforms/p1"}]`,
			want:    `{"qualifiedName":"q","valueType":"v","entityTypes":[],"allowedPlatforms":["p2"]}`},
		{name: "formInfo from absent", aspect: "formInfo",
			patch: `[{"op":"add","path":"/prompts/p1","value":{"id":"p1","title":"Owner?","type":"FIELDS_STRUCTURED_PROPERTY","required":true}},{"op":"add","path":"/actors/users/u1","value":"u1"}]`,
			want:  `{"name":"","prompts":[{"id":"p1","title":"Owner?","type":"FIELDS_STRUCTURED_PROPERTY","required":true}],"actors":{"users":["u1"],"groups":[]}}`},
		{name: "formInfo prompts by id, actors by value", aspect: "formInfo",
			current: `{"name":"f","prompts":[{"id":"p1","title":"a","type":"STRUCTURED_PROPERTY","required":false}],"actors":{"owners":true,"users":["u1"],"groups":["g1"]}}`,
			patch:   `[{"op":"add","path":"/prompts/p1/title","value":"b"},{"op":"add","path":"/actors/groups/g2","value":"g2"},{"op":"remove","path":"/actors/users/u1"}]`,
			want:    `{"name":"f","prompts":[{"id":"p1","title":"b","type":"STRUCTURED_PROPERTY","required":false}],"actors":{"owners":true,"users":[],"groups":["g1","g2"]}}`},
	})
}

func TestApplyGeneric(t *testing.T) {
	t.Parallel()
	link := func(url, desc string) string {
		return `{"url":"` + url + `","description":"` + desc + `","createStamp":{"time":0,"actor":"urn:li:corpuser:u"}}`
	}
	runApply(t, []applyCase{
		{name: "institutionalMemory keyed by url", aspect: "institutionalMemory",
			current: `{"elements":[` + link("http://a", "A") + `]}`,
			patch:   `{"patch":[{"op":"add","path":"/elements/http:~1~1b","value":` + link("http://b", "B") + `}],"arrayPrimaryKeys":{"elements":["url"]}}`,
			want:    `{"elements":[` + link("http://a", "A") + `,` + link("http://b", "B") + `]}`},
		{name: "absent aspect starts empty", aspect: "institutionalMemory",
			patch: `{"patch":[{"op":"add","path":"/elements/http:~1~1b","value":` + link("http://b", "B") + `}],"arrayPrimaryKeys":{"elements":["url"]}}`,
			want:  `{"elements":[` + link("http://b", "B") + `]}`},
		{name: "force generic on mlModelProperties", aspect: "mlModelProperties",
			current: `{"customProperties":{},"name":"m"}`,
			patch:   `{"patch":[{"op":"add","path":"/description","value":"d"}],"forceGenericPatch":true}`,
			want:    `{"customProperties":{},"name":"m","description":"d"}`},
		{name: "string array keyed by value", aspect: "mlModelProperties",
			current: `{"mlFeatures":["urn:li:mlFeature:(t,a)"]}`,
			patch:   `{"patch":[{"op":"add","path":"/mlFeatures/urn:li:mlFeature:(t,b)","value":"urn:li:mlFeature:(t,b)"},{"op":"remove","path":"/mlFeatures/urn:li:mlFeature:(t,a)"}],"arrayPrimaryKeys":{"mlFeatures":[]}}`,
			want:    `{"mlFeatures":["urn:li:mlFeature:(t,b)"]}`},
		{name: "nested key joined with U+241F", aspect: "glossaryTerms",
			current: `{"terms":[{"urn":"u1","attribution":{"source":"s1"}},{"urn":"u1"}],"auditStamp":{"time":0,"actor":"a"}}`,
			patch:   `{"patch":[{"op":"remove","path":"/terms/u1/s1"}],"arrayPrimaryKeys":{"terms":["urn","attribution␟source"]}}`,
			want:    `{"terms":[{"urn":"u1"}],"auditStamp":{"time":0,"actor":"a"}}`},
		{name: "generic overrides the template", aspect: "globalTags",
			current: `{"tags":[` + tagA + `]}`,
			patch:   `{"patch":[{"op":"add","path":"/tags/-","value":` + tagB + `}],"forceGenericPatch":true}`,
			want:    `{"tags":[` + tagA + `,` + tagB + `]}`},
		{name: "envelope without keys or force uses the template", aspect: "globalTags",
			patch: `{"patch":[{"op":"add","path":"/tags/urn:li:tag:a","value":` + tagA + `}],"arrayPrimaryKeys":{},"forceGenericPatch":false}`,
			want:  `{"tags":[` + tagA + `]}`},
		{name: "absent aspect starts from the template's default", aspect: "glossaryTerms",
			patch: `{"arrayPrimaryKeys":{"terms":["urn","attribution␟source"]},"patch":[{"op":"add","path":"/terms/u1/s1","value":{"urn":"u1","attribution":{"source":"s1","time":0,"actor":"a"}}},{"op":"add","path":"/terms/u1/","value":{"urn":"u1"}}]}`,
			want:  `{"terms":[{"urn":"u1","attribution":{"source":"s1","time":0,"actor":"a"}},{"urn":"u1"}],"auditStamp":{"actor":"urn:li:corpuser:__datahub_system","time":1700000000000}}`},
		{name: "remove with keys reordered removes every source", aspect: "globalTags",
			current: `{"tags":[{"tag":"t1"},{"tag":"t1","attribution":{"source":"s1","time":0,"actor":"a"}},{"tag":"t2"}]}`,
			patch:   `{"arrayPrimaryKeys":{"tags":["tag","attribution␟source"]},"patch":[{"op":"remove","path":"/tags/t1","value":{}}]}`,
			want:    `{"tags":[{"tag":"t2"}]}`},
		{name: "owners by four keys keep one owner's types apart", aspect: "ownership",
			current: `{"owners":[{"owner":"o","type":"DATAOWNER"}],"lastModified":{"time":1,"actor":"a"}}`,
			patch:   `{"arrayPrimaryKeys":{"owners":["owner","type","typeUrn","attribution␟source"]},"patch":[{"op":"add","path":"/owners/o/TECHNICAL_OWNER//","value":{"owner":"o","type":"TECHNICAL_OWNER"}},{"op":"remove","path":"/owners/o/DATAOWNER","value":{}}]}`,
			want:    `{"owners":[{"owner":"o","type":"TECHNICAL_OWNER"}],"lastModified":{"time":1,"actor":"a"}}`},
		{name: "named array absent becomes empty", aspect: "institutionalMemory",
			current: `{}`,
			patch:   `{"patch":[],"arrayPrimaryKeys":{"elements":["url"]}}`,
			want:    `{"elements":[]}`},
	})
}

func TestApplyArrayIndexes(t *testing.T) {
	t.Parallel()
	runApply(t, []applyCase{
		{name: "append with dash", aspect: "mlModelProperties",
			current: `{"hyperParams":[{"name":"a"}]}`,
			patch:   `{"patch":[{"op":"add","path":"/hyperParams/-","value":{"name":"b"}}],"forceGenericPatch":true}`,
			want:    `{"hyperParams":[{"name":"a"},{"name":"b"}]}`},
		{name: "insert at index", aspect: "mlModelProperties",
			current: `{"hyperParams":[{"name":"a"}]}`,
			patch:   `{"patch":[{"op":"add","path":"/hyperParams/0","value":{"name":"b"}}],"forceGenericPatch":true}`,
			want:    `{"hyperParams":[{"name":"b"},{"name":"a"}]}`},
		{name: "remove out of range", aspect: "mlModelProperties",
			current: `{"hyperParams":[{"name":"a"}]}`,
			patch:   `{"patch":[{"op":"remove","path":"/hyperParams/1"}],"forceGenericPatch":true}`,
			wantErr: patch.ErrBadPath},
		{name: "leading zero index", aspect: "mlModelProperties",
			current: `{"hyperParams":[{"name":"a"}]}`,
			patch:   `{"patch":[{"op":"replace","path":"/hyperParams/00","value":{}}],"forceGenericPatch":true}`,
			wantErr: patch.ErrBadPath},
		{name: "member of a string", aspect: "status",
			current: `{"removed":false}`,
			patch:   `[{"op":"add","path":"/removed/x/y","value":1}]`,
			wantErr: patch.ErrBadPath},
	})
}

func TestApplyErrors(t *testing.T) {
	t.Parallel()
	runApply(t, []applyCase{
		{name: "no template absent", aspect: "institutionalMemory",
			patch:   `[{"op":"add","path":"/elements/x","value":{}}]`,
			wantErr: patch.ErrNoTemplate},
		{name: "no template existing", aspect: "mlModelProperties", current: `{"name":"m"}`,
			patch:   `[{"op":"add","path":"/mlFeatures/x","value":"x"}]`,
			wantErr: patch.ErrNoTemplate},
		{name: "not JSON", aspect: "globalTags", patch: `[{`, wantErr: patch.ErrBadPatch},
		{name: "a string", aspect: "globalTags", patch: `"x"`, wantErr: patch.ErrBadPatch},
		{name: "object without patch", aspect: "globalTags", patch: `{"ops":[]}`, wantErr: patch.ErrBadPatch},
		{name: "op not an object", aspect: "globalTags", patch: `[1]`, wantErr: patch.ErrBadPatch},
		{name: "no op", aspect: "globalTags", patch: `[{"path":"/tags"}]`, wantErr: patch.ErrBadPatch},
		{name: "no path", aspect: "globalTags", patch: `[{"op":"add","value":1}]`, wantErr: patch.ErrBadPatch},
		{name: "add without value", aspect: "globalTags", patch: `[{"op":"add","path":"/tags/x"}]`, wantErr: patch.ErrBadPatch},
		{name: "copy without from", aspect: "globalTags", patch: `[{"op":"copy","path":"/tags/x"}]`, wantErr: patch.ErrBadPatch},
		{name: "unknown op", aspect: "globalTags", patch: `[{"op":"merge","path":"/tags","value":1}]`, wantErr: patch.ErrBadOp},
		{name: "path without slash", aspect: "globalTags", patch: `[{"op":"add","path":"tags","value":1}]`, wantErr: patch.ErrBadPath},
		{name: "bad escape", aspect: "globalTags", patch: `[{"op":"add","path":"/tags/a~2","value":1}]`, wantErr: patch.ErrBadPath},
		{name: "bad arrayPrimaryKeys", aspect: "globalTags", patch: `{"patch":[],"arrayPrimaryKeys":{"tags":"tag"}}`, wantErr: patch.ErrBadPatch},
		{name: "bad forceGenericPatch", aspect: "globalTags", patch: `{"patch":[],"forceGenericPatch":"yes"}`, wantErr: patch.ErrBadPatch},
		{name: "current not an object", aspect: "globalTags", current: `[1]`, patch: `[]`, wantErr: patch.ErrBadAspect},
		{name: "current not JSON", aspect: "globalTags", current: `{`, patch: `[]`, wantErr: patch.ErrBadAspect},
		{name: "root replaced by a string", aspect: "status", patch: `[{"op":"replace","path":"","value":"x"}]`, wantErr: patch.ErrBadAspect},
		{name: "remove root", aspect: "status", patch: `[{"op":"remove","path":""}]`, wantErr: patch.ErrBadPath},
		{name: "move into itself", aspect: "status", current: `{"a":{"b":1}}`, patch: `[{"op":"move","from":"/a","path":"/a/b/c"}]`, wantErr: patch.ErrBadPath},
	})
}

// TestApplyErrorText checks that the no-template failure names the aspect
// and both remedies, and that an operation failure names the operation.
func TestApplyErrorText(t *testing.T) {
	t.Parallel()
	_, err := patch.Apply("institutionalMemory", nil, []byte(`[{"op":"add","path":"/elements/x","value":{}}]`))
	want := `patch institutionalMemory: no patch template for the aspect: DataHub has no patch template for institutionalMemory; ` +
		`write it with a conditional read-modify-write (UPSERT with If-Version-Match), or send the patch as ` +
		`{"patch":[...],"forceGenericPatch":true} (with "arrayPrimaryKeys" to address array elements by key)`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
	_, err = patch.Apply("globalTags", []byte(`{"tags":[]}`), []byte(`[{"op":"add","path":"/tags/a","value":{"tag":"a"}},{"op":"replace","path":"/tags/b","value":{}}]`))
	want = `patch globalTags: bad patch path: operation 1 (replace "/tags/b"): no member "b" at "/tags"`
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant %s", err, want)
	}
}

// TestApplyDoesNotChangeInput checks that the caller's bytes are not
// modified and that a failed patch returns nothing.
func TestApplyDoesNotChangeInput(t *testing.T) {
	t.Parallel()
	cur := []byte(`{"tags":[{"tag":"urn:li:tag:a"}]}`)
	keep := string(cur)
	if _, err := patch.Apply("globalTags", cur, []byte(`[{"op":"remove","path":"/tags/urn:li:tag:a"}]`)); err != nil {
		t.Fatal(err)
	}
	if string(cur) != keep {
		t.Errorf("current changed to %s", cur)
	}
}

func TestTemplates(t *testing.T) {
	t.Parallel()
	want := []string{"chartInfo", "dashboardInfo", "dataFlowInfo", "dataJobInfo", "dataJobInputOutput",
		"dataProductProperties", "datasetProperties", "documentation", "domains", "editableContainerProperties", "editableDatasetProperties",
		"editableMlModelGroupProperties", "editableSchemaMetadata",
		"formInfo", "globalTags", "glossaryTerms", "ownership", "propertyDefinition", "siblings", "status",
		"structuredProperties", "upstreamLineage", "versionProperties"}
	if diff := cmp.Diff(want, patch.Templates()); diff != "" {
		t.Errorf("Templates (-want +got):\n%s", diff)
	}
	if !patch.HasTemplate("globalTags") || patch.HasTemplate("institutionalMemory") {
		t.Error("HasTemplate disagrees with Templates")
	}
	if got := patch.Escape("a/b~c"); got != "a~1b~0c" {
		t.Errorf("Escape = %q", got)
	}
}

// TestApplyCopyBomb checks that copies doubling a value are stopped.
func TestApplyCopyBomb(t *testing.T) {
	t.Parallel()
	ops := `{"op":"add","path":"/a","value":[1,2]}`
	for range 40 {
		ops += `,{"op":"copy","from":"/a","path":"/a/-"}`
	}
	_, err := patch.Apply("status", nil, []byte(`[`+ops+`]`))
	if !errors.Is(err, patch.ErrBadPatch) {
		t.Fatalf("Apply error = %v, want ErrBadPatch", err)
	}
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

// TestApplyConcurrent runs 64 adders at once on one aspect value: Apply
// shares no state between calls (the race detector watches), and folding
// the 64 patches one after another keeps all 64 tags.
func TestApplyConcurrent(t *testing.T) {
	t.Parallel()
	const n = 64
	base := []byte(`{"tags":[]}`)
	patches := make([][]byte, n)
	for i := range n {
		tag := fmt.Sprintf("urn:li:tag:t%02d", i)
		patches[i] = []byte(`[{"op":"add","path":"/tags/` + tag + `","value":{"tag":"` + tag + `"}}]`)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			if _, err := fixed.Apply("globalTags", base, patches[i]); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	cur := base
	for i := range n {
		var err error
		if cur, err = fixed.Apply("globalTags", cur, patches[i]); err != nil {
			t.Fatal(err)
		}
	}
	var got struct{ Tags []struct{ Tag string } }
	if err := json.Unmarshal(cur, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Tags) != n {
		t.Errorf("%d tags after %d adds: %s", len(got.Tags), n, cur)
	}
}
