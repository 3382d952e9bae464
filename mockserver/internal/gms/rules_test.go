package gms_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

var rulesT0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// rulesStore is a memory store with the core's Rules whose clock moves one
// second per write, from rulesT0.
func rulesStore(t *testing.T) *store.Store {
	t.Helper()
	var n atomic.Int64
	st := store.OpenMemory(func() time.Time { return rulesT0.Add(time.Duration(n.Add(1)-1) * time.Second) })
	st.SetRules(gms.Rules{})
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// ms is the clock of rulesStore at write n (from 0), in Unix milliseconds.
func ms(n int) int64 { return rulesT0.Add(time.Duration(n) * time.Second).UnixMilli() }

func dsWrite(value, sm, actor string) store.Write {
	w := store.Write{URN: ds, Aspect: "datasetProperties", Value: json.RawMessage(value), Actor: actor,
		KeyAspect: "datasetKey", KeyValue: json.RawMessage(`{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}`)}
	if sm != "" {
		w.SystemMetadata = json.RawMessage(sm)
	}
	return w
}

func mustApply(t *testing.T, st *store.Store, ws ...store.Write) []store.Result {
	t.Helper()
	res, err := st.Apply(ws)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

func mustGet(t *testing.T, st *store.Store, urn, aspect string, version int64) store.Aspect {
	t.Helper()
	a, err := st.Get(urn, aspect, version)
	if err != nil {
		t.Fatalf("Get(%s, %s, %d): %v", urn, aspect, version, err)
	}
	return a
}

// TestReceived: what GMS fills in on every item as it arrives, through the
// compact path (the Rest.li adapter checked the text) and the general one,
// which agree.
func TestReceived(t *testing.T) {
	t.Parallel()
	const now = 1_700_000_000_000
	tests := []struct {
		name, actor, in string
		want            string // the members as a JSON object, keys sorted
		wantActor       string
	}{
		{"nothing: lastObserved now, the run defaults implicit, the schema version", "", "",
			`{"lastObserved":1700000000000,"schemaVersion":1}`, gms.DefaultActor},
		{"null is nothing", "", "null",
			`{"lastObserved":1700000000000,"schemaVersion":1}`, gms.DefaultActor},
		{"the write's run fields stay", "", `{"runId":"r","lastRunId":"q","lastObserved":5}`,
			`{"lastObserved":5,"lastRunId":"q","runId":"r","schemaVersion":1}`, gms.DefaultActor},
		{"null run fields are absent ones", "", `{"runId":null,"lastRunId":null,"lastObserved":null}`,
			`{"lastObserved":1700000000000,"schemaVersion":1}`, gms.DefaultActor},
		{"lastObserved 0 is now", "", `{"lastObserved":0}`,
			`{"lastObserved":1700000000000,"schemaVersion":1}`, gms.DefaultActor},
		{"lastObserved 0.0 is now", "", `{"lastObserved":0.0}`,
			`{"lastObserved":1700000000000,"schemaVersion":1}`, gms.DefaultActor},
		{"lastObserved spelt 1e3 stays", "", `{"lastObserved":1e3}`,
			`{"lastObserved":1e3,"schemaVersion":1}`, gms.DefaultActor},
		{"an actor stamps aspectModified", "urn:li:corpuser:a", `{"runId":"r","lastObserved":5}`,
			`{"aspectModified":{"time":1700000000000,"actor":"urn:li:corpuser:a"},"lastObserved":5,"runId":"r","schemaVersion":1}`, "urn:li:corpuser:a"},
		{"the system actor does not", gms.DefaultActor, `{"runId":"r","lastObserved":5}`,
			`{"lastObserved":5,"runId":"r","schemaVersion":1}`, gms.DefaultActor},
		{"other members stay, the last of a repeated one wins", "", `{"properties":{"a":"b"},"runId":"r1","runId":"r2","lastObserved":5}`,
			`{"lastObserved":5,"properties":{"a":"b"},"runId":"r2","schemaVersion":1}`, gms.DefaultActor},
		{"a schemaVersion sent stays", "", `{"lastObserved":5,"schemaVersion":7}`,
			`{"lastObserved":5,"schemaVersion":7}`, gms.DefaultActor},
		{"an escaped key is read as its name", "", `{"run\u0049d":"r","lastObserved":5}`,
			`{"lastObserved":5,"runId":"r","schemaVersion":1}`, gms.DefaultActor},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, compact := range []bool{false, true} {
				w := store.Write{URN: ds, Aspect: "status", SystemMetadata: json.RawMessage(tc.in), Actor: tc.actor, SystemMetadataCompact: compact}
				actor, sm, err := gms.Rules{}.Received(&w, now, nil)
				if err != nil {
					t.Fatalf("compact %v: %v", compact, err)
				}
				if got := object(t, sm); !jsonx.Equal([]byte(tc.want), []byte(got)) || actor != tc.wantActor {
					t.Errorf("compact %v: Received = %s, %s; want %s, %s", compact, actor, got, tc.wantActor, tc.want)
				}
			}
		})
	}
}

