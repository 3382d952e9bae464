package main

import (
	"net/http"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBinarySeedPatch: -seed replays a file-sink file mixing UPSERT and
// PATCH proposals; the merged aspects are served (those without time
// stamps compared here; the mockserver package compares them all with a
// fixed clock).
func TestBinarySeedPatch(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	seed := filepath.Join("..", "..", "internal", "patch", "testdata", "connector_mix.json")
	p := startBinary(t, bin, "-addr", "127.0.0.1:0", "-seed", seed)
	u := "urn:li:dataset:(urn:li:dataPlatform:glue,sales.orders,PROD)"
	for aspect, want := range map[string]string{
		"globalTags":        `{"version":0,"aspect":{"com.linkedin.common.GlobalTags":{"tags":[{"tag":"urn:li:tag:pii"},{"tag":"urn:li:tag:gold"}]}}}`,
		"datasetProperties": `{"version":0,"aspect":{"com.linkedin.dataset.DatasetProperties":{"customProperties":{"Location":"s3://bucket/orders","classification":"parquet"},"name":"orders","qualifiedName":"sales.orders","tags":[],"description":"One row per order."}}}`,
	} {
		status, body := request(t, http.MethodGet, p.url+"/aspects/"+pathEscape(u)+"?aspect="+aspect+"&version=0", "")
		if diff := cmp.Diff(want, body); status != 200 || diff != "" {
			t.Errorf("%s: %d (-want +got):\n%s", aspect, status, diff)
		}
	}
}
