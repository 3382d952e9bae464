package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features) has 8 features:") {
		t.Errorf("output:\n%s", out.String())
	}
	for _, f := range []string{"age", "country", "churn_score"} {
		if !strings.Contains(out.String(), "urn:li:mlFeature:(user_features,"+f+")\n") {
			t.Errorf("output lacks feature %s:\n%s", f, out.String())
		}
	}
}
