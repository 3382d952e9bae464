package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// LoadFile preloads the proposals of a DataHub file-sink JSON file (a JSON
// array of MCPs, as DataHub's file sink and golden test files hold them),
// validated and applied as one batch: if any item is refused nothing is
// written and the error names every refused item by index. An aspect may be
// given in the file sink's simplified form {"json": {...}} or on the wire's
// {"value": "<json text>", "contentType": "application/json"}. Legacy
// MetadataChangeEvents (proposedSnapshot) are refused. It returns the
// number of proposals applied; they are not recorded in Proposals.
func (s *Server) LoadFile(r io.Reader) (int, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return 0, fmt.Errorf("mockserver: load: %w", err)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(data, &elems); err != nil {
		return 0, &textError{text: "mockserver: load: not a JSON array of proposals: " + gms.JSONErrorText(err), err: err}
	}
	ps := make([]gms.Proposal, len(elems))
	var bad []string
	for i, raw := range elems {
		mcp, err := fileSinkToWire(raw)
		if err != nil {
			bad = append(bad, fmt.Sprintf("[%d] %v", i, err))
			continue
		}
		var pe paramErrors
		decodeProposal(wire.Doc{}, mcp, itemPath{index: i}, &ps[i], &pe)
		if len(pe) > 0 {
			bad = append(bad, fmt.Sprintf("[%d] %s", i, gms.JoinMessages(pe, "; ")))
		}
	}
	if len(bad) > 0 {
		return 0, fmt.Errorf("mockserver: load: %d of %d items are invalid, nothing was written: %s",
			len(bad), len(elems), gms.JoinMessages(bad, "; "))
	}
	if err := s.core.Ingest(context.Background(), ps, gms.IngestOptions{Batch: true}); err != nil {
		return 0, fmt.Errorf("mockserver: load: %w", apiError(fromCore(err, OpIngestProposalBatch)))
	}
	return len(ps), nil
}

// textError is an error whose text is written for people (without Go's
// type names) while it still wraps the underlying error.
type textError struct {
	text string
	err  error
}

func (e *textError) Error() string { return e.text }
func (e *textError) Unwrap() error { return e.err }

// fileSinkToWire rewrites the file sink's {"json": {...}} aspects of one
// MCP object into the wire's GenericAspect {"value", "contentType"}.
func fileSinkToWire(raw json.RawMessage) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("not a JSON object")
	}
	if _, ok := obj["proposedSnapshot"]; ok {
		return nil, fmt.Errorf("a MetadataChangeEvent (proposedSnapshot) is not supported; convert it to proposals (MCPs)")
	}
	for _, name := range []string{"aspect", "entityKeyAspect"} {
		v, ok := obj[name]
		if !ok || wire.IsNull(v) {
			continue
		}
		var ga map[string]json.RawMessage
		if err := json.Unmarshal(v, &ga); err != nil {
			continue // decodeProposal reports it
		}
		j, ok := ga["json"]
		if !ok {
			continue
		}
		value, err := json.Marshal(latin1(jsonx.Compact(j)))
		if err != nil {
			return nil, err
		}
		ct := json.RawMessage(`"application/json"`)
		if c, ok := ga["contentType"]; ok {
			ct = c
		}
		obj[name], err = json.Marshal(map[string]json.RawMessage{"value": value, "contentType": ct})
		if err != nil {
			return nil, err
		}
	}
	return json.Marshal(obj)
}

// latin1 returns b as Pegasus bytes text: one char per byte.
func latin1(b []byte) string {
	if !bytes.ContainsFunc(b, func(r rune) bool { return r >= 0x80 }) {
		return string(b)
	}
	rs := make([]rune, len(b))
	for i, c := range b {
		rs[i] = rune(c)
	}
	return string(rs)
}
