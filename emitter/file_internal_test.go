package emitter

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
)

// TestFileGolden pins the file-sink format: a JSON array of proposals
// indented by four spaces, aspects inline as {"json": {...}}.
func TestFileGolden(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "out.json")
	f, err := NewFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f.now = func() time.Time { return fixedNow }
	ps := []Proposal{
		mustProposal(t, featureURN, featureRaw),
		{URN: datasetURN, ChangeType: Patch, Aspect: RawAspect{Name: "globalTags", JSON: json.RawMessage(`[{"op":"add","path":"/tags/urn:li:tag:pii","value":{"tag":"urn:li:tag:pii"}}]`)}},
	}
	for _, p := range ps {
		if err := f.Emit(t.Context(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "file.golden", got)
}

// failingFile fails its failAt-th write half way, as a full disk does.
type failingFile struct {
	*os.File
	writes, failAt int
}

func (f *failingFile) Write(p []byte) (int, error) {
	f.writes++
	if f.writes == f.failAt {
		n, _ := f.File.Write(p[:len(p)/2])
		return n, errors.New("no space left on device")
	}
	return f.File.Write(p)
}

// TestFilePartialWrite checks that a write failing half way leaves, after
// Close, a valid JSON file holding the records written before.
func TestFilePartialWrite(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "out.json")
	f, err := NewFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f.f = &failingFile{File: f.f.(*os.File), failAt: 2}
	p := mustProposal(t, datasetURN, aspects.Status{})
	if err := f.Emit(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	if err := f.Emit(t.Context(), p, p); err == nil {
		t.Fatal("want the write error")
	}
	if err := f.Emit(t.Context(), p); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Errorf("Emit after a write error: %v, want the sticky error", err)
	}
	if err := f.Close(); err == nil {
		t.Error("Close: want the write error")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var records []map[string]any
	if err := json.Unmarshal(data, &records); err != nil {
		t.Fatalf("file after a failed write is not valid JSON: %v\n%s", err, data)
	}
	if len(records) != 1 {
		t.Errorf("%d records, want the 1 written before the failure", len(records))
	}
}
