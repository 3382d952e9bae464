package openapi

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// writeSide is a Handler on a core of its own with a fixed clock, the
// proposals it recorded and their outcomes.
type writeSide struct {
	h  *Handler
	st *store.Store
	mu sync.Mutex
	// received is the proposals recorded with their outcomes, as
	// "<urn> <aspect> <value> -> <refusal>".
	received []string
}

// newWriteSide is a writeSide whose Handler takes the quick path or not.
func newWriteSide(tb testing.TB, quick bool) *writeSide {
	return newWriteSideWith(tb, quick, gms.Options{})
}

// newLaxWriteSide is newWriteSide on a core that takes datasetProperties and
// status as they come (gms.Options.AcceptUnknown).
func newLaxWriteSide(tb testing.TB, quick bool) *writeSide {
	return newWriteSideWith(tb, quick, gms.Options{AcceptUnknown: map[string]bool{"datasetProperties": true, "status": true}})
}

// newWriteSideWith is newWriteSide on a core with opts (its clock set).
func newWriteSideWith(tb testing.TB, quick bool, opts gms.Options) *writeSide {
	now := time.UnixMilli(1_700_000_000_000).UTC()
	clock := func() time.Time { return now }
	st := store.OpenMemory(clock)
	opts.Clock = clock
	c := gms.New(st, opts)
	tb.Cleanup(func() { _ = c.Close(); _ = st.Close() })
	ws := &writeSide{st: st}
	ws.h = New(c, Hooks{Clock: clock, Receive: func(ps []gms.Proposal, async, batch bool) func(string) {
		got := make([]string, len(ps))
		for i, p := range ps {
			got[i] = p.EntityURN + " " + p.AspectName + " " + string(p.Aspect)
		}
		return func(refusal string) {
			ws.mu.Lock()
			defer ws.mu.Unlock()
			for _, g := range got {
				ws.received = append(ws.received, g+" -> "+refusal)
			}
		}
	}})
	ws.h.general = !quick
	return ws
}

// post sends body to the batch route target through Write and returns
// the answer's status and body.
func (ws *writeSide) post(tb testing.TB, target string, body []byte) (int, string) {
	tb.Helper()
	req := httptest.NewRequest(http.MethodPost, target, bytes.NewReader(body))
	p, ok := ParsePath(req.URL.Path)
	if !ok {
		tb.Fatalf("no route %s", target)
	}
	rec := httptest.NewRecorder()
	ws.h.Write(rec, req, Request{Path: p, TraceID: "trace"})
	return rec.Code, rec.Body.String()
}

// rows is every latest row of ws's store.
func (ws *writeSide) rows(tb testing.TB) []store.Aspect {
	tb.Helper()
	rows, err := ws.st.Rows(store.RowQuery{})
	if err != nil {
		tb.Fatal(err)
	}
	return rows
}

// writeTargets are the batch routes the fuzz tests post to.
var writeTargets = []string{
	"/openapi/v3/entity/dataset?async=false",
	"/openapi/v3/entity/dataset?async=false&systemMetadata=true",
	"/openapi/v3/entity/dataset", // async: answered 202
	"/openapi/v3/entity/generic?async=false",
}

// checkQuickWrite posts body to target on a Handler that takes the quick
// path and one that takes the general path only, and reports any
// difference: status, answer, the proposals recorded with their outcomes,
// the rows stored.
func checkQuickWrite(t *testing.T, quick, general *writeSide, target string, body []byte) {
	t.Helper()
	qs, qb := quick.post(t, target, body)
	gs, gb := general.post(t, target, body)
	if qs != gs || qb != gb {
		t.Fatalf("POST %s %.300s:\nquick   %d %.500s\ngeneral %d %.500s", target, body, qs, qb, gs, gb)
	}
	quick.mu.Lock()
	general.mu.Lock()
	defer quick.mu.Unlock()
	defer general.mu.Unlock()
	if diff := cmp.Diff(general.received, quick.received); diff != "" {
		t.Fatalf("POST %s %.300s: recorded (-general +quick):\n%s", target, body, diff)
	}
	if diff := cmp.Diff(general.rows(t), quick.rows(t)); diff != "" {
		t.Fatalf("POST %s %.300s: stored (-general +quick):\n%s", target, body, diff)
	}
}

// quickWriteSeeds are bodies of batch POSTs: the quickItemsSeeds, and
// lists whose values the core's check refuses for another reason than
// JSON beside values that are not JSON, in either order.
var quickWriteSeeds = append(append([]string(nil), quickItemsSeeds...),
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":"no"}}},`+
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)","status":{"value":{"removed":tru}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":tru}}},`+
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)","status":{"value":{"removed":"no"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"name":"a","customProperties":{"k":1}}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false},"headers":{"If-Version-Match":"7"}}}]`,
	`{"dataset":[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false}}}]}`,
	`{"dataset":[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false]}}}]}`,
)

