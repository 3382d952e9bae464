package patch_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/emitter"
)

// TestReplayConnectorFile replays testdata/connector_mix.json, a file in
// DataHub's file-sink format mixing UPSERT and PATCH proposals as DataHub's
// connectors write them (Glue's datasetProperties patch, bare patches in
// the inline {"json": [...]} form and in the wire {"value": "..."} form, a
// generic patch with arrayPrimaryKeys), with a map as the store, and
// compares the merged aspects with testdata/connector_mix.golden. The
// mock's -seed and HTTP replay of the same file is the lead's to wire.
func TestReplayConnectorFile(t *testing.T) {
	t.Parallel()
	ps, err := emitter.ReadFile(filepath.Join("testdata", "connector_mix.json"))
	if err != nil {
		t.Fatal(err)
	}
	store := map[string][]byte{}
	for i, p := range ps {
		key := p.URN.String() + " " + p.AspectName
		value, err := json.Marshal(p.Aspect)
		if err != nil {
			t.Fatalf("proposal %d: %v", i, err)
		}
		switch p.ChangeType {
		case emitter.Upsert:
			store[key] = value
		case emitter.Patch:
			merged, err := fixed.Apply(p.AspectName, store[key], value)
			if err != nil {
				t.Fatalf("proposal %d: %v", i, err)
			}
			store[key] = merged
		default:
			t.Fatalf("proposal %d: change type %s", i, p.ChangeType)
		}
	}
	keys := make([]string, 0, len(store))
	for k := range store {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "\n" + string(store[k]) + "\n")
	}
	checkGolden(t, "connector_mix.golden", b.String())
}
