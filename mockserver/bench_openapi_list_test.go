package mockserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// BenchmarkOpenAPIListPage lists a page of 10 datasets through GET
// /openapi/v3/entity/dataset over 10,000 and 100,000 pre-loaded entities:
// the first page, and a page from a scroll id in the middle, plain and
// sorted by a field (sortCriteria=name; its pages after the first reuse
// the sorted matches while the index does not change). A page should cost
// about the same at both sizes (O(page)); compare the ns/op of the sizes.
func BenchmarkOpenAPIListPage(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		s := scaleServer(b, n)
		mid := ""
		{ // a scroll id half-way, from the page before it
			rec := httptest.NewRecorder()
			req := httptest.NewRequest(http.MethodGet, "/openapi/v3/entity/dataset?count="+strconv.Itoa(n/2), nil)
			s.ServeHTTP(rec, req)
			mid = scrollIDOf(b, rec.Body.Bytes())
		}
		for _, c := range []struct{ name, query string }{
			{"first", "count=10"},
			{"middle", "count=10&scrollId=" + mid},
			{"sorted", "count=10&sortCriteria=name&sortOrder=DESCENDING"},
		} {
			b.Run(c.name+"/n="+strconv.Itoa(n), func(b *testing.B) {
				req := httptest.NewRequest(http.MethodGet, "/openapi/v3/entity/dataset?"+c.query, nil)
				s.ServeHTTP(httptest.NewRecorder(), req) // warm: the index's first search indexes every document
				for b.Loop() {
					rec := httptest.NewRecorder()
					s.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK {
						b.Fatalf("%d %s", rec.Code, rec.Body)
					}
				}
			})
		}
	}
}

// scrollIDOf is the scrollId of a page's JSON.
func scrollIDOf(b *testing.B, body []byte) string {
	b.Helper()
	var page struct {
		ScrollID string `json:"scrollId"`
	}
	if err := json.Unmarshal(body, &page); err != nil || page.ScrollID == "" {
		b.Fatalf("no scroll id in %.200s (%v)", body, err)
	}
	return page.ScrollID
}
