package main

import (
	"bytes"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
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

// TestRunAgainstFreshServer runs the example with -server against a server
// that has nothing yet: without -sample it says it lists what the server
// has (nothing); with -sample it writes the sample tables there first.
func TestRunAgainstFreshServer(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	var out bytes.Buffer
	if err := list(t.Context(), s.URL(), "", "feast", false, &out); err != nil {
		t.Fatalf("list: %v\noutput:\n%s", err, out.String())
	}
	want := "(what " + s.URL() + " has; -sample writes the example's sample tables first)\nfeature tables on feast:\n"
	if out.String() != want {
		t.Errorf("without -sample, output:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	if err := list(t.Context(), s.URL(), "", "tecton", true, &out); err != nil {
		t.Fatalf("list: %v\noutput:\n%s", err, out.String())
	}
	want = `feature tables on tecton:
sessions (urn:li:mlFeatureTable:(urn:li:dataPlatform:tecton,sessions))
  length
`
	if out.String() != want {
		t.Errorf("with -sample, output:\n%s\nwant:\n%s", out.String(), want)
	}
}
