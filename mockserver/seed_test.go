package mockserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLoadFile(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	f, err := os.Open(filepath.Join("testdata", "file_sink.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, err := s.LoadFile(f)
	if err != nil || n != 3 {
		t.Fatalf("LoadFile = %d, %v", n, err)
	}
	for _, tt := range []struct{ path, aspect, want string }{
		{dsPath, "datasetProperties", `{"customProperties":{"owner":"caf\u00e9"},"name":"t","description":"Orders, daily.","tags":[]}`},
		{dsPath, "subTypes", `{"typeNames":["Table"]}`},
		{"urn%3Ali%3AmlFeature%3A%28ns%2Cf%29", "status", `{"removed":false}`},
	} {
		got, status := aspectJSON(t, s, tt.path, tt.aspect, 0)
		if diff := cmp.Diff(tt.want, got); status != 200 || diff != "" {
			t.Errorf("%s: %d (-want +got):\n%s", tt.aspect, status, diff)
		}
	}
	if len(s.Proposals()) != 0 {
		t.Error("loaded proposals recorded as received")
	}
}

func TestLoadFileErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, file, msg string }{
		{"not an array", `{}`, "load: not a JSON array of proposals: expected a JSON array, found an object"},
		{"not JSON", `[{]`, "load: not a JSON array of proposals: invalid JSON at byte 3"},
		{"legacy MCE", `[{"proposedSnapshot": {}}]`, "[0] a MetadataChangeEvent (proposedSnapshot) is not supported"},
		{"bad items named", `[` + mustJSON(t, mcp("dataset", dsURN, "UPSERT", "status", `{"removed": false}`)) + `,` +
			`{"entityType": "dataset", "entityUrn": "` + dsURN + `", "changeType": "UPSERT", "aspectName": "foo", "aspect": {"json": {}}}]`,
			"[1] Unknown aspect foo for entity dataset"},
		{"shape errors", `[{"entityUrn": "x"}]`, "[0] ERROR :: /0/entityType :: field is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			n, err := s.LoadFile(strings.NewReader(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.msg) || strings.Contains(err.Error(), "Go value") {
				t.Errorf("LoadFile = %d, %v; want an error containing %q (without Go's type names)", n, err, tt.msg)
			}
			if got := storeRows(t, s); len(got) != 0 {
				t.Errorf("state changed: %v", got)
			}
		})
	}
}
