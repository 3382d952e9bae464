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
	for _, want := range []string{
		"wrote 7 aspects",
		`{"version":0,"aspect":{"com.linkedin.ml.metadata.MLFeatureTableProperties":{"customProperties":{},"description":"Features keyed by user.","mlFeatures":["urn:li:mlFeature:(user_features,login_count_7d)","urn:li:mlFeature:(user_features,country)"]}}}`,
		`"groups":["urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-model,PROD)"]`,
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %s\noutput:\n%s", want, out.String())
		}
	}
}
