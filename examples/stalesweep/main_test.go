package main

import (
	"bytes"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
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

// TestRunAgainstFreshServer runs the example with -server against a server
// that has nothing yet: without -sample it says it sweeps what the server
// has (nothing); with -sample it writes the sample tables there first.
func TestRunAgainstFreshServer(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	var out bytes.Buffer
	if err := sweep(t.Context(), s.URL(), "", []string{"users", "orders"}, false, &out); err != nil {
		t.Fatalf("sweep: %v\noutput:\n%s", err, out.String())
	}
	want := "(what " + s.URL() + " has; -sample writes the example's sample tables first)\n0 tables of this job remain\n"
	if out.String() != want {
		t.Errorf("without -sample, output:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := sweep(t.Context(), s.URL(), "", []string{"users", "orders"}, true, &out); err != nil {
		t.Fatalf("sweep: %v\noutput:\n%s", err, out.String())
	}
	want = "soft-deleted urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,sessions_v1)\n2 tables of this job remain\n"
	if out.String() != want {
		t.Errorf("with -sample, output:\n%s\nwant:\n%s", out.String(), want)
	}
}