// object is members as a JSON object.
func object(t *testing.T, ms []jsonx.Member) string {
	t.Helper()
	parts := make([]string, len(ms))
	for i, m := range ms {
		k, _ := json.Marshal(m.Key)
		parts[i] = string(k) + ":" + string(m.Value)
	}
	s := "{" + strings.Join(parts, ",") + "}"
	if !json.Valid([]byte(s)) {
		t.Fatalf("members are not an object: %s", s)
	}
	return s
}

// TestReceivedRefuses: a systemMetadata that is not an object, or whose
// lastObserved is not a long, refuses the write with the store's
// ErrInvalidWrite.
func TestReceivedRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct{ sm, want string }{
		{`"x"`, "store: invalid write: item 0: " + ds + " datasetProperties: systemMetadata is not a JSON object"},
		{`[1]`, "store: invalid write: item 0: " + ds + " datasetProperties: systemMetadata is not a JSON object"},
		{`{"lastObserved":"x"}`, "store: invalid write: item 0: systemMetadata.lastObserved: json: cannot unmarshal string into Go value of type int64"},
		{`{"lastObserved":1.5}`, "store: invalid write: item 0: systemMetadata.lastObserved: json: cannot unmarshal number 1.5 into Go value of type int64"},
	}
	for _, tc := range tests {
		st := rulesStore(t)
		_, err := st.Apply([]store.Write{dsWrite(`{"description":"a"}`, tc.sm, "")})
		if err == nil || err.Error() != tc.want {
			t.Errorf("systemMetadata %s: err = %v, want %s", tc.sm, err, tc.want)
		}
	}
}

