package gms_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

func latestValue(t *testing.T, c *gms.Core, urn, aspect string) string {
	t.Helper()
	a, err := c.GetAspect(t.Context(), urn, aspect, 0)
	if err != nil {
		t.Fatal(err)
	}
	return string(a.Value)
}

// TestOwnershipOwnerTypes: an ownership write gets ownerTypes as GMS's
// OwnershipOwnerTypes hook materialises them, replacing what the write
// carried (failed before: the value was stored as written), by typeUrn, by
// type or as __system__none; a PATCH gets them too.
func TestOwnershipOwnerTypes(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	in := `{"owners":[{"owner":"urn:li:corpuser:a","type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpuser:b","type":"TECHNICAL_OWNER"},` +
		`{"owner":"urn:li:corpuser:c","type":"CUSTOM","typeUrn":"urn:li:ownershipType:my.type"}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`
	if err := c.Ingest(ctx, []gms.Proposal{upsert(ds, "ownership", in)}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	want := `{"owners":[{"owner":"urn:li:corpuser:a","type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpuser:b","type":"TECHNICAL_OWNER"},` +
		`{"owner":"urn:li:corpuser:c","type":"CUSTOM","typeUrn":"urn:li:ownershipType:my.type"}],` +
		`"ownerTypes":{"urn:li:ownershipType:__system__technical_owner":["urn:li:corpuser:a","urn:li:corpuser:b"],"urn:li:ownershipType:my%2Etype":["urn:li:corpuser:c"]},` +
		`"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`
	if d := cmp.Diff(want, latestValue(t, c, ds, "ownership")); d != "" {
		t.Errorf("stored (-want +got):\n%s", d)
	}
	p := gms.Proposal{EntityType: "dataset", EntityURN: ds, ChangeType: "PATCH", AspectName: "ownership",
		Aspect: []byte(`[{"op":"remove","path":"/owners/urn:li:corpuser:a"}]`), ContentType: "application/json-patch+json"}
	if err := c.Ingest(ctx, []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	got := latestValue(t, c, ds, "ownership")
	if !strings.Contains(got, `"ownerTypes":{"urn:li:ownershipType:__system__technical_owner":["urn:li:corpuser:b"],"urn:li:ownershipType:my%2Etype":["urn:li:corpuser:c"]}`) {
		t.Errorf("after the patch: %s", got)
	}
	// No owners: left as written.
	const none = `{"owners":[],"ownerTypes":{"x":[]},"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`
	if err := c.Ingest(ctx, []gms.Proposal{upsert(ds, "ownership", none)}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := latestValue(t, c, ds, "ownership"); got != none {
		t.Errorf("without owners: %s, want %s", got, none)
	}
}

// TestDoublesStoredAsJavaWritesThem: float and double fields written as
// integers are stored as DataHub's Pegasus serialisation writes them, 30.0
// (failed before: 30), every other byte as written; the sync write's
// result carries the stored value.
func TestDoublesStoredAsJavaWritesThem(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	sp := "urn:li:structuredProperty:retention"
	def := `{"qualifiedName":"retention","valueType":"urn:li:dataType:datahub.number","entityTypes":["urn:li:entityType:datahub.dataset"],` +
		`"allowedValues":[{"value":{"double":30}},{"value":{"double":12345678901}},{"value":{"double":0.5}},{"value":{"string":"30"}}],"cardinality":"SINGLE"}`
	p := gms.Proposal{EntityType: "structuredProperty", EntityURN: sp, ChangeType: "UPSERT", AspectName: "propertyDefinition",
		Aspect: []byte(def), ContentType: "application/json"}
	res, err := c.Write(t.Context(), []gms.Proposal{p}, gms.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"qualifiedName":"retention","valueType":"urn:li:dataType:datahub.number","entityTypes":["urn:li:entityType:datahub.dataset"],` +
		`"allowedValues":[{"value":{"double":30.0}},{"value":{"double":1.2345678901E10}},{"value":{"double":0.5}},{"value":{"string":"30"}}],"cardinality":"SINGLE"}`
	if d := cmp.Diff(want, latestValue(t, c, sp, "propertyDefinition")); d != "" {
		t.Errorf("stored (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want, string(res[0].Value)); d != "" {
		t.Errorf("Write's Value (-want +got):\n%s", d)
	}
	// A record without float fields is stored byte for byte.
	const props = `{"name":"t","customProperties":{"n":"30"},"tags":[]}`
	if err := c.Ingest(t.Context(), []gms.Proposal{upsert(ds, "datasetProperties", props)}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := latestValue(t, c, ds, "datasetProperties"); got != props {
		t.Errorf("datasetProperties stored %s, want %s", got, props)
	}
}
