package stateful

import (
	"bytes"
	"compress/bzip2"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/urn"
)

// The serdes of a checkpoint's state (its state.serde).
const (
	// SerdeUTF8 is the state as JSON text, {"urns": [...]}: what this
	// package writes.
	SerdeUTF8 = "utf-8"
	// SerdeBase85Bz2JSON is the JSON text compressed with bzip2 and encoded
	// in RFC 1924 base85: what DataHub's Python framework writes by
	// default. This package reads it.
	SerdeBase85Bz2JSON = "base85-bz2-json"
)

// Orchestrator is the orchestrator of the data flow checkpoints are kept
// under: urn:li:dataFlow:(datahub,<pipeline>,prod).
const Orchestrator = "datahub"

// formatVersion is the state's formatVersion.
const formatVersion = "1.0"

// maxStateSize is the largest encoded state written (DataHub's
// DEFAULT_MAX_STATE_SIZE, 4 MiB).
const maxStateSize = 1 << 22

// legacyJobNames are the job names some of DataHub's connectors kept from
// before stale entity removal was shared, by platform.
var legacyJobNames = map[string]string{
	"bigquery":  "ingest_from_bigquery_source",
	"dbt":       "dbt_stateful_ingestion",
	"glue":      "glue_stateful_ingestion",
	"kafka":     "ingest_from_kafka_source",
	"pulsar":    "ingest_from_pulsar_source",
	"snowflake": "common_ingest_from_sql_source",
}

// JobName returns the name of the stale entity removal job of platform, as
// DataHub's connectors name it: "<platform>_stale_entity_removal" (with
// "_<uniqueID>" appended when uniqueID is set), the legacy names of
// bigquery, dbt, glue, kafka, pulsar and snowflake, and
// "default_stale_entity_removal" for no platform.
func JobName(platform, uniqueID string) string {
	if platform == "" {
		platform = "default"
	}
	if n, ok := legacyJobNames[platform]; ok {
		return n
	}
	n := platform + "_stale_entity_removal"
	if uniqueID != "" {
		n += "_" + uniqueID
	}
	return n
}

// JobURN returns the URN of the data job that holds the checkpoints of job
// in pipeline: urn:li:dataJob:(urn:li:dataFlow:(datahub,<pipeline>,prod),<job>).
func JobURN(pipeline, job string) (urn.DataJob, error) {
	flow, err := urn.NewDataFlow(Orchestrator, pipeline, "prod")
	if err != nil {
		return urn.DataJob{}, err
	}
	return urn.NewDataJob(flow, job)
}

// Checkpoint is the state a run committed: the URNs it produced.
type Checkpoint struct {
	// Pipeline and RunID are the checkpoint's pipelineName and runId.
	Pipeline string
	RunID    string
	// TimestampMillis is when it was committed.
	TimestampMillis int64
	// URNs are the URNs the run produced, in order, without duplicates.
	URNs []string
}

// ReadCheckpoint reads the newest checkpoint of job in pipeline, as
// DataHub's ingestion framework does: the latest value of the timeseries
// aspect datahubIngestionCheckpoint of the job's URN (see JobURN), with
// either serde. It returns nil and no error when there is none.
func ReadCheckpoint(ctx context.Context, c *client.Client, pipeline, job string) (*Checkpoint, error) {
	u, err := JobURN(pipeline, job)
	if err != nil {
		return nil, fmt.Errorf("stateful: %w: %w", err, datahub.ErrValidation)
	}
	vs, err := client.GetTimeseries[aspects.DatahubIngestionCheckpoint](ctx, c, u, client.TimeseriesQuery{})
	if err != nil {
		return nil, fmt.Errorf("stateful: read the checkpoint of %s: %w", u, err)
	}
	for _, v := range vs { // newest first
		if v.PipelineName != pipeline {
			continue
		}
		return decodeCheckpoint(v)
	}
	return nil, nil
}

// decodeCheckpoint decodes the state of a checkpoint aspect.
func decodeCheckpoint(a aspects.DatahubIngestionCheckpoint) (*Checkpoint, error) {
	urns, err := DecodeState(a.State)
	if err != nil {
		return nil, fmt.Errorf("stateful: checkpoint of run %s: %w", a.RunID, err)
	}
	return &Checkpoint{Pipeline: a.PipelineName, RunID: a.RunID, TimestampMillis: a.TimestampMillis, URNs: urns}, nil
}