// TestQuickWriteAgrees: a batch POST answers, records and stores the same
// whether its lists take the quick path, whose values only the core's
// check validates, or the general path, whose decode validates them; in
// particular a value that is not JSON gets the general path's answer and
// is not recorded.
func TestQuickWriteAgrees(t *testing.T) {
	t.Parallel()
	quick, general := newWriteSide(t, true), newWriteSide(t, false)
	for _, target := range writeTargets {
		for _, body := range quickWriteSeeds {
			checkQuickWrite(t, quick, general, target, []byte(body))
		}
	}
	// Values nested to the depth limit and one past it.
	for _, depth := range []int{9997, 9998} {
		value := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
		list := `[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":` + value + `}}]`
		checkQuickWrite(t, quick, general, writeTargets[0], []byte(list))
	}
	// A value that is not JSON answers 400, as the general decode does,
	// and nothing is recorded for it.
	bad := `[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.x,PROD)","status":{"value":{"removed":tru}}}]`
	n := len(quick.received)
	if status, _ := quick.post(t, writeTargets[0], []byte(bad)); status != http.StatusBadRequest {
		t.Errorf("a value that is not JSON: status %d, want 400", status)
	}
	if len(quick.received) != n {
		t.Errorf("a value that is not JSON recorded: %q", quick.received[n:])
	}
}

// FuzzQuickWrite: whatever the body, the quick path and the general one
// answer, record and store the same.
func FuzzQuickWrite(f *testing.F) {
	for _, body := range append(append([]string(nil), quickWriteSeeds...), misreadSeeds...) {
		f.Add([]byte(body), uint8(0))
	}
	quick, general := newWriteSide(f, true), newWriteSide(f, false)
	f.Fuzz(func(t *testing.T, body []byte, target uint8) {
		checkQuickWrite(t, quick, general, writeTargets[int(target)%len(writeTargets)], body)
	})
}

// FuzzSkipContainer: on a text the validating scanner reads as a value
// at valueLevel starting with '{' or '[', skipContainer ends where the
// scanner does; on any text, it ends within it, after a closing bracket.
func FuzzSkipContainer(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":"b\"}"}`, `{"a":["\\",{"b":"}"}]}x`, `{"customProperties":{},"description":"table 1, round 2 (OpenAPI)","tags":[]}`,
		`{"a":"é\u00e9\\\"\n"}`, `{"a":"` + strings.Repeat("x", 40) + `"}`, `{"a":}`, `{"a":1]`, `{"a":"`, `[[[[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		if len(d) == 0 || (d[0] != '{' && d[0] != '[') {
			return
		}
		end := skipContainer(d, 0, valueLevel)
		if end >= 0 && (end > len(d) || (d[end-1] != '}' && d[end-1] != ']')) {
			t.Fatalf("skipContainer(%q) = %d", d, end)
		}
		var sc pdl.Scanner
		sc.Reset(d)
		if v, ok := sc.Value(valueLevel); ok && end != len(v) {
			t.Fatalf("skipContainer(%q) = %d; the scanner's value %q", d, end, v)
		}
	})
}

// TestValueEndBySM: in the emitters' lists every value's end is found by
// the text after it, where skipContainer finds it, and the lists give the
// general path's proposals exactly (no value misread).
func TestValueEndBySM(t *testing.T) {
	t.Parallel()
	s := newQuickHandler(t)
	for _, list := range [][]byte{[]byte(quickItemsSeeds[0]), chunkList(chunkItems[0], 150)} {
		found := 0
		for i := 0; ; {
			j := bytes.Index(list[i:], keyValue)
			if j < 0 {
				break
			}
			start := i + j + len(keyValue)
			want := skipContainer(list, start, valueLevel)
			// No guess, the right one, and wrong ones.
			for _, guess := range []int{0, want - start, want - start - 1, want - start + 1, 2, smWindow + 1} {
				if end := valueEndBySM(list, start, guess); end != want {
					t.Fatalf("value at %d of %.100s, guess %d: valueEndBySM %d, skipContainer %d", start, list[start:], guess, end, want)
				}
			}
			found++
			i = start
		}
		if found < 2 {
			t.Fatalf("%d values found in %.100s", found, list)
		}
		for _, k := range []int{1, 2} {
			var ps []gms.Proposal
			var echoes []proposalEcho
			if !quickItemsIn(k, list, &ps, &echoes) {
				t.Fatalf("the emitters' list in %d chunks not taken", k)
			}
			want, wantEchoes, e := generalItems(s, list)
			if e != nil {
				t.Fatal(e.err)
			}
			for i := range echoes {
				echoes[i].plainURN = false // the general path marks none
			}
			if diff := cmp.Diff(want, ps); diff != "" {
				t.Errorf("%d chunks: proposals (-general +quick):\n%s", k, diff)
			}
			if diff := cmp.Diff(wantEchoes, echoes, cmp.AllowUnexported(proposalEcho{})); diff != "" {
				t.Errorf("%d chunks: echoes (-general +quick):\n%s", k, diff)
			}
		}
	}
}

