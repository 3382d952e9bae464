package openapi

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// quickItemsSeeds are batch write bodies as the emitters send them, and
// bodies the quick path leaves to the general one, valid and not.
var quickItemsSeeds = []string{
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"customProperties":{},"description":"a","tags":[]},"systemMetadata":{"lastObserved":1700000000000,"runId":"no-run-id-provided","lastRunId":"no-run-id-provided","properties":{"clientId":"datahub-go","clientVersion":"0.1.0"}}}},` +
		`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)","datasetProperties":{"value":{"customProperties":{},"description":"b","tags":[]},"systemMetadata":{"lastObserved":1700000000000,"runId":"no-run-id-provided","lastRunId":"no-run-id-provided","properties":{"clientId":"datahub-go","clientVersion":"0.1.0"}}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false},"headers":{"If-Version-Match":"-1"}},"datasetProperties":{"value":{"name":"n"}}}]`,
	` [ { "urn" : "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)" , "status" : { "value" : { "removed" : true } , "systemMetadata" : { "runId" : "r" } } } ] `,
	`[]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetproperties":{"value":{"name":"n"}}}]`,
	// The general path's only:
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false}},"status":{"value":{"removed":true}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","notAnAspect":{"value":{}}}]`,
	`[{"status":{"value":{"removed":false}},"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)"}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.\u0061,PROD)","st\u0061tus":{"value":{"removed":false}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":null}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":[1]}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"systemMetadata":{}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{},"systemMetadata":null}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{},"headers":{"a":"1","a":"2"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{},"headers":{"a":1}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{},"Value":{}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{},"other":1}}]`,
	`[{"urn":"not a urn","status":{"value":{}}}]`,
	`[{"urn":"urn:li:nothing:x","status":{"value":{}}}]`,
	`[{"urn":1}]`,
	// Taken, the values not JSON: the core refuses them, then the general
	// path answers (see uncheckedSeeds).
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"a":}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":false]}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{"removed":tru}}}]`,
	"[{\"urn\":\"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)\",\"datasetProperties\":{\"value\":{\"name\":\"a\tb\"}}}]",
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"name":"a\x"}}}]`,
	// Taken, valid: an escaped quote before a brace in a string.
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"name":"a\"}"}}}]`,
	// Not taken: a string that does not end.
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"name":"a\"}}}]`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{}}}] x`,
	`[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":{}}},]`,
	`[1]`,
	`{}`,
	``,
}

// uncheckedSeeds are the quickItemsSeeds after the first six that the
// quick path takes: values that are not JSON, which the general path
// refuses, and a value with an escaped quote before a brace.
var uncheckedSeeds = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range quickItemsSeeds {
		if strings.Contains(s, `"value":{"a":}`) || strings.Contains(s, `false]`) || strings.Contains(s, `:tru}`) ||
			strings.Contains(s, "a\tb") || strings.Contains(s, `a\x`) || strings.Contains(s, `"a\"}"`) {
			m[s] = true
		}
	}
	return m
}()

// generalItems is the general path's decode of a batch POST list.
func generalItems(s *Handler, list []byte) ([]gms.Proposal, []proposalEcho, *openAPIError) {
	items, e := decodeItems(new(pdl.Outline), list)
	if e != nil {
		return nil, nil, e
	}
	targets, e := s.checkItemAspects(items)
	if e != nil {
		return nil, nil, e
	}
	var ps []gms.Proposal
	var echoes []proposalEcho
	if e := itemProposals(items, targets, v3Write{}, &ps, &echoes); e != nil {
		return nil, nil, e
	}
	return ps, echoes, nil
}

// newQuickHandler is a Handler on a core of its own, for the general path's
// checks.
func newQuickHandler(tb testing.TB) *Handler {
	st := store.OpenMemory(nil)
	c := gms.New(st, gms.Options{})
	tb.Cleanup(func() { _ = c.Close(); _ = st.Close() })
	return New(c, Hooks{})
}

