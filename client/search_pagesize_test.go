package client

import (
	"encoding/json"
	"net/http/httptest"
	"testing"
)

// TestSearchPageSizeCapped checks that a page size above MaxPageSize is
// sent as MaxPageSize (a count of 900 broke a DataHub server, datahub#13013),
// and that one within the cap is sent as asked.
func TestSearchPageSizeCapped(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"scrollAcrossEntities": `{"data":{"scrollAcrossEntities":{"nextScrollId":null,"count":0,"total":0,"searchResults":[]}}}`,
	}
	for _, tc := range []struct{ asked, sent int }{{900, MaxPageSize}, {MaxPageSize + 1, MaxPageSize}, {MaxPageSize, MaxPageSize}, {7, 7}} {
		f := &fakeGraphQL{gms: &fakeGMS{}, answers: answers}
		srv := httptest.NewServer(f)
		c, err := New(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range c.Search().Results(t.Context(), "*", EntityType("tag"), WithPageSize(tc.asked)) {
			if err != nil {
				t.Fatal(err)
			}
		}
		srv.Close()
		if len(f.gms.reqs) != 1 {
			t.Fatalf("page size %d: %d requests, want 1", tc.asked, len(f.gms.reqs))
		}
		var req struct {
			Variables struct {
				Input struct{ Count int }
			}
		}
		if err := json.Unmarshal(f.gms.reqs[0].Body, &req); err != nil {
			t.Fatal(err)
		}
		if req.Variables.Input.Count != tc.sent {
			t.Errorf("WithPageSize(%d) sent count %d, want %d", tc.asked, req.Variables.Input.Count, tc.sent)
		}
	}
}
