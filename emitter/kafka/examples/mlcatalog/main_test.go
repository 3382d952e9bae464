package main

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestRun emits the catalog through a fake cluster into the mock and reads
// it back over GMS's read path.
func TestRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := run(ctx, config{}, &out); err != nil {
		t.Fatal(err)
	}
	want := `emitted 6 proposals to MetadataChangeProposal_v1
the bridge applied 6 proposals to the mock GMS
urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.customers,PROD) datasetProperties: Customers, one row per account
urn:li:mlFeature:(customer_features,tenure_days) mlFeatureProperties: Days since the account opened
urn:li:mlFeature:(customer_features,monthly_spend) mlFeatureProperties: Average spend over the last 30 days
urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,customer_features) mlFeatureTableProperties: Customer features
urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD) mlModelGroupProperties: Churn models
urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-v3,PROD) mlModelProperties: Predicts customers about to leave
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
