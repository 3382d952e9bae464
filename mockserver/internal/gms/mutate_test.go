package gms_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// mutT0 is the fixed clock of the mutation tests (the audit stamps).
var mutT0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

const (
	mutStamp = `{"time":1767323045000,"actor":"urn:li:corpuser:datahub"}`
	tagA     = "urn:li:tag:a"
	tagB     = "urn:li:tag:b"
	termA    = "urn:li:glossaryTerm:ta"
	userA    = "urn:li:corpuser:alice"
	groupA   = "urn:li:corpGroup:eng"
	ghostDS  = "urn:li:dataset:(urn:li:dataPlatform:hive,ghost,PROD)"
	schemaDS = `{"schemaName":"t","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","platformSchema":{"com.linkedin.schema.MySqlDDL":{"tableSchema":""}},"fields":[{"fieldPath":"id","nativeDataType":"int","type":{"type":{"com.linkedin.schema.NumberType":{}}}}]}`
)

// mutCore is a core at mutT0 holding a dataset with a schema, tags a and b,
// a glossary term, a user and a group, and the aspects given (urn, aspect,
// value triples).
func mutCore(t *testing.T, more ...string) *gms.Core {
	t.Helper()
	c := newCore(t, gms.Options{Clock: func() time.Time { return mutT0 }})
	put := []string{
		ds, "schemaMetadata", schemaDS,
		tagA, "tagProperties", `{"name":"a"}`,
		tagB, "tagProperties", `{"name":"b"}`,
		termA, "glossaryTermInfo", `{"definition":"d","termSource":"INTERNAL"}`,
		userA, "corpUserKey", `{"username":"alice"}`,
		groupA, "corpGroupKey", `{"name":"eng"}`,
	}
	put = append(put, more...)
	for i := 0; i < len(put); i += 3 {
		if err := c.Put(t.Context(), put[i], put[i+1], json.RawMessage(put[i+2])); err != nil {
			t.Fatal(put[i], put[i+1], err)
		}
	}
	return c
}

