package mockserver_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/google/go-cmp/cmp"
)

// connectorMix is DataHub's file-sink file mixing UPSERT and PATCH
// proposals (the patch package's replay input) and its golden merged
// aspects, written by the patch package's own replay.
var (
	connectorMix       = filepath.Join("internal", "patch", "testdata", "connector_mix.json")
	connectorMixGolden = filepath.Join("internal", "patch", "testdata", "connector_mix.golden")
)

// readMergedGolden reads the golden file: lines "<urn> <aspect>" and the
// aspect's JSON, in turn.
func readMergedGolden(t *testing.T) map[string]any {
	t.Helper()
	f, err := os.Open(connectorMixGolden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]any{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		key := sc.Text()
		if !sc.Scan() {
			t.Fatalf("%s: no value after %q", connectorMixGolden, key)
		}
		out[key] = decodeJSON(t, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPatchReplayConnectorFile replays the file through the mock's seed
// loader (what datahub-mock -seed runs) and over HTTP through the emitter
// (emitter.ReadFile, then one Emit), and reads every merged aspect the
// golden file names back from the mock.
func TestPatchReplayConnectorFile(t *testing.T) {
	t.Parallel()
	want := readMergedGolden(t)
	if len(want) == 0 {
		t.Fatal("empty golden file")
	}
	load := map[string]func(*testing.T, *mockserver.Server, *emitter.REST){
		"seed": func(t *testing.T, s *mockserver.Server, _ *emitter.REST) {
			f, err := os.Open(connectorMix)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if n, err := s.LoadFile(f); err != nil || n != 9 {
				t.Fatalf("LoadFile = %d, %v; want 9 proposals", n, err)
			}
		},
		"http": func(t *testing.T, _ *mockserver.Server, rest *emitter.REST) {
			ps, err := emitter.ReadFile(connectorMix)
			if err != nil {
				t.Fatal(err)
			}
			var patches int
			for _, p := range ps {
				if p.ChangeType == emitter.Patch {
					patches++
				}
			}
			if patches == 0 || patches == len(ps) {
				t.Fatalf("%d of %d proposals are PATCH, want a mix", patches, len(ps))
			}
			if err := rest.Emit(context.Background(), ps...); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, replay := range load {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, rest := startPatch(t)
			replay(t, s, rest)
			checkMerged(t, s, want)
		})
	}
}

// checkMerged compares every aspect want names with the mock's.
func checkMerged(t *testing.T, s *mockserver.Server, want map[string]any) {
	t.Helper()
	got := map[string]any{}
	for key := range want {
		i := strings.LastIndexByte(key, ' ')
		raw, err := s.GetAspectJSON(key[:i], key[i+1:], 0)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		v := decodeJSON(t, string(raw))
		if m, ok := v.(map[string]any); ok && strings.HasSuffix(key, " ownership") {
			// GMS's OwnershipOwnerTypes hook adds ownerTypes after the patch,
			// which the patch package's golden does not hold.
			delete(m, "ownerTypes")
		}
		got[key] = v
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged aspects (-golden +mock):\n%s", diff)
	}
}
