package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", defaultModel, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := `what feeds urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD):
  1 hop(s): urn:li:dataProcessInstance:churn-training-2026-11-25
    via urn:li:dataProcessInstance:churn-training-2026-11-25
  1 hop(s): urn:li:mlFeature:(user_activity,logins_7d)
    via urn:li:mlFeature:(user_activity,logins_7d)
  1 hop(s): urn:li:mlFeature:(user_activity,plan)
    via urn:li:mlFeature:(user_activity,plan)
  2 hop(s): urn:li:dataset:(urn:li:dataPlatform:hive,events.clean,PROD)
    via urn:li:mlFeature:(user_activity,logins_7d) → urn:li:dataset:(urn:li:dataPlatform:hive,events.clean,PROD)
  3 hop(s): urn:li:dataset:(urn:li:dataPlatform:s3,events/raw,PROD)
    via urn:li:mlFeature:(user_activity,logins_7d) → urn:li:dataset:(urn:li:dataPlatform:hive,events.clean,PROD) → urn:li:dataset:(urn:li:dataPlatform:s3,events/raw,PROD)
`
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}

// TestRunAgainstFreshServer runs the example with -server against a server
// that has nothing yet: it records its sample lineage there and finds it.
func TestRunAgainstFreshServer(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	var out bytes.Buffer
	if err := run(t.Context(), s.URL(), "", defaultModel, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	for _, want := range []string{
		"recorded the sample lineage in " + s.URL() + "\n",
		"  3 hop(s): urn:li:dataset:(urn:li:dataPlatform:s3,events/raw,PROD)\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}

	// Another model: nothing written, nothing found.
	out.Reset()
	other := "urn:li:mlModel:(urn:li:dataPlatform:mlflow,other,PROD)"
	if err := run(t.Context(), s.URL(), "", other, &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	if want := "what feeds " + other + ":\n"; out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
}
