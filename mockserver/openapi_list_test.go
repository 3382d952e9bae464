package mockserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestV3ScrollNamesOnce: an entity type or aspect named more than once (in
// any case) in a scroll's body is answered once: each entity once, with the
// right totalCount, each aspect once. It failed before: three "dataset"
// answered the dataset three times with totalCount 3.
func TestV3ScrollNamesOnce(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	ingest(t, s, mcp("dataset", v3DS, "UPSERT", "status", `{"removed":false}`))
	tests := []struct{ name, body string }{
		{"repeated", `{"entities":["dataset","dataset","dataset"],"aspects":["status","status"]}`},
		{"case variants", `{"entities":["dataset","DATASET","Dataset"],"aspects":["status","STATUS","Status"]}`},
	}
	want := `{"entities":[{"urn":"` + v3DS + `","status":{"value":{"removed":false}}}],"facets":[{"field":"entity","aggregations":{"dataset":1}}],"totalCount":1}`
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := serve(t, s, "POST", "/openapi/v3/entity/scroll?count=100", tc.body)
			if diff := cmp.Diff(want, r.Body); r.Status != 200 || diff != "" {
				t.Errorf("%d (-want +got):\n%s", r.Status, diff)
			}
		})
	}
	// A GET of the entity with a repeated aspect name answers it once too.
	r := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+v3DS+"?aspects=status,status&aspects=Status", "")
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.Body), &got); err != nil || len(got) != 2 || strings.Count(r.Body, `"status"`) != 1 {
		t.Errorf("GET with a repeated aspect: %d %s", r.Status, r.Body)
	}
}

// TestV3ListStopsWithItsClient: a listing stops with its request's
// context's error once the client has gone, and counts every document of a
// type named several times once.
func TestV3ListStopsWithItsClient(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	const n = 600
	for i := range n {
		ingest(t, s, mcp("dataset", "urn:li:dataset:(urn:li:dataPlatform:hive,t"+itoa(i)+",PROD)", "UPSERT", "status", `{"removed":false}`))
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	page, err := s.core.ListEntities(ctx, []string{"dataset", "dataset"}, "", 10, false)
	if !errors.Is(err, context.Canceled) || page.Total != 0 {
		t.Errorf("ListEntities after cancel: total %d, %v; want context.Canceled", page.Total, err)
	}
	page, err = s.core.ListEntities(t.Context(), []string{"dataset", "dataset", "dataset"}, "", 10, false)
	if err != nil || page.Total != n {
		t.Errorf("ListEntities: total %d, %v; want %d", page.Total, err, n)
	}
}
