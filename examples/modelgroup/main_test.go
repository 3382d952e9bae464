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
		"urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn-model-v1,PROD) groups: [urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-model,PROD)]\n",
		"urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn-model-v2,PROD) groups: [urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-model,PROD)]\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q\noutput:\n%s", want, out.String())
		}
	}
}
