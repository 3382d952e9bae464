package gms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"
	"unsafe"

	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
	"github.com/google/go-cmp/cmp"
)

// repeatBatch is a batch that writes the one value v, the same memory, as
// several aspects of datasets and a chart (prepareAll gives a repeat of
// the last proposal's value the answer it kept), with a copy of v between.
func repeatBatch(v []byte) []Proposal {
	var ps []Proposal
	add := func(entityType, u, aspect string, value []byte) {
		ps = append(ps, Proposal{EntityType: entityType, EntityURN: u, ChangeType: "UPSERT", AspectName: aspect,
			ContentType: "application/json", Aspect: value})
	}
	for i, aspect := range []string{"ownership", "ownership", "status", "status", "ownership", "datasetProperties", "datasetUsageStatistics", "datasetUsageStatistics"} {
		add("dataset", fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d,PROD)", i), aspect, v)
	}
	add("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,copy,PROD)", "ownership", bytes.Clone(v))
	add("chart", "urn:li:chart:(looker,a)", "ownership", v)
	add("chart", "urn:li:chart:(looker,b)", "ownership", v)
	add("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,last,PROD)", "ownership", v)
	return ps
}

// prepareRepeatAgrees holds prepareAll of repeatBatch(v), whose
// proposals share v's memory, to prepareAll of the same batch with a copy
// of v each (no answer given again): the same writes and the same
// refusal, with the aspects in lax or not.
func prepareRepeatAgrees(t *testing.T, v string, lax bool) {
	t.Helper()
	pt := &patch.Patcher{Now: time.Now}
	var laxAspects map[string]bool
	if lax {
		laxAspects = map[string]bool{"ownership": true, "datasetProperties": true}
	}
	shared := repeatBatch([]byte(v))
	own := repeatBatch([]byte(v))
	for i := range own {
		own[i].Aspect = bytes.Clone(own[i].Aspect)
	}
	for _, batch := range []bool{true, false} {
		_, gotWs, gotErr := prepareAll(shared, batch, pt, laxAspects, nil)
		_, wantWs, wantErr := prepareAll(own, batch, pt, laxAspects, nil)
		if diff := cmp.Diff(errorText(wantErr), errorText(gotErr)); diff != "" {
			t.Fatalf("prepareAll(batch %v) of %q, lax %v: refusal (-own +shared):\n%s", batch, v, lax, diff)
		}
		if diff := cmp.Diff(writesOf(wantWs), writesOf(gotWs)); diff != "" {
			t.Fatalf("prepareAll(batch %v) of %q, lax %v: writes (-own +shared):\n%s", batch, v, lax, diff)
		}
	}
}

// errorText is err's text ("" for nil).
func errorText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// storedWrite is what a test compares of a store.Write of an UPSERT.
type storedWrite struct {
	URN, Aspect, KeyAspect string
	Value, KeyValue        string
	ValueHash              uint64
	Timeseries, Compact    bool
}

func writesOf(ws []store.Write) []storedWrite {
	out := make([]storedWrite, len(ws))
	for i, w := range ws {
		out[i] = storedWrite{w.URN, w.Aspect, w.KeyAspect, string(w.Value), string(w.KeyValue), w.ValueHash, w.Timeseries, w.Compact}
	}
	return out
}

var prepareRepeatSeeds = append([]string{
	`{"removed": false}`, `{"removed": true, "notInThePDL": 1}`, `{"name": "t", "customProperties": {"k": "v"}}`,
	`{"timestampMillis": 1, "uniqueUserCount": 2}`, `{"timestampMillis": "x"}`, `{}`, `[]`, `nope`,
}, checkHeldSeeds...)

func TestPrepareRepeatedValue(t *testing.T) {
	t.Parallel()
	for _, s := range prepareRepeatSeeds {
		prepareRepeatAgrees(t, s, false)
		prepareRepeatAgrees(t, s, true)
	}
}

func FuzzPrepareRepeatedValue(f *testing.F) {
	for _, s := range prepareRepeatSeeds {
		f.Add(s, false)
	}
	f.Fuzz(prepareRepeatAgrees)
}

// TestPrepareRepeatedValueShared: the writes of a batch's repeated value
// share one stored text (it is checked and compacted once), and a copy of
// the value between them is checked on its own.
func TestPrepareRepeatedValueShared(t *testing.T) {
	t.Parallel()
	ps := benchProposals(4)
	ps[1].Aspect = ps[0].Aspect
	ps[2].Aspect = bytes.Clone(ps[0].Aspect)
	ps[3].Aspect = ps[2].Aspect
	_, ws, err := prepareAll(ps, false, &patch.Patcher{Now: time.Now}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b []byte) bool { return unsafe.SliceData(a) == unsafe.SliceData(b) }
	if !same(ws[0].Value, ws[1].Value) || !same(ws[2].Value, ws[3].Value) || same(ws[1].Value, ws[2].Value) {
		t.Errorf("stored texts shared: 0-1 %v, 2-3 %v, 1-2 %v; want true, true, false",
			same(ws[0].Value, ws[1].Value), same(ws[2].Value, ws[3].Value), same(ws[1].Value, ws[2].Value))
	}
	for i, w := range ws {
		if want := json.RawMessage(`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}]`); !bytes.HasPrefix(w.Value, want) {
			t.Errorf("write %d: value %s", i, w.Value)
		}
	}
}
