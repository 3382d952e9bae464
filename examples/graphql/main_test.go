package main

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := `feature table users on feast: User features
  feature age (CONTINUOUS): Age in years
model churn is in group churn-runs
refused (400 BAD_REQUEST): Failed to update urn:li:dataset:(urn:li:dataPlatform:hive,analytics.users,PROD) & field no_such_column. Field no_such_column does not exist in the datasets schema.
dataset analytics.users columns:
  user_id STRING: 
  age NUMBER: Age in **years**, from the sign-up form.
`
	if d := cmp.Diff(want, out.String()); d != "" {
		t.Errorf("output (-want +got):\n%s", d)
	}
}
