package gms_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestUpdateLineageDataJob checks the data job side of UpdateLineage: a
// dataset downstream of a job gets nothing (DataHub skips dataJob upstreams
// of a dataset) and the job gets the dataset as an output edge; a job
// downstream of a dataset gets an input edge; a chart with no chartInfo is
// refused.
func TestUpdateLineageDataJob(t *testing.T) {
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	job := "urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)"
	chart := "urn:li:chart:(looker,c)"
	for _, u := range []string{job, chart} {
		if err := c.Put(ctx, u, "status", json.RawMessage(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Put(ctx, ds, "status", json.RawMessage(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.UpdateLineage(ctx, []gms.LineageEdge{{Downstream: ds, Upstream: job}, {Downstream: job, Upstream: ds}}, nil); err != nil {
		t.Fatal(err)
	}
	v, err := c.GetAspect(ctx, job, "dataJobInputOutput", 0)
	if err != nil {
		t.Fatal(err)
	}
	var io struct {
		InputDatasets      []string                          `json:"inputDatasets"`
		OutputDatasets     []string                          `json:"outputDatasets"`
		InputDatasetEdges  []struct{ DestinationUrn string } `json:"inputDatasetEdges"`
		OutputDatasetEdges []struct{ DestinationUrn string } `json:"outputDatasetEdges"`
	}
	if err := json.Unmarshal(v.Value, &io); err != nil || len(io.InputDatasetEdges) != 1 || io.InputDatasetEdges[0].DestinationUrn != ds ||
		len(io.OutputDatasetEdges) != 1 || io.OutputDatasetEdges[0].DestinationUrn != ds || io.InputDatasets == nil {
		t.Errorf("dataJobInputOutput = %s (%v)", v.Value, err)
	}
	v, err = c.GetAspect(ctx, ds, "upstreamLineage", 0)
	if err != nil {
		t.Fatal(err)
	}
	if string(v.Value) != `{"upstreams":[]}` {
		t.Errorf("dataset upstreamLineage = %s, want no dataJob upstream", v.Value)
	}
	err = c.UpdateLineage(ctx, []gms.LineageEdge{{Downstream: chart, Upstream: ds}}, nil)
	if kindOf(err) != gms.BadArgument {
		t.Errorf("chart without chartInfo: %v", err)
	}
	err = c.UpdateLineage(ctx, []gms.LineageEdge{{Downstream: ds, Upstream: "urn:li:dataset:(urn:li:dataPlatform:x,none,PROD)"}}, nil)
	if kindOf(err) != gms.BadArgument {
		t.Errorf("missing upstream: %v", err)
	}
}