// TestVersionsCarryRunFields follows one aspect's systemMetadata through
// a first write, a changed value, an equal value from a new run and an
// equal value from the same run: the first stores the write's own with
// version 1 and aspectCreated; a change keeps the stored object, takes the
// run fields, version and audit stamps from the write, and moves the row to
// history; an equal value makes no version and refreshes the run fields in
// place (the schemaVersion too: a write without one carries the aspect's),
// or writes nothing when they are unchanged too.
func TestVersionsCarryRunFields(t *testing.T) {
	t.Parallel()
	st := rulesStore(t)
	sub := st.Subscribe()
	defer sub.Close()
	writes := []struct {
		w        store.Write
		want     store.Result
		wantSM   string // the latest row's after the write
		upserts  int    // events of the write
		versions int64  // history rows after the write
	}{
		{dsWrite(`{"description":"a"}`, `{"runId":"r1","properties":{"clientId":"x"}}`, "urn:li:corpuser:a"),
			store.Result{Version: "1"},
			fmt.Sprintf(`{"aspectCreated":{"actor":"urn:li:corpuser:a","time":%[1]d},"aspectModified":{"actor":"urn:li:corpuser:a","time":%[1]d},`+
				`"lastObserved":%[1]d,"properties":{"clientId":"x"},"runId":"r1","schemaVersion":1,"version":"1"}`, ms(0)),
			2, 0}, // the key row and the aspect
		{dsWrite(`{"description":"b"}`, `{"runId":"r2","lastObserved":7,"properties":{"clientId":"y"},"pipelineName":"p","schemaVersion":3}`, "urn:li:corpuser:b"),
			store.Result{Version: "2"},
			fmt.Sprintf(`{"aspectCreated":{"actor":"urn:li:corpuser:a","time":%d},"aspectModified":{"actor":"urn:li:corpuser:b","time":%d},`+
				`"lastObserved":7,"lastRunId":"r1","properties":{"clientId":"x"},"runId":"r2","schemaVersion":3,"version":"2"}`, ms(0), ms(1)),
			1, 1},
		{dsWrite(`{"description":"b"}`, `{"runId":"r3","lastObserved":9}`, ""),
			store.Result{Version: "2", Unchanged: true},
			fmt.Sprintf(`{"aspectCreated":{"actor":"urn:li:corpuser:a","time":%d},"aspectModified":{"actor":"urn:li:corpuser:b","time":%d},`+
				`"lastObserved":9,"lastRunId":"r2","properties":{"clientId":"x"},"runId":"r3","schemaVersion":1,"version":"2"}`, ms(0), ms(1)),
			1, 1},
		{dsWrite(`{"description":"b"}`, `{"runId":"r3","lastObserved":9}`, ""),
			store.Result{Version: "2", Unchanged: true},
			fmt.Sprintf(`{"aspectCreated":{"actor":"urn:li:corpuser:a","time":%d},"aspectModified":{"actor":"urn:li:corpuser:b","time":%d},`+
				`"lastObserved":9,"lastRunId":"r3","properties":{"clientId":"x"},"runId":"r3","schemaVersion":1,"version":"2"}`, ms(0), ms(1)),
			1, 1}, // lastRunId becomes r3: the row changes once more
		{dsWrite(`{"description":"b"}`, `{"runId":"r3","lastObserved":9}`, ""),
			store.Result{Version: "2", Unchanged: true},
			fmt.Sprintf(`{"aspectCreated":{"actor":"urn:li:corpuser:a","time":%d},"aspectModified":{"actor":"urn:li:corpuser:b","time":%d},`+
				`"lastObserved":9,"lastRunId":"r3","properties":{"clientId":"x"},"runId":"r3","schemaVersion":1,"version":"2"}`, ms(0), ms(1)),
			0, 1}, // nothing changes: nothing is written
	}
	for i, wr := range writes {
		res := mustApply(t, st, wr.w)
		if diff := cmp.Diff([]store.Result{wr.want}, res); diff != "" {
			t.Errorf("write %d: result (-want +got):\n%s", i, diff)
		}
		a := mustGet(t, st, ds, "datasetProperties", 0)
		if !jsonx.Equal([]byte(wr.wantSM), a.SystemMetadata) {
			t.Errorf("write %d: systemMetadata\n got %s\nwant %s", i, a.SystemMetadata, wr.wantSM)
		}
		n := 0
		for sub.Len() > 0 {
			sub.TryNext()
			n++
		}
		if n != wr.upserts {
			t.Errorf("write %d: %d events, want %d", i, n, wr.upserts)
		}
		if _, err := st.Get(ds, "datasetProperties", wr.versions+1); err == nil {
			t.Errorf("write %d: history row %d exists, want %d rows", i, wr.versions+1, wr.versions)
		}
		if wr.versions > 0 {
			mustGet(t, st, ds, "datasetProperties", wr.versions)
		}
	}
	// The history row keeps the first version as it was.
	if h := mustGet(t, st, ds, "datasetProperties", 1); !strings.Contains(string(h.SystemMetadata), `"version":"1"`) || h.CreatedBy != "urn:li:corpuser:a" {
		t.Errorf("history row 1 = %s by %s", h.SystemMetadata, h.CreatedBy)
	}
}

