package gms_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
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

// TestUpdateLineageChecks: every URN of every edge is checked before any
// existence (a malformed URN of a later edge is refused as malformed, not
// as missing), and an edge both added and removed is removed.
func TestUpdateLineageChecks(t *testing.T) {
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	up := "urn:li:dataset:(urn:li:dataPlatform:hive,db.up,PROD)"
	ghost := "urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)"
	for _, u := range []string{ds, up} {
		if err := c.Put(ctx, u, "status", json.RawMessage(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	err := c.UpdateLineage(ctx, []gms.LineageEdge{{Downstream: ghost, Upstream: up}}, []gms.LineageEdge{{Downstream: ds, Upstream: "urn:li:dataset:(x"}})
	if e := gms.AsError(err); e == nil || e.Kind != gms.BadArgument || !strings.HasPrefix(e.Message, "Invalid urn: urn:li:dataset:(x") {
		t.Errorf("malformed URN after a missing one = %v, want the malformed URN refused first", err)
	}
	err = c.UpdateLineage(ctx, []gms.LineageEdge{{Downstream: ghost, Upstream: up}}, nil)
	if e := gms.AsError(err); e == nil || e.Kind != gms.BadArgument || e.Message != "Cannot upsert lineage as downstream urn "+ghost+" doesn't exist" {
		t.Errorf("missing downstream = %v", err)
	}
	edge := []gms.LineageEdge{{Downstream: ds, Upstream: up}}
	if err := c.UpdateLineage(ctx, edge, edge); err != nil {
		t.Fatal(err)
	}
	v, err := c.GetAspect(ctx, ds, "upstreamLineage", 0)
	if err != nil || string(v.Value) != `{"upstreams":[]}` {
		t.Errorf("upstreamLineage = %s, %v; want the edge removed (removal wins)", v.Value, err)
	}
	if err := c.UpdateLineage(ctx, edge, nil); err != nil {
		t.Fatal(err)
	}
	v, err = c.GetAspect(ctx, ds, "upstreamLineage", 0)
	var ul struct {
		Upstreams []struct {
			Dataset, Type string
			Properties    map[string]string
		}
	}
	if err != nil || json.Unmarshal(v.Value, &ul) != nil || len(ul.Upstreams) != 1 || ul.Upstreams[0].Dataset != up ||
		ul.Upstreams[0].Type != "TRANSFORMED" || ul.Upstreams[0].Properties["source"] != "UI" {
		t.Errorf("upstreamLineage = %s, %v; want the UI's TRANSFORMED upstream", v.Value, err)
	}
	if !strings.Contains(string(v.SystemMetadata), `"appSource":"ui"`) {
		t.Errorf("systemMetadata = %s, want the UI's", v.SystemMetadata)
	}
}

// TestUpdateLineageDeletedBeforeWrite deletes the downstream after
// updateLineage checked that it exists and before its write is applied (at
// the write's own barrier, the last of the call): the write must refuse it,
// not bring the entity back with its upstream.
func TestUpdateLineageDeletedBeforeWrite(t *testing.T) {
	st := store.OpenMemory(nil)
	calls, deleteAt := 0, -1
	c := gms.New(st, gms.Options{Follow: func() {
		calls++
		if calls == deleteAt {
			if _, _, err := st.DeleteEntity(ds); err != nil {
				t.Error(err)
			}
		}
	}})
	t.Cleanup(func() { _ = c.Close(); _ = st.Close() })
	ctx := t.Context()
	up := "urn:li:dataset:(urn:li:dataPlatform:hive,db.up,PROD)"
	for _, u := range []string{ds, up} {
		if err := c.Put(ctx, u, "status", json.RawMessage(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	edge := []gms.LineageEdge{{Downstream: ds, Upstream: up}}
	calls = 0
	if err := c.UpdateLineage(ctx, edge, nil); err != nil { // counts the barriers of one update
		t.Fatal(err)
	}
	deleteAt, calls = calls, 0
	err := c.UpdateLineage(ctx, edge, nil)
	if e := gms.AsError(err); e == nil || e.Kind != gms.BadArgument ||
		e.Message != "Failed to update lineage for urn "+ds+". Cannot upsert lineage as downstream urn "+ds+" doesn't exist" {
		t.Errorf("UpdateLineage of a downstream deleted before the write = %v", err)
	}
	if ok, err := c.Exists(ctx, ds); err != nil || ok {
		t.Errorf("Exists = %v, %v: the write brought the deleted entity back", ok, err)
	}
}