// latest is the latest value of aspect of u as compact JSON ("" when absent).
func latest(t *testing.T, c *gms.Core, u, aspect string) string {
	t.Helper()
	a, err := c.LoadAspect(t.Context(), u, aspect, 0)
	if gms.AsError(err) != nil && gms.AsError(err).Kind == gms.NotFound {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(a.Value)
}

// sameJSON fails t unless got and want are the same JSON value.
func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal([]byte(got), &g); err != nil {
		t.Fatalf("got %q: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("want %q: %v", want, err)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("value (-want +got):\n%s", d)
	}
}

// refused fails t unless err is an *Error of kind and message (msg "" any).
func refused(t *testing.T, err error, kind gms.Kind, msg string) {
	t.Helper()
	e := gms.AsError(err)
	if e == nil || e.Kind != kind || (msg != "" && e.Message != msg) {
		t.Fatalf("err = %v, want %v %q", err, kind, msg)
	}
}

func field(u, fp string) gms.ResourceRef {
	return gms.ResourceRef{URN: u, SubResourceType: ptr("DATASET_FIELD"), SubResource: ptr(fp)}
}

// TestChangeLabels checks the label mutations' checks, their merges and
// the UI's systemMetadata.
func TestChangeLabels(t *testing.T) {
	t.Parallel()
	const attr = "urn:li:businessAttribute:ba"
	tests := []struct {
		name string
		// pre is aspects written first (urn, aspect, value triples).
		pre []string
		ch  gms.LabelChange
		// kind and msg are the refusal (0: success, then u.aspect is want).
		kind             gms.Kind
		msg              string
		u, aspect, wantV string
	}{
		{name: "tags added once each", pre: []string{ds, "globalTags", `{"tags":[{"tag":"urn:li:tag:a","context":"kept"}]}`},
			ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA, tagB, tagB}, Resources: []gms.ResourceRef{{URN: ds}}},
			u:  ds, aspect: "globalTags", wantV: `{"tags":[{"tag":"urn:li:tag:a","context":"kept"},{"tag":"urn:li:tag:b"}]}`},
		{name: "tags removed", pre: []string{ds, "globalTags", `{"tags":[{"tag":"urn:li:tag:a"},{"tag":"urn:li:tag:b"}]}`},
			ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA, "urn:li:tag:ghost"}, Resources: []gms.ResourceRef{{URN: ds}}, Remove: true},
			u:  ds, aspect: "globalTags", wantV: `{"tags":[{"tag":"urn:li:tag:b"}]}`},
		{name: "term with stamp", ch: gms.LabelChange{Label: gms.Terms, URNs: []string{termA}, Resources: []gms.ResourceRef{{URN: ds}}},
			u: ds, aspect: "glossaryTerms", wantV: `{"terms":[{"urn":"` + termA + `"}],"auditStamp":` + mutStamp + `}`},
		{name: "field tag", pre: []string{ds, "editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"}]}`},
			ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA}, Resources: []gms.ResourceRef{field(ds, "id")}},
			u:  ds, aspect: "editableSchemaMetadata",
			wantV: `{"editableSchemaFieldInfo":[{"fieldPath":"other","description":"kept"},{"fieldPath":"id","globalTags":{"tags":[{"tag":"urn:li:tag:a"}]}}]}`},
		{name: "field term", ch: gms.LabelChange{Label: gms.Terms, URNs: []string{termA}, Resources: []gms.ResourceRef{field(ds, "id")}},
			u: ds, aspect: "editableSchemaMetadata",
			wantV: `{"editableSchemaFieldInfo":[{"fieldPath":"id","glossaryTerms":{"terms":[{"urn":"` + termA + `"}],"auditStamp":` + mutStamp + `}}]}`},
		{name: "business attribute", pre: []string{attr, "businessAttributeInfo", `{"fieldPath":"ba","name":"ba","type":{"type":{"com.linkedin.schema.StringType":{}}}}`},
			ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA}, Resources: []gms.ResourceRef{{URN: attr}}},
			u:  attr, aspect: "businessAttributeInfo",
			wantV: `{"fieldPath":"ba","name":"ba","type":{"type":{"com.linkedin.schema.StringType":{}}},"globalTags":{"tags":[{"tag":"urn:li:tag:a"}]}}`},
		{name: "missing tag", ch: gms.LabelChange{Label: gms.Tags, URNs: []string{"urn:li:tag:ghost"}, Resources: []gms.ResourceRef{{URN: ds}}},
			kind: gms.BadArgument, msg: "Failed to validate label with urn urn:li:tag:ghost. Urn does not exist."},
		{name: "term as tag", ch: gms.LabelChange{Label: gms.Tags, URNs: []string{termA}, Resources: []gms.ResourceRef{{URN: ds}}},
			kind: gms.BadArgument, msg: "Failed to validate label with urn " + termA + ". Urn type does not match entity type tag.."},
		{name: "missing resource", ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA}, Resources: []gms.ResourceRef{{URN: ds}, {URN: ghostDS}}},
			kind: gms.BadArgument, msg: "Failed to update resource with urn " + ghostDS + ". Entity does not exist."},
		{name: "missing field", ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA}, Resources: []gms.ResourceRef{field(ds, "nope")}},
			kind: gms.BadArgument, msg: "Failed to update " + ds + " & field nope. Field nope does not exist in the datasets schema."},
		{name: "sub-resource without type", ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA}, Resources: []gms.ResourceRef{{URN: ds, SubResource: ptr("id")}}},
			kind: gms.BadArgument, msg: "Failed to updates resource with urn " + ds + ". SubResource (id) provided without a subResourceType."},
		{name: "type without sub-resource", ch: gms.LabelChange{Label: gms.Tags, URNs: []string{tagA}, Resources: []gms.ResourceRef{{URN: ds, SubResourceType: ptr("DATASET_FIELD")}}},
			kind: gms.BadArgument, msg: "Failed to update resource with urn " + ds + ". SubResourceType (DATASET_FIELD) provided without a subResource."},
		{name: "malformed label", ch: gms.LabelChange{Label: gms.Tags, URNs: []string{"urn:li:tag"}, Resources: []gms.ResourceRef{{URN: ds}}},
			kind: gms.BadArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := mutCore(t, tt.pre...)
			err := c.ChangeLabels(t.Context(), tt.ch)
			if tt.kind != 0 {
				refused(t, err, tt.kind, tt.msg)
				if got := latest(t, c, ds, "globalTags"); got != "" {
					t.Errorf("refused change wrote globalTags %s", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameJSON(t, latest(t, c, tt.u, tt.aspect), tt.wantV)
			if len(tt.pre) > 0 { // an update keeps the stored systemMetadata, taking only the run fields of the write (as GMS)
				return
			}
			a, err := c.LoadAspect(t.Context(), tt.u, tt.aspect, 0)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(a.SystemMetadata), `"appSource":"ui"`) {
				t.Errorf("systemMetadata %s lacks the UI's appSource", a.SystemMetadata)
			}
		})
	}
}

// concurrently runs 16 calls of fn (its argument 0..15) at once and fails
// t with the first error.
func concurrently(t *testing.T, fn func(i int) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range 16 {
		wg.Go(func() { errs[i] = fn(i) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMutationsConcurrent runs 16 mutations of one family on one entity at
// once: every change is kept.
func TestMutationsConcurrent(t *testing.T) {
	t.Parallel()
	var pre []string
	for i := range 16 {
		pre = append(pre, fmt.Sprintf("urn:li:tag:t%d", i), "tagProperties", fmt.Sprintf(`{"name":"t%d"}`, i),
			fmt.Sprintf("urn:li:corpuser:u%d", i), "corpUserKey", fmt.Sprintf(`{"username":"u%d"}`, i),
			fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d,PROD)", i), "status", `{"removed":false}`)
	}
	tests := []struct {
		name   string
		do     func(c *gms.Core, i int) error
		u      string // the entity changed ("": ds)
		aspect string
		member string
	}{
		{name: "tags", aspect: "globalTags", member: "tags", do: func(c *gms.Core, i int) error {
			return c.ChangeLabels(t.Context(), gms.LabelChange{Label: gms.Tags, URNs: []string{fmt.Sprintf("urn:li:tag:t%d", i)}, Resources: []gms.ResourceRef{{URN: ds}}})
		}},
		{name: "owners", aspect: "ownership", member: "owners", do: func(c *gms.Core, i int) error {
			return c.AddOwners(t.Context(), []gms.Owner{{URN: fmt.Sprintf("urn:li:corpuser:u%d", i), Type: "TECHNICAL_OWNER"}}, []gms.ResourceRef{{URN: ds}})
		}},
		{name: "links", aspect: "institutionalMemory", member: "elements", do: func(c *gms.Core, i int) error {
			return c.ChangeLink(t.Context(), gms.LinkChange{Op: gms.AddLink, ResourceURN: ds, URL: fmt.Sprintf("https://x/%d", i), Label: ptr("l")})
		}},
		{name: "data product assets", u: "urn:li:dataProduct:p", aspect: "dataProductProperties", member: "assets", do: func(c *gms.Core, i int) error {
			return c.ChangeDataProductAssets(t.Context(), []string{"urn:li:dataProduct:p"}, []string{fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d,PROD)", i)}, false)
		}},
		{name: "structured property definition", u: "urn:li:structuredProperty:sp", aspect: "propertyDefinition", member: "entityTypes", do: func(c *gms.Core, i int) error {
			return c.UpdateStructuredProperty(t.Context(), "urn:li:structuredProperty:sp", gms.StructuredPropertyUpdate{NewEntityTypes: []string{fmt.Sprintf("urn:li:entityType:datahub.e%d", i)}})
		}},
		{name: "field tags", aspect: "editableSchemaMetadata", member: "editableSchemaFieldInfo", do: func(c *gms.Core, i int) error {
			return c.ChangeLabels(t.Context(), gms.LabelChange{Label: gms.Tags, URNs: []string{fmt.Sprintf("urn:li:tag:t%d", i)}, Resources: []gms.ResourceRef{field(ds, "id")}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := mutCore(t, slices.Concat(pre, []string{
				"urn:li:dataProduct:p", "dataProductProperties", `{"name":"p"}`,
				"urn:li:structuredProperty:sp", "propertyDefinition", `{"qualifiedName":"sp","valueType":"urn:li:dataType:datahub.string","entityTypes":[]}`})...)
			concurrently(t, func(i int) error { return tt.do(c, i) })
			u := tt.u
			if u == "" {
				u = ds
			}
			var v map[string]any
			if err := json.Unmarshal([]byte(latest(t, c, u, tt.aspect)), &v); err != nil {
				t.Fatal(err)
			}
			items, _ := v[tt.member].([]any)
			n := len(items)
			if tt.member == "editableSchemaFieldInfo" && n == 1 {
				n = len(items[0].(map[string]any)["globalTags"].(map[string]any)["tags"].([]any))
			}
			if n != 16 {
				t.Errorf("%d %s kept, want 16: %v", n, tt.member, v)
			}
		})
	}
}
