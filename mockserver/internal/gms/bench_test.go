package gms

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
)

// benchProposals are n UPSERTs of ownership to distinct datasets, as the
// Python emitter sends them (the aspect's JSON with spaces).
func benchProposals(n int) []Proposal {
	ps := make([]Proposal, n)
	for i := range ps {
		ps[i] = Proposal{EntityType: "dataset", EntityURN: fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:foo,bar%d,PROD)", i),
			ChangeType: "UPSERT", AspectName: "ownership", ContentType: "application/json",
			Aspect:         json.RawMessage(`{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`),
			SystemMetadata: json.RawMessage(`{"lastObserved":1618987484580,"lastRunId":"no-run-id-provided","properties":{"clientId":"acryl-datahub","clientVersion":"1!0.0.0.dev0"},"runId":"no-run-id-provided"}`)}
	}
	return ps
}

// BenchmarkPrepareAll is the core's validation of a batch of 200 proposals
// before the store: the per-proposal cost outside the store's lock.
func BenchmarkPrepareAll(b *testing.B) {
	const n = 200
	ps := benchProposals(n)
	pt := &patch.Patcher{Now: time.Now}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := prepareAll(ps, true, pt, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/proposal")
}

// BenchmarkPrepareAllNewURNs is BenchmarkPrepareAll with URNs the core has
// not seen (its URN cache emptied before every batch): the cost of the
// URN's checks and its key aspect.
func BenchmarkPrepareAllNewURNs(b *testing.B) {
	const n = 200
	ps := benchProposals(n)
	pt := &patch.Patcher{Now: time.Now}
	b.ReportAllocs()
	for b.Loop() {
		urnFactsCache.m.Clear()
		if _, _, err := prepareAll(ps, true, pt, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/proposal")
}