// TestKeyRowWithFirstWrite: the key aspect is written with an entity's
// first aspect (a timeseries one too), once, with the systemMetadata of a
// first version, and its createdBy is the write's actor.
func TestKeyRowWithFirstWrite(t *testing.T) {
	t.Parallel()
	for _, timeseries := range []bool{false, true} {
		st := rulesStore(t)
		w := dsWrite(`{"description":"a"}`, `{"runId":"r1","lastObserved":5}`, "urn:li:corpuser:a")
		if timeseries {
			w.Aspect, w.Value, w.Timeseries = "datasetProfile", json.RawMessage(`{"timestampMillis":1}`), true
		}
		mustApply(t, st, w)
		key := mustGet(t, st, ds, "datasetKey", 0)
		want := fmt.Sprintf(`{"aspectCreated":{"actor":"urn:li:corpuser:a","time":%[1]d},"aspectModified":{"actor":"urn:li:corpuser:a","time":%[1]d},`+
			`"lastObserved":5,"runId":"r1","schemaVersion":1,"version":"1"}`, ms(0))
		if !jsonx.Equal([]byte(want), key.SystemMetadata) || key.CreatedBy != "urn:li:corpuser:a" {
			t.Errorf("timeseries %v: key row %s by %s, want %s", timeseries, key.SystemMetadata, key.CreatedBy, want)
		}
		w.SystemMetadata = json.RawMessage(`{"runId":"r2"}`)
		w.Value = json.RawMessage(`{"description":"b","timestampMillis":2}`)
		mustApply(t, st, w)
		if again := mustGet(t, st, ds, "datasetKey", 0); string(again.SystemMetadata) != string(key.SystemMetadata) {
			t.Errorf("timeseries %v: key row written again: %s", timeseries, again.SystemMetadata)
		}
	}
}

