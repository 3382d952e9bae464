package main

import (
	"bytes"
	"testing"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", "feast", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := `feature tables on feast:
orders (urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,orders))
  total_30d
users (urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users))
  age
  country
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
