package mockserver_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// trainingRunFixture is an ML training run recorded as DataHub's MLflow
// and Vertex AI connectors record one (experiment container, run
// dataProcessInstance with run event, model group, model, deployment,
// features, source dataset): the proposals of examples/trainingrun, whose
// test keeps the two equal.
var trainingRunFixture = filepath.Join("testdata", "trainingrun_mlflow.json")

// TestReplayTrainingRunFixture loads the fixture as the standalone mock's
// -seed does and over HTTP through the emitter, and reads every versioned
// aspect back unchanged and the run event from the timeseries index.
func TestReplayTrainingRunFixture(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(trainingRunFixture)
	if err != nil {
		t.Fatal(err)
	}
	var records []struct {
		EntityType string `json:"entityType"`
		EntityURN  string `json:"entityUrn"`
		AspectName string `json:"aspectName"`
		Aspect     struct {
			JSON json.RawMessage `json:"json"`
		} `json:"aspect"`
	}
	if err := json.Unmarshal(data, &records); err != nil {
		t.Fatal(err)
	}
	if len(records) < 15 {
		t.Fatalf("the fixture holds %d proposals", len(records))
	}
	load := map[string]func(t *testing.T, s *mockserver.Server){
		"seed": func(t *testing.T, s *mockserver.Server) {
			f, err := os.Open(trainingRunFixture)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			n, err := s.LoadFile(f)
			if err != nil || n != len(records) {
				t.Fatalf("LoadFile: %d of %d, %v", n, len(records), err)
			}
		},
		"emitter": func(t *testing.T, s *mockserver.Server) {
			ps, err := emitter.ReadFile(trainingRunFixture)
			if err != nil {
				t.Fatal(err)
			}
			em, err := emitter.NewREST(s.URL())
			if err != nil {
				t.Fatal(err)
			}
			if err := em.Emit(t.Context(), ps...); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, fill := range load {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			fill(t, s)
			events := 0
			for _, r := range records {
				if info, _ := aspects.Lookup(r.AspectName); info.Timeseries {
					events++
					continue
				}
				got, err := s.GetAspectJSON(r.EntityURN, r.AspectName, 0)
				if err != nil {
					t.Errorf("%s of %s: %v", r.AspectName, r.EntityURN, err)
					continue
				}
				if diff := cmp.Diff(decodeJSON(t, string(r.Aspect.JSON)), decodeJSON(t, string(got))); diff != "" {
					t.Errorf("%s of %s read back (-written +read):\n%s", r.AspectName, r.EntityURN, diff)
				}
			}
			if n := s.IndexedTimeseries("dataProcessInstance", "dataProcessInstanceRunEvent"); events != 1 || n != 1 {
				t.Errorf("%d run events written, %d indexed; want 1 and 1", events, n)
			}
		})
	}
}
