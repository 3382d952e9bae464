package client

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// TestSearchStuckScroll checks that Search ends with an error when a server
// answers a scroll that does not move: a next scroll id with an empty page,
// or the scroll id it was asked for again. (Before, the empty page was
// asked for again forever.) A handler plays the misbehaving server, which
// the mock never is.
func TestSearchStuckScroll(t *testing.T) {
	t.Parallel()
	const hit = `{"entity":{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)","type":"DATASET"},"matchedFields":[]}`
	for _, tt := range []struct {
		name  string
		pages []string // the answers, in order; the last one repeats
		calls int64
	}{
		{"empty page with a next id", []string{`{"nextScrollId":"again","count":0,"total":3,"searchResults":[]}`}, 1},
		{"the same id again", []string{
			`{"nextScrollId":"a","count":1,"total":3,"searchResults":[` + hit + `]}`,
			`{"nextScrollId":"a","count":1,"total":3,"searchResults":[` + hit + `]}`,
		}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := int(calls.Add(1))
				if n > 50 { // a client that does not stop: end it, so that the test fails and does not hang
					http.Error(w, "too many scroll requests", http.StatusBadRequest)
					return
				}
				page := tt.pages[min(n, len(tt.pages))-1]
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"data":{"scrollAcrossEntities":%s}}`, page)
			}))
			t.Cleanup(srv.Close)
			c, err := New(srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			var last error
			n := 0
			for _, err := range c.Search().Results(t.Context(), "*", EntityType("dataset"), WithPageSize(1)) {
				if err != nil {
					last = err
					break
				}
				if n++; n > 100 {
					t.Fatal("Search did not stop")
				}
			}
			var de *datahub.Error
			if !errors.As(last, &de) || !strings.Contains(de.Message, "scroll id") {
				t.Errorf("Search ended with %v, want a *datahub.Error about the scroll id", last)
			}
			if got := calls.Load(); got != tt.calls {
				t.Errorf("%d scroll requests, want %d", got, tt.calls)
			}
		})
	}
}
