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
		"dataset urn:li:dataset:(urn:li:dataPlatform:hive,analytics.user_events,PROD): One row per user event.\n" +
			"  column user_id string: Who.\n  column country string: \n  column ts bigint: \n",
		"feature table urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features): Features keyed by user.\n" +
			"  features [urn:li:mlFeature:(user_features,login_count_7d) urn:li:mlFeature:(user_features,country)]\n",
		"  groups [urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-model,PROD)]\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %s\noutput:\n%s", want, out.String())
		}
	}
}
