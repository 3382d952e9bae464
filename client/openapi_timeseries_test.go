package client

import (
	"encoding/json"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestGetEntityOpenAPITimeseries checks that GetEntity over OpenAPI v3
// answers an entity's latest timeseries aspects, as GMS's OpenAPI reads
// do (Rest.li's entitiesV2 answers versioned aspects only).
func TestGetEntityOpenAPITimeseries(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.profiled,PROD)")
	for _, p := range []string{`{"timestampMillis":1700000000000,"rowCount":5}`, `{"timestampMillis":1700000001000,"rowCount":6}`} {
		if err := s.PutAspectJSON(u.String(), "datasetProfile", json.RawMessage(p)); err != nil {
			t.Fatal(err)
		}
	}
	for _, ep := range []datahub.Endpoint{datahub.EndpointOpenAPI, datahub.EndpointRestli} {
		c, err := New(s.URL(), datahub.WithEndpoint(ep))
		if err != nil {
			t.Fatal(err)
		}
		for _, names := range [][]string{nil, {"datasetProfile"}} {
			e, err := c.GetEntity(t.Context(), u, names...)
			if err != nil {
				t.Fatalf("%v GetEntity(%v): %v", ep, names, err)
			}
			a, ok := e.Aspects["datasetProfile"]
			if ep == datahub.EndpointRestli {
				if ok {
					t.Errorf("Rest.li GetEntity(%v) answered the timeseries aspect %s", names, a.Value)
				}
				continue
			}
			if want := `{"timestampMillis":1700000001000,"rowCount":6}`; !ok || a.Type != "TIMESERIES" || string(a.Value) != want {
				t.Errorf("OpenAPI GetEntity(%v): datasetProfile = %+v (present %t), want TIMESERIES %s", names, a, ok, want)
			}
		}
	}
}
