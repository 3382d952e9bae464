package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/client"
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
			if err := run(t.Context(), "", "", tc.strategies, &out); err != nil {
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
