package mockserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

// scaleServers holds one server per pre-loaded size, built once per test
// binary: BenchmarkUpsertReadScale's -count runs share them.
var scaleServers = struct {
	sync.Mutex
	m map[int]*Server
}{m: map[int]*Server{}}

// scaleURN is the URN of pre-loaded entity i.
func scaleURN(i int) string {
	return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.table_%06d,PROD)", i)
}

// scaleServer returns a server with n datasets, each with its key aspect and
// a datasetProperties aspect, written through the direct Put API (outside
// any benchmark timer).
func scaleServer(b *testing.B, n int) *Server {
	b.Helper()
	scaleServers.Lock()
	defer scaleServers.Unlock()
	if s, ok := scaleServers.m[n]; ok {
		return s
	}
	s := New(WithRecording(false))
	for i := range n {
		v := fmt.Sprintf(`{"name":"table_%06d","description":"pre-loaded","customProperties":{}}`, i)
		if err := s.PutAspectJSON(scaleURN(i), "datasetProperties", json.RawMessage(v)); err != nil {
			b.Fatal(err)
		}
	}
	scaleServers.m[n] = s
	return s
}

// upsertAndRead sends one ingestProposal UPSERT of entity i's
// datasetProperties (a new value each call, so every write versions) and then
// GET /entitiesV2 of the same entity, through ServeHTTP.
func upsertAndRead(b *testing.B, s *Server, i, call int) {
	urn := scaleURN(i)
	value, err := json.Marshal(fmt.Sprintf(`{"name":"table_%06d","description":"call %d","customProperties":{}}`, i, call))
	if err != nil {
		b.Fatal(err)
	}
	body := `{"proposal":{"entityType":"dataset","entityUrn":` + mustJSON(b, urn) +
		`,"changeType":"UPSERT","aspectName":"datasetProperties","aspect":{"value":` + string(value) +
		`,"contentType":"application/json"}}}`
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposal", bytes.NewReader([]byte(body))))
	if rec.Code != http.StatusOK {
		b.Fatalf("upsert %s = %d %s", urn, rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/entitiesV2/"+url.PathEscape(urn), nil))
	if rec.Code != http.StatusOK || !bytes.Contains(rec.Body.Bytes(), fmt.Appendf(nil, "call %d", call)) {
		b.Fatalf("get %s = %d %s, want the value just written", urn, rec.Code, rec.Body)
	}
}

// BenchmarkUpsertReadScale measures one UPSERT plus one GET /entitiesV2 of
// the same entity on a server holding 1,000 entities and on one holding
// 100,000, in turns (so machine noise hits both alike), and reports each
// side's time per operation and their ratio ratio-100k/1k (the target is at
// most 2: a write and a point read are O(log n)). The entities written are
// spread over each store.
func BenchmarkUpsertReadScale(b *testing.B) {
	const small, large = 1_000, 100_000
	ss, sl := scaleServer(b, small), scaleServer(b, large)
	var smallT, largeT time.Duration
	call := 0
	for b.Loop() {
		call++
		start := time.Now()
		upsertAndRead(b, ss, (call*7919)%small, call)
		mid := time.Now()
		upsertAndRead(b, sl, (call*7919)%large, call)
		largeT += time.Since(mid)
		smallT += mid.Sub(start)
	}
	b.ReportMetric(float64(smallT.Nanoseconds())/float64(b.N), "1k-ns/op")
	b.ReportMetric(float64(largeT.Nanoseconds())/float64(b.N), "100k-ns/op")
	b.ReportMetric(float64(largeT)/float64(smallT), "ratio-100k/1k")
}