// checkQuickItems: a list quickItems takes gives the general path's
// proposals and echoes, and one it leaves leaves ps and echoes as they
// came. The one exception is a list that holds the text valueEndBySM looks
// for (valueThenSM) where the value does not end: its proposals may then
// differ, but only with a value that is not JSON (uncheckedInvalid),
// which the core refuses, so that Write answers it by the general path
// (TestValueEndBySMMisread).
func checkQuickItems(t *testing.T, s *Handler, list []byte) (taken bool) {
	t.Helper()
	return checkQuickItemsIn(t, s, 1, list)
}

// checkQuickItemsIn is checkQuickItems reading the list in k chunks.
func checkQuickItemsIn(t *testing.T, s *Handler, k int, list []byte) (taken bool) {
	t.Helper()
	before := []gms.Proposal{{EntityURN: "before"}}
	ps, echoes := before[:1:1], []proposalEcho{{urn: "before"}}
	if !quickItemsIn(k, list, &ps, &echoes) {
		if len(ps) != 1 || len(echoes) != 1 {
			t.Errorf("quickItems(%s) failed but left %d proposals, %d echoes", list, len(ps), len(echoes))
		}
		return false
	}
	want, wantEchoes, e := generalItems(s, list)
	if e != nil {
		// Only for a value that is not JSON: the core's check refuses it
		// and Write then answers as the general path does.
		if !uncheckedInvalid(ps[1:]) {
			t.Errorf("quickItems(%s) took what the general path refuses, with valid values: %v %s", list, e.err, e.message)
		}
		return true
	}
	gotPs, gotEchoes := ps[1:], echoes[1:]
	if len(gotPs) == 0 && len(gotEchoes) == 0 { // the general path's nil
		gotPs, gotEchoes = nil, nil
	}
	if bytes.Contains(list, valueThenSM) && uncheckedInvalid(gotPs) {
		return true // a value's end misread (see valueEndBySM)
	}
	// A URN marked plain must be; the general path marks none.
	for i := range gotEchoes {
		if ec := &gotEchoes[i]; ec.plainURN {
			if !plainJSONString(ec.urn) {
				t.Errorf("quickItems(%s): URN %q marked plain", list, ec.urn)
			}
			ec.plainURN = false
		}
	}
	if diff := cmp.Diff(want, gotPs); diff != "" {
		t.Errorf("quickItems(%s) proposals (-general +quick):\n%s", list, diff)
	}
	if diff := cmp.Diff(wantEchoes, gotEchoes, cmp.AllowUnexported(proposalEcho{})); diff != "" {
		t.Errorf("quickItems(%s) echoes (-general +quick):\n%s", list, diff)
	}
	return true
}

// TestQuickItems: the emitters' bodies take the quick path, and what it
// takes it decodes as the general path does.
func TestQuickItems(t *testing.T) {
	t.Parallel()
	s := newQuickHandler(t)
	for i, list := range quickItemsSeeds {
		taken := checkQuickItems(t, s, []byte(list))
		if want := i < 6 || uncheckedSeeds[list]; taken != want {
			t.Errorf("quickItems(%s) taken = %v, want %v", list, taken, want)
		}
	}
	// Values nested to the depth limit (encoding/json's, with the list, the
	// item and the part around them) and one past it.
	for _, depth := range []int{9997, 9998} {
		value := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
		list := `[{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","status":{"value":` + value + `}}]`
		taken := checkQuickItems(t, s, []byte(list))
		_, _, e := generalItems(s, []byte(list))
		if taken != (e == nil) {
			t.Errorf("value of depth %d: quick %v, general error %v", depth, taken, e)
		}
	}
}

// FuzzQuickItems: whatever the quick path takes it decodes as the general
// path does.
func FuzzQuickItems(f *testing.F) {
	for _, list := range quickItemsSeeds {
		f.Add([]byte(list))
	}
	s := newQuickHandler(f)
	f.Fuzz(func(t *testing.T, list []byte) { checkQuickItems(t, s, list) })
}

