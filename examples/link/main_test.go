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
		"links of urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features):\n" +
			"  https://wiki.example.com/user-features (Design doc), added by urn:li:corpuser:datahub\n" +
			"  https://dashboards.example.com/feature-freshness (Freshness dashboard), added by urn:li:corpuser:datahub\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q\noutput:\n%s", want, out.String())
		}
	}
}
