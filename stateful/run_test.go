package stateful_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/stateful"
	"github.com/catalogkit/datahub-go/urn"
)

const pipeline = "featurestore_sync"

// table is a feature table of the test source.
type table struct{ name, description string }

// source returns n tables named t00, t01...
func source(n int) []table {
	out := make([]table, n)
	for i := range out {
		out[i] = table{fmt.Sprintf("t%02d", i), fmt.Sprintf("table %d", i)}
	}
	return out
}

func tableURN(t testing.TB, name string) urn.MLFeatureTable {
	t.Helper()
	u, err := urn.NewMLFeatureTable("feast", name)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func newClient(t testing.TB, s *mockserver.Server, opts ...client.Option) *client.Client {
	t.Helper()
	c, err := client.New(s.URL(), append([]client.Option{testshared.EndpointOption()}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// syncTables runs the job once: every table ensured, then Finish.
func syncTables(ctx context.Context, t testing.TB, c *client.Client, tables []table, opts ...stateful.Option) (stateful.Report, error) {
	t.Helper()
	r, err := stateful.Start(ctx, c, pipeline, append([]stateful.Option{stateful.WithPlatform("feast")}, opts...)...)
	if err != nil {
		return stateful.Report{}, err
	}
	for _, tb := range tables {
		e := &entity.MLFeatureTable{URN: tableURN(t, tb.name), Properties: &aspects.MLFeatureTableProperties{Description: aspects.Ptr(tb.description)}}
		if _, err := r.Ensure(ctx, e); err != nil {
			return stateful.Report{}, err
		}
	}
	return r.Finish(ctx)
}

// entityWrites counts the proposals the mock accepted for entities other
// than the checkpoint's job.
func entityWrites(s *mockserver.Server) int {
	n := 0
	for _, p := range s.Proposals() {
		if p.Err == "" && p.EntityType != "dataJob" {
			n++
		}
	}
	return n
}

// removed reports whether the mock holds table name soft-deleted.
func removed(t testing.TB, s *mockserver.Server, name string) bool {
	t.Helper()
	a, err := s.GetAspect(tableURN(t, name).String(), "status")
	if err != nil {
		return false
	}
	return a.(*aspects.Status).Removed
}

func TestSecondIdenticalRunWritesNothing(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newClient(t, s)
	src := source(20)
	rep, err := syncTables(t.Context(), t, c, src)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Written != 20 || rep.Unchanged != 0 || !rep.Committed || rep.Previous != 0 || rep.Current != 20 {
		t.Errorf("first run %+v", rep)
	}
	before := entityWrites(s)
	rep, err = syncTables(t.Context(), t, c, src)
	if err != nil {
		t.Fatal(err)
	}
	if n := entityWrites(s) - before; n != 0 {
		t.Errorf("second identical run: the mock received %d entity writes, want 0", n)
	}
	want := stateful.Report{Pipeline: pipeline, Job: "feast_stale_entity_removal", RunID: rep.RunID, Unchanged: 20, Previous: 20, Current: 20, Committed: true}
	if diff := cmp.Diff(want, rep); diff != "" {
		t.Errorf("second run report (-want +got):\n%s", diff)
	}
}

func TestTenPercentGoneAreSoftDeleted(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newClient(t, s)
	src := source(20)
	if _, err := syncTables(t.Context(), t, c, src); err != nil {
		t.Fatal(err)
	}
	gone := []string{"t03", "t11"}
	kept := slices.DeleteFunc(slices.Clone(src), func(tb table) bool { return slices.Contains(gone, tb.name) })
	rep, err := syncTables(t.Context(), t, c, kept)
	if err != nil {
		t.Fatal(err)
	}
	wantStale := []string{tableURN(t, "t03").String(), tableURN(t, "t11").String()}
	if diff := cmp.Diff(wantStale, rep.Stale); diff != "" || rep.Removed != 2 || rep.Skipped != "" || !rep.Committed {
		t.Errorf("report %+v; stale (-want +got):\n%s", rep, diff)
	}
	for _, tb := range src {
		if got, want := removed(t, s, tb.name), slices.Contains(gone, tb.name); got != want {
			t.Errorf("%s removed = %v, want %v", tb.name, got, want)
		}
	}
	// A table that comes back is brought back.
	rep, err = syncTables(t.Context(), t, c, src)
	if err != nil {
		t.Fatal(err)
	}
	if removed(t, s, "t03") || rep.Written != 2 || rep.Removed != 0 {
		t.Errorf("the tables came back: t03 removed = %v, report %+v", removed(t, s, "t03"), rep)
	}
}

func TestEightyPercentGoneRemovesNothing(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	var logs bytes.Buffer
	c := newClient(t, s)
	src := source(20)
	if _, err := syncTables(t.Context(), t, c, src); err != nil {
		t.Fatal(err)
	}
	rep, err := syncTables(t.Context(), t, c, src[:4], stateful.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Removed != 0 || rep.Committed || !strings.Contains(rep.Skipped, "80.0%") || !strings.Contains(rep.Skipped, "threshold of 75%") {
		t.Errorf("report %+v", rep)
	}
	if !strings.Contains(logs.String(), "skipping stale entity removal") || !strings.Contains(logs.String(), "80.0%") {
		t.Errorf("log does not say why:\n%s", logs.String())
	}
	for _, tb := range src {
		if removed(t, s, tb.name) {
			t.Errorf("%s removed", tb.name)
		}
	}
	// The checkpoint was not committed: a good run later removes the
	// tables gone since the last committed one.
	prev, err := stateful.ReadCheckpoint(t.Context(), c, pipeline, "feast_stale_entity_removal")
	if err != nil || prev == nil || len(prev.URNs) != 20 {
		t.Fatalf("checkpoint after the skipped run: %+v, %v; want the first run's 20 URNs", prev, err)
	}
	// A higher threshold lets it through.
	rep, err = syncTables(t.Context(), t, c, src[:4], stateful.WithFailSafeThreshold(90))
	if err != nil || rep.Removed != 16 || !rep.Committed {
		t.Errorf("threshold 90: %+v, %v", rep, err)
	}
}

func TestFailSafes(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newClient(t, s)
	src := source(10)
	if _, err := syncTables(t.Context(), t, c, src); err != nil {
		t.Fatal(err)
	}
	// A run with a failure removes nothing.
	r, err := stateful.Start(t.Context(), c, pipeline, stateful.WithPlatform("feast"))
	if err != nil {
		t.Fatal(err)
	}
	r.Track(tableURN(t, "t00"))
	r.Fail(errors.New("feast: listing tables: 503"))
	rep, err := r.Finish(t.Context())
	if err != nil || rep.Removed != 0 || rep.Committed || !strings.Contains(rep.Skipped, "1 failures (first: feast: listing tables: 503)") {
		t.Errorf("failed run: %+v, %v", rep, err)
	}
	// An empty run removes nothing.
	rep, err = syncTables(t.Context(), t, c, nil)
	if err != nil || rep.Removed != 0 || rep.Committed || !strings.Contains(rep.Skipped, "no entities") {
		t.Errorf("empty run: %+v, %v", rep, err)
	}
	// A dry run says what it would remove and removes nothing.
	rep, err = syncTables(t.Context(), t, c, src[1:], stateful.WithDryRun(true))
	if err != nil || rep.Removed != 1 || rep.Committed || !rep.DryRun || len(rep.Stale) != 1 || removed(t, s, "t00") {
		t.Errorf("dry run: %+v, %v", rep, err)
	}
	if _, err := r.Finish(t.Context()); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("second Finish: %v", err)
	}
	for _, tb := range src {
		if removed(t, s, tb.name) {
			t.Errorf("%s removed", tb.name)
		}
	}
}

// TestGoldenCheckpointRead: a run starts from a checkpoint DataHub's
// Python framework committed (the base85-bz2-json golden of its lookml
// test), written to the mock where DataHub's state provider writes it.
func TestGoldenCheckpointRead(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newClient(t, s)
	b, err := os.ReadFile("testdata/lookml_golden_test_state.json")
	if err != nil {
		t.Fatal(err)
	}
	var mcps []struct {
		EntityURN string `json:"entityUrn"`
		Aspect    struct {
			JSON aspects.DatahubIngestionCheckpoint `json:"json"`
		} `json:"aspect"`
	}
	if err := json.Unmarshal(b, &mcps); err != nil {
		t.Fatal(err)
	}
	// The golden was committed by DataHub's file state provider (dataFlow
	// orchestrator "file"); the DataHub provider commits the same aspect
	// under orchestrator "datahub".
	if want := "urn:li:dataJob:(urn:li:dataFlow:(file,lookml_stateful,prod),lookml_stale_entity_removal)"; mcps[0].EntityURN != want {
		t.Fatalf("golden on %s", mcps[0].EntityURN)
	}
	job, err := stateful.JobURN("lookml_stateful", stateful.JobName("lookml", ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.WriteTimeseries(t.Context(), job, mcps[0].Aspect.JSON); err != nil {
		t.Fatal(err)
	}
	r, err := stateful.Start(t.Context(), c, "lookml_stateful", stateful.WithPlatform("lookml"))
	if err != nil {
		t.Fatal(err)
	}
	prev := r.Previous()
	if prev == nil || len(prev.URNs) != 14 || prev.RunID != "lookml-test" || prev.URNs[0] != "urn:li:container:78f22c19304954b15e8adb1d9809975e" {
		t.Errorf("previous checkpoint %+v", prev)
	}
}

// pythonDecode decodes a checkpoint aspect as DataHub's Python framework
// does (Checkpoint.create_from_checkpoint_aspect), written here from its
// rules alone: the payload is Pegasus bytes (a character per byte); serde
// utf-8 is json.loads of those bytes as UTF-8; the state is an object
// whose "urns" is a list of strings.
func pythonDecode(t *testing.T, aspect []byte) (pipelineName string, urns []string) {
	t.Helper()
	var a map[string]any
	if err := json.Unmarshal(aspect, &a); err != nil {
		t.Fatal(err)
	}
	st, _ := a["state"].(map[string]any)
	if st["formatVersion"] != "1.0" {
		t.Fatalf("formatVersion %v", st["formatVersion"])
	}
	if st["serde"] != "utf-8" {
		t.Fatalf("serde %v: this decoder reads utf-8", st["serde"])
	}
	var raw []byte
	for _, r := range st["payload"].(string) {
		if r > 0xff {
			t.Fatalf("payload character %U is not a byte", r)
		}
		raw = append(raw, byte(r))
	}
	var state map[string]any
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatalf("json.loads(payload): %v", err)
	}
	for _, u := range state["urns"].([]any) {
		urns = append(urns, u.(string))
	}
	for _, k := range []string{"timestampMillis", "pipelineName", "platformInstanceId", "config", "runId"} {
		if _, ok := a[k]; !ok {
			t.Errorf("checkpoint without %s", k)
		}
	}
	return a["pipelineName"].(string), urns
}

func TestCheckpointDecodesByPythonRules(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newClient(t, s)
	src := source(3)
	if _, err := syncTables(t.Context(), t, c, src); err != nil {
		t.Fatal(err)
	}
	var got []mockserver.Proposal
	for _, p := range s.Proposals() {
		if p.AspectName == "datahubIngestionCheckpoint" {
			got = append(got, p)
		}
	}
	if len(got) != 1 {
		t.Fatalf("%d checkpoint proposals, want 1", len(got))
	}
	if want := "urn:li:dataJob:(urn:li:dataFlow:(datahub,featurestore_sync,prod),feast_stale_entity_removal)"; got[0].EntityURN != want {
		t.Errorf("checkpoint on %s, want %s", got[0].EntityURN, want)
	}
	name, urns := pythonDecode(t, got[0].Aspect)
	want := []string{tableURN(t, "t00").String(), tableURN(t, "t01").String(), tableURN(t, "t02").String()}
	if diff := cmp.Diff(want, urns); diff != "" || name != pipeline {
		t.Errorf("pipeline %q; urns (-want +got):\n%s", name, diff)
	}
	// The job's entity is hidden from search, as DataHub hides it.
	a, err := s.GetAspect(got[0].EntityURN, "status")
	if err != nil || !a.(*aspects.Status).Removed {
		t.Errorf("job status %v, %v", a, err)
	}
}

// cancelAfter is a transport that cancels the run's context at its n-th
// request, before sending it: the job dies there, whatever it was doing.
type cancelAfter struct {
	n      int64
	count  atomic.Int64
	cancel context.CancelFunc
	next   http.RoundTripper
}

func (c *cancelAfter) RoundTrip(r *http.Request) (*http.Response, error) {
	if c.count.Add(1) == c.n {
		c.cancel()
	}
	return c.next.RoundTrip(r)
}

// storeOf returns what the mock holds of the tables and the checkpoint's
// URNs.
func storeOf(t *testing.T, s *mockserver.Server, c *client.Client, src []table) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, tb := range src {
		u := tableURN(t, tb.name).String()
		for _, name := range []string{"mlFeatureTableProperties", "status"} {
			raw, err := s.GetAspectJSON(u, name, 0)
			if err != nil {
				out[u+" "+name] = "missing"
				continue
			}
			out[u+" "+name] = string(raw)
		}
	}
	cp, err := stateful.ReadCheckpoint(t.Context(), c, pipeline, "feast_stale_entity_removal")
	if err != nil {
		t.Fatal(err)
	}
	out["checkpoint"] = strings.Join(cp.URNs, " ")
	return out
}

// TestKilledRunConverges: a run killed at a random request (its context
// cancelled there) and run again leaves the store as an uninterrupted run
// does.
func TestKilledRunConverges(t *testing.T) {
	t.Parallel()
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rnd := rand.New(rand.NewPCG(seed, 0))
	all := source(20)
	next := slices.Clone(all[2:]) // two tables gone, one changed, one new
	next[0].description = "changed"
	next = append(next, table{"t99", "new"})

	want := func() map[string]string {
		s := mockserver.Start(t)
		c := newClient(t, s)
		for _, src := range [][]table{all, next} {
			if _, err := syncTables(t.Context(), t, c, src); err != nil {
				t.Fatal(err)
			}
		}
		return storeOf(t, s, c, append(slices.Clone(all), next...))
	}()
	for range 3 {
		s := mockserver.Start(t)
		c := newClient(t, s)
		if _, err := syncTables(t.Context(), t, c, all); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		ca := &cancelAfter{n: 1 + rnd.Int64N(60), cancel: cancel, next: http.DefaultTransport}
		killed := newClient(t, s, datahub.WithHTTPClient(&http.Client{Transport: ca}))
		_, err := syncTables(ctx, t, killed, next)
		cancel()
		if err == nil && ca.count.Load() >= ca.n {
			t.Fatalf("run cancelled at request %d finished without error", ca.n)
		}
		if _, err := syncTables(t.Context(), t, c, next); err != nil {
			t.Fatalf("rerun after the run killed at request %d: %v", ca.n, err)
		}
		got := storeOf(t, s, c, append(slices.Clone(all), next...))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("killed at request %d, rerun: store (-uninterrupted +got):\n%s", ca.n, diff)
		}
	}
}