// TestDocumentIdentity: a timeseries document is identified by its
// timestampMillis, eventGranularity, messageId and partitionSpec (compared
// as JSON data): one with the same identity replaces the stored one, any
// other is a document of its own.
func TestDocumentIdentity(t *testing.T) {
	t.Parallel()
	st := rulesStore(t)
	doc := func(extra string) store.Write {
		w := dsWrite(`{"timestampMillis":1000`+extra+`}`, "", "")
		w.Aspect, w.Timeseries = "datasetProfile", true
		return w
	}
	mustApply(t, st,
		doc(`,"rowCount":1`),
		doc(`,"rowCount":2`), // replaces the first
		doc(`,"messageId":"m","rowCount":3`),
		doc(`,"partitionSpec":{"partition":"p","type":"PARTITION"},"rowCount":4`),
		doc(`,"partitionSpec":{"type":"PARTITION","partition":"p"},"rowCount":5`), // replaces the one before
		doc(`,"eventGranularity":{"unit":"DAY","multiple":1},"rowCount":6`),
	)
	docs, err := st.Timeseries(ds, "datasetProfile", 0, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var rows []float64
	for _, d := range docs {
		var v struct{ RowCount float64 }
		_ = json.Unmarshal(d.Value, &v)
		rows = append(rows, v.RowCount)
	}
	slices.Sort(rows)
	if diff := cmp.Diff([]float64{2, 3, 5, 6}, rows); diff != "" {
		t.Errorf("documents' rowCount (-want +got):\n%s", diff)
	}
	for _, bad := range []string{`{"rowCount":1}`, `{"timestampMillis":null}`} {
		w := doc("")
		w.Value = json.RawMessage(bad)
		want := "store: invalid write: item 0: " + ds + " datasetProfile: timeseries aspect has no timestampMillis"
		if _, err := st.Apply([]store.Write{w}); err == nil || err.Error() != want {
			t.Errorf("document %s: err = %v, want %s", bad, err, want)
		}
	}
}

// TestNegativeVersions: a negative version counts back from the highest
// history version, -1 being the newest history row or the latest without
// history.
func TestNegativeVersions(t *testing.T) {
	t.Parallel()
	tests := []struct{ highest, v, want int64 }{
		{0, -1, 0}, {2, -1, 2}, {2, -2, 1}, {2, -3, 0}, {2, -4, -1},
	}
	for _, tc := range tests {
		if got := (gms.Rules{}).ReadVersion(tc.highest, tc.v); got != tc.want {
			t.Errorf("ReadVersion(%d, %d) = %d, want %d", tc.highest, tc.v, got, tc.want)
		}
	}
	st := rulesStore(t)
	for _, d := range []string{"a", "b", "c"} {
		mustApply(t, st, dsWrite(`{"description":"`+d+`"}`, "", ""))
	}
	for v, want := range map[int64]string{-1: "b", -2: "a", -3: "c"} {
		if a := mustGet(t, st, ds, "datasetProperties", v); string(a.Value) != `{"description":"`+want+`"}` {
			t.Errorf("Get(%d) = %s, want %s", v, a.Value, want)
		}
	}
}

// TestStoreWithoutRules: a store nobody gave Rules decides nothing: rows
// hold the write's systemMetadata as it comes, createdBy is the write's
// actor, and an equal value is a new version like any other.
func TestStoreWithoutRules(t *testing.T) {
	t.Parallel()
	st := store.OpenMemory(nil)
	defer st.Close()
	w := store.Write{URN: ds, Aspect: "status", Value: json.RawMessage(`{"removed":false}`), SystemMetadata: json.RawMessage(`{"runId":"r"}`)}
	mustApply(t, st, w)
	a := mustGet(t, st, ds, "status", 0)
	if string(a.SystemMetadata) != `{"runId":"r"}` || a.CreatedBy != "" {
		t.Errorf("row = %s by %q, want the write's systemMetadata and no actor", a.SystemMetadata, a.CreatedBy)
	}
	if res := mustApply(t, st, w); res[0].Unchanged {
		t.Errorf("equal value without Rules: %+v, want a new version", res[0])
	}
	if _, err := st.Get(ds, "status", 1); err != nil {
		t.Errorf("history row of the first write: %v", err)
	}
}

// TestUnchanged: a value equal to the latest one as data, members in any
// order, is unchanged (no new version); known hashes that differ settle it.
func TestUnchanged(t *testing.T) {
	t.Parallel()
	a, b := json.RawMessage(`{"x":1,"y":[true,"s"]}`), json.RawMessage(`{"y":[true,"s"],"x":1}`)
	ha, hb := jsonx.Hash(a), jsonx.Hash(b)
	tests := []struct {
		name       string
		cur, next  json.RawMessage
		hcur, hnxt uint64
		want       bool
	}{
		{"same bytes", a, a, 0, 0, true},
		{"reordered", a, b, ha, hb, true},
		{"reordered, hashes unknown", a, b, 0, 0, true},
		{"other value", a, json.RawMessage(`{"x":2,"y":[true,"s"]}`), 0, 0, false},
		{"array order counts", a, json.RawMessage(`{"x":1,"y":["s",true]}`), 0, 0, false},
		{"hashes differ", a, a, 1, 2, false},
	}
	for _, tc := range tests {
		if got := (gms.Rules{}).Unchanged(tc.cur, tc.next, tc.hcur, tc.hnxt); got != tc.want {
			t.Errorf("%s: Unchanged(%s, %s) = %v, want %v", tc.name, tc.cur, tc.next, got, tc.want)
		}
	}
	st := rulesStore(t)
	mustApply(t, st, dsWrite(`{"description":"d","customProperties":{"a":"1","b":"2"}}`, "", ""))
	res := mustApply(t, st, dsWrite(`{"customProperties":{"b":"2","a":"1"},"description":"d"}`, "", ""))
	if !res[0].Unchanged || res[0].Version != "1" {
		t.Errorf("reordered equal value: %+v, want unchanged at version 1", res[0])
	}
}

// TestStoreHasNoRules: the DataHub rules of a write live here, not in the
// store: its sources name none of DataHub's systemMetadata members,
// defaults or actors.
func TestStoreHasNoRules(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../store/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("store sources: %v, %v", files, err)
	}
	// The members of a document's identity as the code would name them
	// (comments may say what the store's keys hold).
	forbidden := []string{"lastRunId", "runId", "lastObserved", "aspectModified", "aspectCreated", "schemaVersion",
		"no-run-id-provided", "urn:li:corpuser", "__datahub_system",
		`"timestampMillis"`, `"eventGranularity"`, `"partitionSpec"`, `"messageId"`}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, word := range forbidden {
			if strings.Contains(string(b), word) {
				t.Errorf("%s names %q: a DataHub rule belongs in gms", f, word)
			}
		}
	}
	if checked < 5 {
		t.Errorf("checked %d store sources", checked)
	}
}