// DecodeState returns the URNs of a checkpoint's state, read as DataHub's
// Checkpoint.create_from_checkpoint_aspect reads them: the payload (Pegasus
// bytes: one character per byte) is JSON text under serde utf-8, or that
// text compressed with bzip2 and base85-encoded under base85-bz2-json. A
// missing payload is an empty state. The URNs come from "urns", and from
// the fields of older states DataHub migrates (encoded_container_urns,
// encoded_assertion_urns); duplicates are dropped. The old pickled serde
// base85, which DataHub no longer reads either, is refused.
func DecodeState(st aspects.IngestionCheckpointState) ([]string, error) {
	var text []byte
	switch st.Serde {
	case SerdeUTF8:
		text = []byte("{}")
		if st.Payload != nil {
			text = pegasusBytes(*st.Payload)
		}
	case SerdeBase85Bz2JSON:
		if st.Payload == nil {
			text = []byte("{}")
			break
		}
		raw, err := base85Decode(pegasusBytes(*st.Payload))
		if err != nil {
			return nil, fmt.Errorf("serde %s: %w", st.Serde, err)
		}
		if text, err = io.ReadAll(io.LimitReader(bzip2.NewReader(bytes.NewReader(raw)), 1<<30)); err != nil {
			return nil, fmt.Errorf("serde %s: bzip2: %w", st.Serde, err)
		}
	case "base85":
		return nil, fmt.Errorf("serde base85 (pickled state) is no longer read, by DataHub either: ignore the previous checkpoint")
	default:
		return nil, fmt.Errorf("unknown serde %q", st.Serde)
	}
	var state struct {
		URNs                 []string `json:"urns"`
		EncodedContainerURNs []string `json:"encoded_container_urns"`
		EncodedAssertionURNs []string `json:"encoded_assertion_urns"`
	}
	if err := json.Unmarshal(text, &state); err != nil {
		return nil, fmt.Errorf("serde %s: state: %w", st.Serde, err)
	}
	urns := state.URNs
	for _, g := range state.EncodedContainerURNs {
		urns = append(urns, "urn:li:container:"+g)
	}
	for _, g := range state.EncodedAssertionURNs {
		urns = append(urns, "urn:li:assertion:"+g)
	}
	return dedup(urns), nil
}

// EncodeState returns the state of urns as this package writes it: serde
// utf-8, the payload the JSON text Python's json.dumps({"urns": urns})
// writes (ASCII only). It fails when the payload would exceed DataHub's 4
// MiB limit on a state.
func EncodeState(urns []string) (aspects.IngestionCheckpointState, error) {
	b := []byte(`{"urns": [`)
	for i, u := range urns {
		if i > 0 {
			b = append(b, ", "...)
		}
		s, err := urn.PythonJSON(u)
		if err != nil {
			return aspects.IngestionCheckpointState{}, err
		}
		b = append(b, s...)
	}
	b = append(b, "]}"...)
	if len(b) > maxStateSize {
		return aspects.IngestionCheckpointState{}, fmt.Errorf("stateful: the state of %d URNs is %d bytes, above the %d bytes DataHub allows", len(urns), len(b), maxStateSize)
	}
	p := string(b) // ASCII: Pegasus bytes and text alike
	return aspects.IngestionCheckpointState{FormatVersion: formatVersion, Serde: SerdeUTF8, Payload: &p}, nil
}

// pegasusBytes turns Pegasus bytes (one character per byte) back into the
// bytes; text with characters above U+00FF is taken as the UTF-8 it is.
func pegasusBytes(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			return []byte(s)
		}
		b = append(b, byte(r))
	}
	return b
}

// dedup returns urns without repeats, in first-seen order.
func dedup(urns []string) []string {
	seen := make(map[string]bool, len(urns))
	out := urns[:0:0]
	for _, u := range urns {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return slices.Clip(out)
}

// errNoPipeline is returned for an empty pipeline name.
var errNoPipeline = errors.New("stateful: no pipeline name")