// chunkItems are items of lists read in chunks: as the emitters send
// them, and with values holding the text an item starts with.
var chunkItems = []string{
	`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)","datasetProperties":{"value":{"customProperties":{},"description":"a","tags":[]},"systemMetadata":{"lastObserved":1700000000000,"runId":"no-run-id-provided","lastRunId":"no-run-id-provided","properties":{"clientId":"datahub-go","clientVersion":"0.1.0"}}}}`,
	`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)","globalTags":{"value":{"tags":[{"tag":"urn:li:tag:a"},{"tag":"urn:li:tag:b"}]}}}`,
	`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.c,PROD)","datasetProperties":{"value":{"customProperties":{"k":"v"},"x":[{"y":1}, {"urn":"u"},{"urn":2}]}}}`,
	` { "urn" : "urn:li:dataset:(urn:li:dataPlatform:hive,db.d,PROD)" , "status" : { "value" : { "removed" : false } } } `,
	`{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.e,PROD)","status":{"value":{"removed":false},"headers":{"If-Version-Match":"2"}}}`,
}

// chunkList is a list of n copies of item, the URNs of the copies made
// distinct.
func chunkList(item string, n int) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strings.Replace(item, ",PROD)", fmt.Sprintf("%d,PROD)", i), 1))
	}
	b.WriteByte(']')
	return []byte(b.String())
}

// TestQuickItemsChunks: lists read in chunks give the general path's
// proposals, in order, whatever the number of chunks and where the
// chunks' shares of the text fall, also when values hold the text an item
// starts with and when items of several shapes mix.
func TestQuickItemsChunks(t *testing.T) {
	t.Parallel()
	s := newQuickHandler(t)
	var mixed []string
	for i := range 150 {
		one := chunkList(chunkItems[i%len(chunkItems)], 1)
		mixed = append(mixed, string(one[1:len(one)-1]))
	}
	lists := [][]byte{[]byte("[" + strings.Join(mixed, ",") + "]")}
	for _, item := range chunkItems {
		lists = append(lists, chunkList(item, 150))
	}
	for _, list := range lists {
		for _, k := range []int{1, 2, 3, 5} {
			if !checkQuickItemsIn(t, s, k, list) {
				t.Errorf("list of %d bytes in %d chunks not taken: %.200s", len(list), k, list)
			}
		}
	}
	// The emitters' lists are read in chunks indeed.
	for k := 2; k <= 5; k++ {
		list := lists[1]
		sc := new(pdl.Scanner)
		sc.Reset(list)
		if _, ok := sc.Enter('['); !ok {
			t.Fatal("no list")
		}
		var ps []gms.Proposal
		var echoes []proposalEcho
		if !quickChunks(sc, list, sc.Pos(), k, 64, &ps, &echoes) || len(ps) != 150 || !sc.Done() {
			t.Errorf("the emitter's list in %d chunks: not read in chunks (%d proposals)", k, len(ps))
		}
	}
	// A list the quick path leaves, in chunks: an item of another shape
	// in the last chunk.
	bad := chunkList(chunkItems[0], 150)
	bad = bytes.Replace(bad, []byte(`"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.a149,PROD)"`), []byte(`"urn":1`), 1)
	for k := 1; k <= 3; k++ {
		if checkQuickItemsIn(t, s, k, bad) {
			t.Errorf("a list with a number for a URN taken in %d chunks", k)
		}
	}
}

// FuzzQuickItemsChunks: a list of many copies of one item, read in
// chunks, gives the general path's proposals when the quick path takes
// it.
func FuzzQuickItemsChunks(f *testing.F) {
	for _, item := range chunkItems {
		f.Add(item, uint8(100), uint8(1))
	}
	s := newQuickHandler(f)
	f.Fuzz(func(t *testing.T, item string, n, k uint8) {
		checkQuickItemsIn(t, s, 2+int(k%3), chunkList(item, int(n)))
	})
}
