package main

import (
	"bytes"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		strategies []client.WriteStrategy
	}{
		{"both", []client.WriteStrategy{client.Conditional, client.Patch}},
		{"conditional", []client.WriteStrategy{client.Conditional}},
		{"patch", []client.WriteStrategy{client.Patch}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			if err := run(t.Context(), "", "", datahub.EndpointRestli, tc.strategies, &out); err != nil {
				t.Fatalf("run: %v\noutput:\n%s", err, out.String())
			}
			if n := strings.Count(out.String(), " strategy: "); n != len(tc.strategies) {
				t.Errorf("%d strategies reported, want %d:\n%s", n, len(tc.strategies), out.String())
			}
			for _, s := range tc.strategies {
				want := s.String() + " strategy: urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features_" + s.String() + ") has 8 features:"
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
			for _, f := range []string{"age", "country", "churn_score"} {
				if n := strings.Count(out.String(), "urn:li:mlFeature:(user_features,"+f+")\n"); n != len(tc.strategies) {
					t.Errorf("feature %s listed %d times, want %d:\n%s", f, n, len(tc.strategies), out.String())
				}
			}
		})
	}
}

// TestRunOverOpenAPI runs the example with -endpoint openapi against the
// mock: every write and read goes through the OpenAPI v3 entity API.
func TestRunOverOpenAPI(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	ep, err := datahub.ParseEndpoint("openapi")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(t.Context(), s.URL(), "", ep, []client.WriteStrategy{client.Conditional, client.Patch}, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	if n := strings.Count(out.String(), " has 8 features:"); n != 2 {
		t.Errorf("output:\n%s", out.String())
	}
	counts := s.RequestCounts()
	v3 := counts[mockserver.OpV3Write] + counts[mockserver.OpV3Patch] + counts[mockserver.OpV3GetEntity] + counts[mockserver.OpV3Head]
	restli := counts[mockserver.OpIngestProposal] + counts[mockserver.OpGetAspect] + counts[mockserver.OpGetEntity]
	if v3 == 0 || restli != 0 {
		t.Errorf("requests %v: want OpenAPI only", counts)
	}
	if _, err := datahub.ParseEndpoint("soap"); err == nil {
		t.Error("ParseEndpoint(soap): no error")
	}
}
