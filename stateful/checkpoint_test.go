package stateful

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
)

// goldenCheckpoint reads the checkpoint aspect of a DataHub golden file
// (an MCP list).
func goldenCheckpoint(t *testing.T, name string) aspects.DatahubIngestionCheckpoint {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
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
	return mcps[0].Aspect.JSON
}

// TestDecodeGoldenBase85Bz2 reads the base85-bz2-json checkpoint of
// DataHub's lookml integration test (golden_test_state.json).
func TestDecodeGoldenBase85Bz2(t *testing.T) {
	t.Parallel()
	cp := goldenCheckpoint(t, "lookml_golden_test_state.json")
	urns, err := DecodeState(cp.State)
	if err != nil {
		t.Fatal(err)
	}
	if len(urns) != 14 {
		t.Fatalf("%d URNs, want 14: %v", len(urns), urns)
	}
	if urns[0] != "urn:li:container:78f22c19304954b15e8adb1d9809975e" ||
		urns[13] != "urn:li:dataset:(urn:li:dataPlatform:looker,lkml_samples.view.flights,PROD)" {
		t.Errorf("URNs %v", urns)
	}
}

// TestDecodeGoldenUTF8 reads the utf-8 checkpoint of DataHub's stateful
// ingestion unit test (golden_test_checkpoint_state.json).
func TestDecodeGoldenUTF8(t *testing.T) {
	t.Parallel()
	cp := goldenCheckpoint(t, "golden_test_checkpoint_state.json")
	urns, err := DecodeState(cp.State)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"urn:li:dataset:(urn:li:dataPlatform:postgres,dummy_dataset1,PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:postgres,dummy_dataset2,PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:postgres,dummy_dataset3,PROD)",
		"urn:li:dataProcessInstance:478810e859f870a54f72c681f41af619",
		"urn:li:query:query1",
	}
	if diff := cmp.Diff(want, urns); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if job, _ := JobURN(cp.PipelineName, JobName("", "")); job.String() != "urn:li:dataJob:(urn:li:dataFlow:(datahub,dummy_stateful,prod),default_stale_entity_removal)" {
		t.Errorf("JobURN = %s", job)
	}
}

func TestDecodeStateRefuses(t *testing.T) {
	t.Parallel()
	p := func(s string) *string { return &s }
	tests := []struct {
		name string
		st   aspects.IngestionCheckpointState
		want string
	}{
		{"pickled base85", aspects.IngestionCheckpointState{Serde: "base85", Payload: p("abc")}, "no longer read"},
		{"unknown serde", aspects.IngestionCheckpointState{Serde: "gzip"}, `unknown serde "gzip"`},
		{"bad base85", aspects.IngestionCheckpointState{Serde: SerdeBase85Bz2JSON, Payload: p("ab\"cd")}, "bad base85 character"},
		{"not bzip2", aspects.IngestionCheckpointState{Serde: SerdeBase85Bz2JSON, Payload: p("Xk~0{Zv")}, "bzip2"},
		{"not JSON", aspects.IngestionCheckpointState{Serde: SerdeUTF8, Payload: p("{urns")}, "state"},
	}
	for _, tt := range tests {
		if _, err := DecodeState(tt.st); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.want)
		}
	}
	urns, err := DecodeState(aspects.IngestionCheckpointState{Serde: SerdeUTF8})
	if err != nil || len(urns) != 0 {
		t.Errorf("no payload: %v, %v; want an empty state", urns, err)
	}
}

// The vectors are Python's base64.b85encode.
func TestBase85(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, out string }{
		{"", ""},
		{"h", "Xa"},
		{"hello", "Xk~0{Zv"},
		{"\x00\x00\x00\x00", "00000"},
		{"\xff\xff\xff\xff\xff", "|NsC0{{"},
		{"\x00\x01\x02\x03\x04\x05\x06\x07\x08\t", "009C61O)~M2nh"},
	}
	for _, tt := range tests {
		if got := base85Encode([]byte(tt.in)); string(got) != tt.out {
			t.Errorf("encode %q = %q, want %q", tt.in, got, tt.out)
		}
		got, err := base85Decode([]byte(tt.out))
		if err != nil || string(got) != tt.in {
			t.Errorf("decode %q = %q, %v; want %q", tt.out, got, err, tt.in)
		}
	}
	if _, err := base85Decode([]byte("|NsC1")); err == nil {
		t.Error("decode of a group above 2^32-1: no error")
	}
	golden := *goldenCheckpoint(t, "lookml_golden_test_state.json").State.Payload
	raw, err := base85Decode([]byte(golden))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(raw, []byte("BZh")) || string(base85Encode(raw)) != golden {
		t.Errorf("golden payload does not decode to bzip2 and back")
	}
}

// EncodeState writes the payload Python's json.dumps writes (the expected
// text is Python's output for the same list).
func TestEncodeStateAsPython(t *testing.T) {
	t.Parallel()
	st, err := EncodeState([]string{"urn:li:x:é", `a"b`})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"urns": ["urn:li:x:\u00e9", "a\"b"]}`; *st.Payload != want || st.Serde != "utf-8" || st.FormatVersion != "1.0" {
		t.Errorf("state %+v, payload %s; want payload %s", st, *st.Payload, want)
	}
}

func FuzzDecodeState(f *testing.F) {
	f.Add(SerdeUTF8, `{"urns": ["a"]}`)
	f.Add(SerdeBase85Bz2JSON, "Xk~0{Zv")
	f.Fuzz(func(t *testing.T, serde, payload string) {
		_, _ = DecodeState(aspects.IngestionCheckpointState{Serde: serde, Payload: &payload})
		b, err := base85Decode([]byte(payload))
		if err == nil && string(base85Encode(b)) != payload && len(payload)%5 == 0 {
			t.Errorf("base85 %q does not round-trip", payload)
		}
	})
}

func TestJobName(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ platform, id, want string }{
		{"", "", "default_stale_entity_removal"},
		{"lookml", "", "lookml_stale_entity_removal"},
		{"feast", "eu", "feast_stale_entity_removal_eu"},
		{"snowflake", "", "common_ingest_from_sql_source"},
		{"kafka", "x", "ingest_from_kafka_source"},
	} {
		if got := JobName(tt.platform, tt.id); got != tt.want {
			t.Errorf("JobName(%q, %q) = %q, want %q", tt.platform, tt.id, got, tt.want)
		}
	}
}
