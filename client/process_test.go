package client

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// Environment of a child process of TestAddFeatureToTableProcesses: the
// test binary re-executed to add features from another process.
const (
	envChildServer = "DATAHUB_CLIENT_TEST_CHILD_SERVER"
	envChildTable  = "DATAHUB_CLIENT_TEST_CHILD_TABLE"
	envChildFirst  = "DATAHUB_CLIENT_TEST_CHILD_FIRST"
	envChildCount  = "DATAHUB_CLIENT_TEST_CHILD_COUNT"
)

func TestMain(m *testing.M) {
	if server := os.Getenv(envChildServer); server != "" {
		if err := runChild(server); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runChild adds features f<first>..f<first+count-1> to the table, one
// goroutine each, through one client.
func runChild(server string) error {
	table, err := urn.ParseMLFeatureTable(os.Getenv(envChildTable))
	if err != nil {
		return err
	}
	first, err1 := strconv.Atoi(os.Getenv(envChildFirst))
	count, err2 := strconv.Atoi(os.Getenv(envChildCount))
	if err1 != nil || err2 != nil {
		return fmt.Errorf("child: bad range %q %q", os.Getenv(envChildFirst), os.Getenv(envChildCount))
	}
	c, err := New(server)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	errs := make([]error, count)
	var wg sync.WaitGroup
	for i := range count {
		wg.Go(func() {
			f, err := urn.NewMLFeature("procs", fmt.Sprintf("f%02d", first+i))
			if err == nil {
				err = c.AddFeatureToTable(ctx, table, f)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("child: feature %d: %w", first+i, err)
		}
	}
	return nil
}

func TestAddFeatureToTableProcesses(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	table := tableURN(t, "procs")
	putTable(t, s, table)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const procs, each = 4, 16
	cmds := make([]*exec.Cmd, procs)
	outs := make([]bytes.Buffer, procs)
	for p := range procs {
		cmd := exec.CommandContext(t.Context(), exe, "-test.run=^$")
		cmd.Env = append(os.Environ(),
			envChildServer+"="+s.URL(), envChildTable+"="+table.String(),
			envChildFirst+"="+strconv.Itoa(p*each), envChildCount+"="+strconv.Itoa(each))
		cmd.Stdout, cmd.Stderr = &outs[p], &outs[p]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[p] = cmd
	}
	for p, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("process %d: %v\n%s", p, err, outs[p].String())
		}
	}
	got := slices.Sorted(slices.Values(mustGetTable(t, s, table).MLFeatures))
	if diff := cmp.Diff(featureNames(procs*each, "procs"), got); diff != "" {
		t.Errorf("features (-want +got):\n%s", diff)
	}
}

// BenchmarkAddFeatureToTableContended measures the time for 64 goroutines,
// each adding a distinct feature to the same table through one client
// with the default conflict policy, to all finish (conflicts retried).
func BenchmarkAddFeatureToTableContended(b *testing.B) {
	benchContended(b, Conditional)
}

// BenchmarkAddFeatureToTableContendedPatch is BenchmarkAddFeatureToTableContended
// with the patch strategy: one existence check and one PATCH per add.
func BenchmarkAddFeatureToTableContendedPatch(b *testing.B) {
	benchContended(b, Patch)
}

// benchContended runs the 64-way contended benchmark with strategy and
// reports writes/add (ingest requests per feature added) and reads/add
// (GET requests per feature added) beside the time for all 64.
func benchContended(b *testing.B, strategy WriteStrategy) {
	s := mockserver.Start(b)
	c := newTestClient(b, s, WithWriteStrategy(strategy))
	const writers = 64
	features := make([]urn.MLFeature, writers)
	for i := range features {
		features[i] = featureURN(b, "bench", fmt.Sprintf("f%02d", i))
	}
	ctx := context.Background()
	n := 0
	for b.Loop() {
		b.StopTimer()
		table := tableURN(b, fmt.Sprintf("bench%d", n))
		n++
		putTable(b, s, table)
		b.StartTimer()
		var wg sync.WaitGroup
		for _, f := range features {
			wg.Go(func() {
				if err := c.AddFeatureToTable(ctx, table, f); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
	}
	adds := float64(n * writers)
	b.ReportMetric(float64(s.RequestCount(mockserver.OpIngestProposal))/adds, "writes/add")
	b.ReportMetric(float64(s.RequestCount(mockserver.OpGetAspect)+s.RequestCount(mockserver.OpGetEntity))/adds, "reads/add")
}
