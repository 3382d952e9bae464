package mockserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestLargeBatchInChunks posts batches of 200 proposals, which the mock
// decodes, validates and stores in chunks on the machine's cores: wire
// errors in several chunks come back in the proposals' order, and a good
// batch stores every proposal's own value (with the ownership hook's
// ownerTypes), in order when one entity is written twice.
func TestLargeBatchInChunks(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const n = 200
	urnOf := func(i int) string { return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.chunk%d,PROD)", i) }
	owner := func(i int) string {
		return fmt.Sprintf(`{"owners":[{"owner":"urn:li:corpuser:u%d","type":"DATAOWNER"}],"lastModified":{"time":0,"actor":"urn:li:corpuser:x"}}`, i)
	}
	ps := make([]map[string]any, n)
	for i := range ps {
		ps[i] = mcp("dataset", urnOf(i), "UPSERT", "ownership", owner(i))
	}
	bad := []int{5, 101, 198}
	for _, i := range bad {
		ps[i]["changeType"] = "NOPE"
	}
	r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t, ps...))
	if r.Status != http.StatusBadRequest {
		t.Fatalf("= %d %s, want 400", r.Status, r.Body)
	}
	at := -1
	for _, i := range bad {
		k := strings.Index(r.Body, fmt.Sprintf("/proposals/%d/changeType", i))
		if k < 0 || k < at {
			t.Fatalf("item %d's error missing or out of order in %s", i, r.Body)
		}
		at = k
	}
	for _, i := range bad {
		ps[i]["changeType"] = "UPSERT"
	}
	ps[n-1] = mcp("dataset", urnOf(0), "UPSERT", "ownership", owner(1000)) // entity 0 again, last
	r = serve(t, s, http.MethodPost, "/aspects?action=ingestProposalBatch", batchBody(t, ps...))
	if r.Status != http.StatusOK {
		t.Fatalf("= %d %s", r.Status, r.Body)
	}
	for i := range n - 1 {
		u := i
		if i == 0 {
			u = 1000
		}
		got, err := s.GetAspectJSON(urnOf(i), "ownership", 0)
		want := fmt.Sprintf(`"owners":[{"owner":"urn:li:corpuser:u%d","type":"DATAOWNER"}]`, u)
		types := fmt.Sprintf(`"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:u%d"]}`, u)
		if err != nil || !strings.Contains(string(got), want) || !strings.Contains(string(got), types) {
			t.Fatalf("%s: %s, %v; want %s and %s", urnOf(i), got, err, want, types)
		}
	}
}
