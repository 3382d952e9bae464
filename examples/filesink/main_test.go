package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
)

func TestWriteAndReplay(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	path := filepath.Join(t.TempDir(), "catalog.json")
	var out bytes.Buffer
	if err := run(t.Context(), path, s.URL(), "", &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var records []map[string]any
	if err := json.Unmarshal(data, &records); err != nil {
		t.Fatalf("file is not a JSON array: %v", err)
	}
	if len(records) != 4 {
		t.Fatalf("file holds %d records, want 4", len(records))
	}
	s.CheckAspect(t, "urn:li:mlModel:(urn:li:dataPlatform:mlflow,fraud-detector-v2,PROD)", aspects.MLModelProperties{
		Description: aspects.Ptr("Training run 2."),
		Version:     &aspects.VersionTag{VersionTag: aspects.Ptr("2")},
		Groups:      []string{"urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,fraud-detector,PROD)"},
	})
	s.CheckAspect(t, "urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,fraud-detector,PROD)",
		aspects.MLModelGroupProperties{Description: aspects.Ptr("Every training run of the fraud detector.")})
}