// misreadSeeds are batch POSTs whose values valueEndBySM ends wrongly: a
// value holding the text it looks for outside its strings, an item
// without systemMetadata before one with it, and a value longer than
// smWindow.
var misreadSeeds = []string{
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"customProperties":{"a":"b"},"systemMetadata":{"runId":"x"}},"systemMetadata":{"runId":"r"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"customProperties":{},"systemMetadata":{},"description":"d"},"systemMetadata":{"runId":"r"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false}}},` +
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)","status":{"value":{"removed":true},"systemMetadata":{"runId":"r"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"description":"` + strings.Repeat("x", smWindow) + `"},"systemMetadata":{"runId":"r"}}}]`,
}

// guessMisread is a batch POST of two values whose second valueEndBySM
// ends wrongly when it guesses the first's length.
func guessMisread() []byte {
	v2 := `{"description":"d"}`
	sm2 := `,"systemMetadata":{"properties":{"a":"b"},"systemMetadata":{"runId":"r"}}`
	n := len(v2) + len(`,"systemMetadata":{"properties":{"a":"b"`) + 1 // to the '}' after "b", with it
	v1 := `{"description":"` + strings.Repeat("x", n-len(`{"description":""}`)) + `"}`
	return []byte(`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":` + v1 +
		`,"systemMetadata":{"runId":"r"}}},{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)","datasetProperties":{"value":` +
		v2 + sm2 + `}}]`)
}

// TestValueEndBySMMisread: a batch POST whose values valueEndBySM ends
// wrongly answers, records and stores as the general path does, on a core
// that checks the values against their records and on one that takes
// them as they come (AcceptUnknown, where the first value is stored).
func TestValueEndBySMMisread(t *testing.T) {
	t.Parallel()
	misread := 0
	for _, body := range misreadSeeds[:3] { // the seeds do misread
		list := []byte(body)
		start := bytes.Index(list, keyValue) + len(keyValue)
		if end := valueEndBySM(list, start, 0); end >= 0 && end != skipContainer(list, start, valueLevel) {
			misread++
		}
	}
	if misread != 3 {
		t.Errorf("%d of the first three misreadSeeds misread, want 3", misread)
	}
	// A value that the previous value's length (the guess) misreads and
	// the first match does not: the '}' guess bytes from its start closes
	// an object within the systemMetadata after it.
	guessed := guessMisread()
	start := bytes.LastIndex(guessed, keyValue) + len(keyValue)
	first := bytes.Index(guessed, keyValue) + len(keyValue)
	guess := skipContainer(guessed, first, valueLevel) - first
	want := skipContainer(guessed, start, valueLevel)
	if end := valueEndBySM(guessed, start, guess); end < 0 || end == want {
		t.Errorf("guessMisread: the guess %d ends the value at %d, skipContainer at %d", guess, end, want)
	}
	if end := valueEndBySM(guessed, start, 0); end != want {
		t.Errorf("guessMisread: the first match ends the value at %d, skipContainer at %d", end, want)
	}
	quick, general := newWriteSide(t, true), newWriteSide(t, false)
	laxQuick, laxGeneral := newLaxWriteSide(t, true), newLaxWriteSide(t, false)
	for _, target := range writeTargets {
		for _, body := range append(misreadSeeds[:len(misreadSeeds):len(misreadSeeds)], string(guessed)) {
			checkQuickWrite(t, quick, general, target, []byte(body))
			checkQuickWrite(t, laxQuick, laxGeneral, target, []byte(body))
		}
	}
	if len(laxQuick.rows(t)) == 0 {
		t.Error("the lax core stored nothing")
	}
}

// FuzzValueEndBySM: where valueEndBySM ends a text that the validating
// scanner reads as a value, whatever its guess, it ends it where
// skipContainer does; and it ends a value only before the text it looks
// for.
func FuzzValueEndBySM(f *testing.F) {
	for _, s := range []string{`{"a":1},"systemMetadata":{}`, `{"a":{}},"systemMetadata":`, `{"a":"},\"systemMetadata\":"},"systemMetadata":`,
		`{"a":{"b":1},"systemMetadata":2},"systemMetadata":{}`, `{}`, `{"a":"}`} {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(7))
	}
	f.Fuzz(func(t *testing.T, d []byte, guess uint16) {
		if len(d) == 0 || d[0] != '{' {
			return
		}
		end := valueEndBySM(d, 0, int(guess))
		if end < 0 {
			return
		}
		if end > smWindow || !bytes.HasPrefix(d[end-1:], valueThenSM) {
			t.Fatalf("valueEndBySM(%q) = %d", d, end)
		}
		var sc pdl.Scanner
		sc.Reset(d[:end])
		if _, ok := sc.Value(valueLevel); ok && sc.Done() {
			if want := skipContainer(d, 0, valueLevel); end != want {
				t.Fatalf("valueEndBySM(%q) = %d, a value; skipContainer %d", d, end, want)
			}
		}
	})
}
