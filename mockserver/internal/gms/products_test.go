package gms_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

const chartC = "urn:li:chart:(looker,c1)"

// TestDataProducts checks createDataProduct, updateDataProduct,
// batchSetDataProduct (an asset moves between products) and
// deleteDataProduct.
func TestDataProducts(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	c := mutCore(t, chartC, "status", `{"removed":false}`)
	_, err := c.CreateDataProduct(ctx, gms.DataProductInput{ID: "p", Name: "P", DomainURN: "urn:li:domain:ghost"})
	refused(t, err, gms.BadArgument, "The Domain provided dos not exist")
	d, err := c.CreateDomain(ctx, gms.DomainInput{ID: "d", Name: "D"})
	if err != nil {
		t.Fatal(err)
	}
	p1, err := c.CreateDataProduct(ctx, gms.DataProductInput{ID: "p1", Name: "P1", Description: ptr("one"), DomainURN: d})
	if err != nil {
		t.Fatal(err)
	}
	p2, err := c.CreateDataProduct(ctx, gms.DataProductInput{ID: "p2", Name: "P2", DomainURN: d})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CreateDataProduct(ctx, gms.DataProductInput{ID: "p1", Name: "again", DomainURN: d})
	refused(t, err, gms.BadArgument, "This Data product already exists!")
	sameJSON(t, latest(t, c, p1, "domains"), `{"domains":["`+d+`"]}`)
	sameJSON(t, latest(t, c, p1, "ownership"), creatorOwnership)
	if err := c.UpdateDataProduct(ctx, p1, ptr("First"), nil); err != nil {
		t.Fatal(err)
	}
	refused(t, c.UpdateDataProduct(ctx, "urn:li:dataProduct:ghost", ptr("x"), nil), gms.BadArgument,
		"Failed to update DataProduct. DataProduct with urn urn:li:dataProduct:ghost does not exist.")
	refused(t, c.BatchSetDataProduct(ctx, &p1, []string{ds, ghostDS}), gms.BadArgument,
		"Failed to update data products, resource "+ghostDS+" does not exist")
	if err := c.BatchSetDataProduct(ctx, &p1, []string{ds, chartC}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, p1, "dataProductProperties"), `{"name":"First","description":"one","assets":[
		{"destinationUrn":"`+ds+`","created":`+mutStamp+`,"lastModified":`+mutStamp+`},
		{"destinationUrn":"`+chartC+`","created":`+mutStamp+`,"lastModified":`+mutStamp+`}]}`)
	if err := c.BatchSetDataProduct(ctx, &p2, []string{ds}); err != nil {
		t.Fatal(err)
	}
	if got := latest(t, c, p1, "dataProductProperties"); strings.Contains(got, ds) {
		t.Errorf("%s still in the product it left: %s", ds, got)
	}
	if got := latest(t, c, p2, "dataProductProperties"); !strings.Contains(got, ds) {
		t.Errorf("%s not in its new product: %s", ds, got)
	}
	if err := c.BatchSetDataProduct(ctx, nil, []string{chartC}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, p1, "dataProductProperties"), `{"name":"First","description":"one","assets":[]}`)
	if err := c.DeleteDataProduct(ctx, p2); err != nil {
		t.Fatal(err)
	}
}

