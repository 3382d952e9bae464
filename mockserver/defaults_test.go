package mockserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDefaultAspectsOnCreation: a write that creates an entity also writes
// the aspects GMS's DefaultAspectsUtil adds (failed before: none), and a
// synchronous v3 batch write answers them with the key aspect; later
// writes add nothing; aspects the batch writes are not replaced;
// WithDefaultAspects(false) turns it off.
func TestDefaultAspectsOnCreation(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	r := serve(t, s, http.MethodPost, "/openapi/v3/entity/dataset?async=false",
		`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.sch.t,PROD)","status":{"value":{"removed":false}}}]`,
		"Content-Type", "application/json")
	want := `[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.sch.t,PROD)","status":{"value":{"removed":false}},` +
		`"datasetKey":{"value":{"platform":"urn:li:dataPlatform:hive","name":"db.sch.t","origin":"PROD"}},` +
		`"browsePathsV2":{"value":{"path":[{"id":"db"},{"id":"sch"}]}},` +
		`"dataPlatformInstance":{"value":{"platform":"urn:li:dataPlatform:hive"}}}]`
	if r.Status != 200 || r.Body != want {
		t.Errorf("create = %d\n%s\nwant\n%s", r.Status, r.Body, want)
	}
	r = serve(t, s, http.MethodPost, "/openapi/v3/entity/dataset?async=false",
		`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.sch.t,PROD)","status":{"value":{"removed":true}}}]`,
		"Content-Type", "application/json")
	if r.Status != 200 || strings.Contains(r.Body, "browsePathsV2") {
		t.Errorf("second write = %d %s, want no default aspects", r.Status, r.Body)
	}
	for _, c := range []struct{ urn, aspect, want string }{
		{"urn:li:dataset:(urn:li:dataPlatform:hive,db.sch.t,PROD)", "browsePathsV2", `{"path":[{"id":"db"},{"id":"sch"}]}`},
		{"urn:li:dataJob:(urn:li:dataFlow:(Airflow,etl,prod),load)", "browsePathsV2",
			`{"path":[{"id":"urn:li:dataFlow:(Airflow,etl,prod)","urn":"urn:li:dataFlow:(Airflow,etl,prod)"}]}`},
		{"urn:li:dataJob:(urn:li:dataFlow:(Airflow,etl,prod),load)", "dataPlatformInstance", `{"platform":"urn:li:dataPlatform:airflow"}`},
		{"urn:li:chart:(Looker,c1)", "browsePathsV2", `{"path":[{"id":"Default"}]}`},
		{"urn:li:chart:(Looker,c1)", "dataPlatformInstance", `{"platform":"urn:li:dataPlatform:looker"}`},
		{"urn:li:corpuser:jdoe", "status", `{"removed":false}`},
	} {
		if err := s.PutAspectJSON(c.urn, "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
		got, err := s.GetAspectJSON(c.urn, c.aspect, 0)
		if err != nil || string(got) != c.want {
			t.Errorf("%s %s = %s, %v; want %s", c.urn, c.aspect, got, err, c.want)
		}
	}
	// A corpuser has neither aspect.
	if _, err := s.GetAspectJSON("urn:li:corpuser:jdoe", "browsePathsV2", 0); err == nil {
		t.Error("corpuser got browsePathsV2")
	}
	// An aspect of the creating batch is kept as written.
	r = serve(t, s, http.MethodPost, "/openapi/v3/entity/dataset?async=false",
		`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,mine,PROD)","browsePathsV2":{"value":{"path":[{"id":"mine"}]}}}]`,
		"Content-Type", "application/json")
	if got, _ := s.GetAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,mine,PROD)", "browsePathsV2", 0); r.Status != 200 || string(got) != `{"path":[{"id":"mine"}]}` {
		t.Errorf("written browsePathsV2 = %s (%d %s)", got, r.Status, r.Body)
	}

	off := newServer(t, WithDefaultAspects(false))
	if err := off.PutAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "status", []byte(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := off.GetAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "browsePathsV2", 0); err == nil {
		t.Error("WithDefaultAspects(false) wrote browsePathsV2")
	}
}

// TestAlternateMCPValidation: by default (DataHub's quickstart,
// ALTERNATE_MCP_VALIDATION=true) a v3 batch write naming an aspect the
// entity lacks is refused with 400 "Validation Error" and writes nothing
// (failed before: 200, the member dropped); WithAlternateMCPValidation(false)
// drops the member and writes the rest.
func TestAlternateMCPValidation(t *testing.T) {
	t.Parallel()
	const body = `[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)","status":{"value":{"removed":false}},"INVALID":{"value":{}}}]`
	s := newServer(t)
	r := serve(t, s, http.MethodPost, "/openapi/v3/entity/dataset?async=false", body, "Content-Type", "application/json")
	if d := cmp.Diff(`{"error":"Validation Error","message":"Unknown aspect INVALID for entity dataset"}`, r.Body); r.Status != 400 || d != "" {
		t.Errorf("default: %d (-want +got):\n%s", r.Status, d)
	}
	if _, err := s.GetAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "status", 0); err == nil {
		t.Error("a refused write was stored")
	}
	lenient := newServer(t, WithAlternateMCPValidation(false), WithDefaultAspects(false))
	r = serve(t, lenient, http.MethodPost, "/openapi/v3/entity/dataset?async=false", body, "Content-Type", "application/json")
	if want := `[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)","status":{"value":{"removed":false}}}]`; r.Status != 200 || r.Body != want {
		t.Errorf("lenient: %d %s, want 200 %s", r.Status, r.Body, want)
	}
}
