package index

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestRunRows checks the index's record of each latest row's run: found by
// run, moved by a rewrite under another run, dropped with the aspect or the
// entity, and read from escaped or plain systemMetadata alike.
func TestRunRows(t *testing.T) {
	t.Parallel()
	st, x, _ := newTest(t, 0)
	putRun := func(urn, aspect, value, sm string) {
		t.Helper()
		if err := st.Put(store.Aspect{URN: urn, Name: aspect, Value: json.RawMessage(value), SystemMetadata: json.RawMessage(sm)}); err != nil {
			t.Fatal(err)
		}
	}
	putRun(ds("a"), "status", `{"removed":false}`, `{"runId":"r1","lastObserved":1}`)
	putRun(ds("a"), "datasetProperties", `{"name":"a"}`, `{"lastObserved":1,"runId":"r2"}`)
	putRun(ds("b"), "status", `{"removed":false}`, `{"runId":"r\u0031"}`) // r1, escaped
	putRun(ds("c"), "status", `{"removed":false}`, `{"lastObserved":1}`)  // no runId: the default run
	check := func(id string, want ...RunRow) {
		t.Helper()
		if got := x.RunRows(id); !slices.Equal(got, want) {
			t.Errorf("RunRows(%q) = %v, want %v", id, got, want)
		}
	}
	check("r1", RunRow{ds("a"), "status"}, RunRow{ds("b"), "status"})
	check("r2", RunRow{ds("a"), "datasetProperties"})
	check("no-run-id-provided", RunRow{ds("c"), "status"})
	check("", RunRow{ds("a"), "datasetProperties"}, RunRow{ds("a"), "status"}, RunRow{ds("b"), "status"}, RunRow{ds("c"), "status"})
	putRun(ds("a"), "status", `{"removed":true}`, `{"runId":"r2"}`)
	check("r1", RunRow{ds("b"), "status"})
	check("r2", RunRow{ds("a"), "datasetProperties"}, RunRow{ds("a"), "status"})
	if _, err := st.DeleteAspect(ds("a"), "datasetProperties"); err != nil {
		t.Fatal(err)
	}
	check("r2", RunRow{ds("a"), "status"})
	if _, _, err := st.DeleteEntity(ds("a")); err != nil {
		t.Fatal(err)
	}
	check("r2")
	check("", RunRow{ds("b"), "status"}, RunRow{ds("c"), "status"})
}
