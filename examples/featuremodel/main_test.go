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
		"urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn-model-v3,PROD) was trained on:\n" +
			"  urn:li:mlFeature:(user_features,age) from [urn:li:dataset:(urn:li:dataPlatform:hive,analytics.users,PROD)]\n" +
			"  urn:li:mlFeature:(user_features,country) from [urn:li:dataset:(urn:li:dataPlatform:hive,analytics.users,PROD)]\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q\noutput:\n%s", want, out.String())
		}
	}
}