// TestIncidentsAndAssertions checks raiseIncident, updateIncidentStatus,
// upsertCustomAssertion, reportAssertionResult and deleteAssertion.
func TestIncidentsAndAssertions(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	c := mutCore(t, chartC, "status", `{"removed":false}`)
	_, err := c.RaiseIncident(ctx, gms.IncidentInput{Type: "OPERATIONAL", ResourceURNs: []string{"not a urn"}})
	refused(t, err, gms.Internal, "At least 1 resource urn must be defined to raise an incident.")
	_, err = c.RaiseIncident(ctx, gms.IncidentInput{Type: "CUSTOM", ResourceURN: ptr(ds)})
	refused(t, err, gms.Internal, "customType is required: Failed to create incident.")
	inc, err := c.RaiseIncident(ctx, gms.IncidentInput{Type: "OPERATIONAL", Title: ptr("t"), ResourceURN: ptr(ds), ResourceURNs: []string{ds, chartC},
		Priority: ptr("HIGH"), AssigneeURNs: []string{userA}})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, inc, "incidentInfo"), `{"type":"OPERATIONAL","title":"t","entities":["`+ds+`","`+chartC+`"],"priority":1,
		"assignees":[{"actor":"`+userA+`","assignedAt":`+mutStamp+`}],"source":{"type":"MANUAL"},"created":`+mutStamp+`,
		"status":{"state":"ACTIVE","lastUpdated":`+mutStamp+`}}`)
	if err := c.UpdateIncidentStatus(ctx, inc, gms.IncidentStatus{State: "RESOLVED", Stage: ptr("FIXED"), Message: ptr("done")}); err != nil {
		t.Fatal(err)
	}
	var info struct{ Status map[string]any }
	_ = json.Unmarshal([]byte(latest(t, c, inc, "incidentInfo")), &info)
	if info.Status["state"] != "RESOLVED" || info.Status["stage"] != "FIXED" || info.Status["message"] != "done" {
		t.Errorf("status %v", info.Status)
	}
	refused(t, c.UpdateIncidentStatus(ctx, "urn:li:incident:ghost", gms.IncidentStatus{State: "RESOLVED"}), gms.NotFound,
		"Failed to update incident. Incident does not exist.")

	_, err = c.UpsertCustomAssertion(ctx, "", gms.CustomAssertionInput{EntityURN: ds, Type: "t", Description: "d"})
	refused(t, err, gms.BadArgument, "Failed to upsert Custom Assertion. Platform Name or Platform Urn must be specified.")
	as, err := c.UpsertCustomAssertion(ctx, "urn:li:assertion:a1", gms.CustomAssertionInput{EntityURN: ds, Type: "row count", Description: "d",
		FieldPath: ptr("id"), PlatformName: ptr("great-expectations")})
	if err != nil || as != "urn:li:assertion:a1" {
		t.Fatal(as, err)
	}
	sameJSON(t, latest(t, c, as, "assertionInfo"), `{"type":"CUSTOM","description":"d","source":{"type":"EXTERNAL"},
		"customAssertion":{"type":"row count","entity":"`+ds+`","field":"urn:li:schemaField:(`+ds+`,id)"}}`)
	sameJSON(t, latest(t, c, as, "dataPlatformInstance"), `{"platform":"urn:li:dataPlatform:great-expectations"}`)
	refused(t, c.ReportAssertionResult(ctx, "urn:li:assertion:ghost", gms.AssertionResult{Type: "SUCCESS"}), gms.Internal,
		"Failed to report Assertion Run Event. Assertion with urn urn:li:assertion:ghost does not exist or is not associated with any entity.")
	if err := c.ReportAssertionResult(ctx, as, gms.AssertionResult{Type: "FAILURE", Severity: "HIGH", Properties: [][2]string{{"rows", "3"}}}); err != nil {
		t.Fatal(err)
	}
	docs, err := c.Timeseries(ctx, gms.TimeseriesQuery{URN: as, Entity: "assertion", Aspect: "assertionRunEvent", Limit: 10})
	if err != nil || len(docs) != 1 {
		t.Fatal(docs, err)
	}
	sameJSON(t, string(docs[0].Value), `{"timestampMillis":1767323045000,"runId":"1767323045000","assertionUrn":"`+as+`","asserteeUrn":"`+ds+`",
		"status":"COMPLETE","result":{"type":"FAILURE","severity":"HIGH","nativeResults":{"rows":"3"}}}`)
	if err := c.DeleteAssertion(ctx, as); err != nil {
		t.Fatal(err)
	}
	_, err = c.LinkAssetVersion(ctx, "urn:li:versionSet:(v,dataset)", ds, gms.VersionInput{Version: "1"}, gms.DefaultActor)
	refused(t, err, gms.Internal, "")
}
