package main

import (
	"bytes"
	"testing"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	if want := "churn-classifier_3: 10 metrics, 10 deployments, 10 tags, 1 hyper-parameter\n"; out.String() != want {
		t.Errorf("output %q, want %q: a change was lost", out.String(), want)
	}
}
