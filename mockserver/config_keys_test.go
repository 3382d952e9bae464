package mockserver

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConfigHasEveryKeyOfGMS: GET /config answers every key of GMS's Config
// servlet (failed before: telemetry, managedIngestion and models were
// missing), with managedIngestion.defaultCliVersion the server version
// without its "v", and userType only with ?verbose=true.
func TestConfigHasEveryKeyOfGMS(t *testing.T) {
	t.Parallel()
	s := newServer(t, WithToken("secret"), WithServerVersion("v1.2.3"))
	r := serve(t, s, http.MethodGet, "/config", "")
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"datahub", "datasetUrnNameCasing", "managedIngestion", "models", "noCode", "patchCapable",
		"retention", "statefulIngestionCapable", "supportsImpactAnalysis", "telemetry", "timeZone", "versions"}
	if d := cmp.Diff(want, keys); d != "" {
		t.Errorf("/config keys (-want +got):\n%s", d)
	}
	if d := cmp.Diff(`{"enabled":true,"defaultCliVersion":"1.2.3"}`, string(got["managedIngestion"])); d != "" {
		t.Errorf("managedIngestion (-want +got):\n%s", d)
	}
	for _, c := range []struct {
		header []string
		want   string
	}{{nil, `"anonymous"`}, {[]string{"Authorization", "Bearer secret"}, `"user"`}} {
		r := serve(t, s, http.MethodGet, "/config?verbose=true", "", c.header...)
		var v map[string]json.RawMessage
		if err := json.Unmarshal([]byte(r.Body), &v); err != nil {
			t.Fatal(err)
		}
		if string(v["userType"]) != c.want {
			t.Errorf("verbose userType with %v = %s, want %s", c.header, v["userType"], c.want)
		}
	}
}
