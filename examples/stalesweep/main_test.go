package main

import (
	"bytes"
	"testing"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", []string{"users", "orders"}, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := "soft-deleted urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,sessions_v1)\n2 tables of this job remain\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