// FuzzReceivedCompact holds the compact path of Received (a systemMetadata
// the adapter checked and compacted, split without checking it again) to
// the general one, for every compact JSON object.
func FuzzReceivedCompact(f *testing.F) {
	for _, s := range []string{`{}`, `{"runId":"r","lastObserved":5}`, `{"properties":{"a":"}\"{"},"runId":"r1","runId":"r2"}`,
		`{"run\u0049d":"r","x":[1,{"y":null}],"lastObserved":1e3}`, `{"a":"\\","b":"\\\""}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		c := jsonx.CompactShared([]byte(in))
		if !jsonx.IsObject(c) || len(c) != len(jsonx.Compact(c)) {
			return
		}
		general := store.Write{URN: ds, Aspect: "status", SystemMetadata: c}
		compact := general
		compact.SystemMetadataCompact = true
		_, want, werr := gms.Rules{}.Received(&general, 1, nil)
		_, got, gerr := gms.Rules{}.Received(&compact, 1, nil)
		if (werr == nil) != (gerr == nil) || werr == nil && !cmp.Equal(object(t, want), object(t, got)) {
			t.Fatalf("Received(%s): compact %s, %v; general %s, %v", c, object(t, got), gerr, object(t, want), werr)
		}
	})
}

// TestRestliAsync: Rest.li's async parameter is false when unset (the
// mock's ASYNC_INGEST_DEFAULT), else Boolean.parseBoolean of it.
func TestRestliAsync(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]bool{gms.AsyncUnset: false, "true": true, "TRUE": true, "false": false, "yes": false, "": false} {
		if got := gms.RestliAsync(in); got != want {
			t.Errorf("RestliAsync(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestCheckSystemMetadata: a Rest.li proposal's systemMetadata is checked
// against the SystemMetadata record and comes back compact.
func TestCheckSystemMetadata(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want, msg string }{
		{`{"runId": "r", "lastObserved": 5}`, `{"runId":"r","lastObserved":5}`, ""},
		{`{"runId":"r","nope":1}`, `{"runId":"r","nope":1}`, "ERROR :: /proposal/systemMetadata/nope :: unrecognized field found but not allowed"},
		{`{"lastObserved":"x"}`, `{"lastObserved":"x"}`, "ERROR :: /proposal/systemMetadata/lastObserved"},
	}
	for _, tc := range tests {
		c, err := gms.CheckSystemMetadata([]byte(tc.in))
		msg := ""
		if err != nil {
			msg = gms.PegasusMessageAt("/proposal/systemMetadata", err)
		}
		if string(c) != tc.want || (tc.msg == "") != (msg == "") || !strings.HasPrefix(msg, tc.msg) {
			t.Errorf("CheckSystemMetadata(%s) = %s, %q; want %s, %q...", tc.in, c, msg, tc.want, tc.msg)
		}
	}
}

// TestReceivedSchemaVersion: a write without a schemaVersion gets its
// aspect's @Aspect schemaVersion (upstreamLineage: 2), 1 when the
// annotation names none, as ChangeItemImpl stamps it.
func TestReceivedSchemaVersion(t *testing.T) {
	t.Parallel()
	for aspect, want := range map[string]string{"upstreamLineage": "2", "assertionInfo": "3", "status": "1"} {
		w := store.Write{URN: ds, Aspect: aspect, SystemMetadata: json.RawMessage(`{"lastObserved":5}`)}
		_, sm, err := gms.Rules{}.Received(&w, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := jsonx.Object(sm).Get("schemaVersion"); string(got) != want {
			t.Errorf("%s: schemaVersion %s, want %s", aspect, got, want)
		}
	}
}
