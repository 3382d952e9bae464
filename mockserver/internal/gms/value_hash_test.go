package gms

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestPrepareValueHash: the store write of a checked value carries the
// value's jsonx.Hash, computed by the schema check; a value the check does
// not hash (a repeated key), one of a lax aspect and a PATCH carry 0, for
// the store to compute.
func TestPrepareValueHash(t *testing.T) {
	t.Parallel()
	ps := benchProposals(2)
	withHash := []string{
		`{"customProperties": {"a": "1", "b": "\u00e9"}, "name": "\u0074", "tags": ["x", "y"]}`,
		"{\"description\": \"a \\\" b \\n é\",\n\t\"customProperties\": {}}",
		`{"name": "t", "customProperties": {"k": "v"}, "created": {"time": 1e3}}`,
	}
	for _, v := range withHash {
		p := ps[0]
		p.AspectName, p.Aspect = "datasetProperties", json.RawMessage(v)
		ps = append(ps, p)
	}
	noHash := len(ps)
	for _, v := range []string{`{"name": "a", "name": "b"}`, `{"customProperties": {"a": "1", "a": "2"}}`} {
		p := ps[0]
		p.AspectName, p.Aspect = "datasetProperties", json.RawMessage(v)
		ps = append(ps, p)
	}
	lax := len(ps)
	p := ps[0]
	p.AspectName, p.Aspect = "status", json.RawMessage(`{"removed": true, "notInThePDL": 1}`)
	ps = append(ps, p)
	items, ws, err := prepareAll(ps, true, &patch.Patcher{Now: time.Now}, map[string]bool{"status": true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(ps) {
		t.Fatalf("%d writes of %d proposals", len(items), len(ps))
	}
	for i, w := range ws {
		want := jsonx.Hash(w.Value)
		if i >= noHash {
			want = 0
		}
		if i >= lax-2 && i < lax && jsonx.Hash(w.Value) != 0 {
			t.Errorf("write %d: jsonx.Hash(%s) = %#x, want 0: not a test of a repeated key", i, w.Value, jsonx.Hash(w.Value))
		}
		if w.ValueHash != want || i < noHash && want == 0 {
			t.Errorf("write %d (%s): ValueHash = %#x, want %#x", i, w.Value, w.ValueHash, want)
		}
	}
}

// TestRewrittenValueUnchanged: a value written again as other text of the
// same data (members reordered, characters escaped, white space) makes no
// new version: the hash of the check and the store's agree.
func TestRewrittenValueUnchanged(t *testing.T) {
	t.Parallel()
	st := store.OpenMemory(nil)
	c := New(st, Options{})
	t.Cleanup(func() { _ = c.Close(); _ = st.Close() })
	const u = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	write := func(value string) Written {
		t.Helper()
		out, err := c.Write(t.Context(), []Proposal{{EntityType: "dataset", EntityURN: u, ChangeType: "UPSERT",
			AspectName: "datasetProperties", Aspect: json.RawMessage(value), ContentType: "application/json"}}, IngestOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return out[0]
	}
	first := write(`{"customProperties": {"a": "1", "b": "é"}, "name": "t", "tags": ["x", "y/z"]}`)
	for _, v := range []string{
		`{"tags":["x","y\/z"],"name":"\u0074","customProperties":{"b":"\u00e9","a":"1"}}`,
		"{ \"name\" : \"t\" ,\n\t\"customProperties\": {\"\\u0061\": \"1\", \"b\": \"\\u00E9\"}, \"tags\": [\"\\u0078\", \"y/z\"] }",
	} {
		if got := write(v); !got.Unchanged || got.Version != first.Version {
			t.Errorf("write of %s = %+v, want unchanged at version %s", v, got, first.Version)
		}
	}
	if got := write(`{"customProperties": {"a": "1", "b": "e"}, "name": "t", "tags": ["x", "y/z"]}`); got.Unchanged {
		t.Errorf("write of other data = %+v, want a new version", got)
	}
}
