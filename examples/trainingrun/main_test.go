package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/emitter"
)

var update = flag.Bool("update", false, "rewrite the mock's fixture from the example's proposals")

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	for _, want := range []string{
		"== run 1, written as proposals of typed aspects\nrun churn-gbt-1 (ML Training Run) in urn:li:container:",
		"  params  learning_rate=0.1 max_depth=6\n  metrics auc=0.87 log_loss=0.41\n",
		"  last event COMPLETE SUCCESS after 900 s\nexperiment churn (ML Experiment)\n",
		"model churn-classifier_1 version 1 in group [churn-classifier], 2 features, trained by urn:li:dataProcessInstance:",
		"deployed to [urn:li:mlModelDeployment:(urn:li:dataPlatform:vertexai,churn-endpoint,PROD)]\n",
		"== run 2, written as entities\nrun churn-gbt-2 (ML Training Run)",
		"  params  learning_rate=0.05 max_depth=8\n  metrics auc=0.91 log_loss=0.35\n",
		"wrote urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-classifier_2,PROD)\n  last event COMPLETE SUCCESS after 1200 s\n",
		"model churn-classifier_2 version 2 in group [churn-classifier]",
		"  feature customer_features.monthly_spend\n  source crm.customers columns [customer_id tenure_months monthly_spend]\n  GraphQL: run exists true, deployment exists true\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q\noutput:\n%s", want, out.String())
		}
	}
	if n := strings.Count(out.String(), "GraphQL: run exists true, deployment exists true"); n != 2 {
		t.Errorf("%d runs read back through GraphQL, want 2", n)
	}
}

// fixture is the first run's proposals in DataHub's file-sink format: the
// mock's replay tests load it (mockserver/trainingrun_replay_test.go).
var fixture = filepath.Join("..", "..", "mockserver", "testdata", "trainingrun_mlflow.json")

func TestProposalsAreTheMockFixture(t *testing.T) {
	t.Parallel()
	u, err := urnsOf(runs[0])
	if err != nil {
		t.Fatal(err)
	}
	ps, err := proposals(runs[0], u)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "run.json")
	f, err := emitter.NewFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Emit(t.Context(), ps...); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(fixture, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("the example's proposals differ from %s (go test -update rewrites it) (-fixture +now):\n%s", fixture, diff)
	}
}
