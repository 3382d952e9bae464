package index

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// FuzzScroll feeds arbitrary scroll ids and keep-alives to Scroll: it never
// panics, and what it refuses it refuses with ErrScrollID or ErrBadQuery.
func FuzzScroll(f *testing.F) {
	f.Add("", "5m")
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"sort":[1,"urn:li:tag:a"],"pitId":null,"expirationTime":0}`)), "30s")
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"sort":[2,1,"urn:li:tag:a"],"pitId":"x","expirationTime":9e18}`)), "1h")
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"sort":["a",{}]}`)), "-1m")
	f.Add("%%%", "5 minutes")
	st := store.OpenMemory(time.Now)
	x := New(st, Options{})
	f.Cleanup(func() { x.Close(); _ = st.Close() })
	for _, u := range []string{"urn:li:tag:a", "urn:li:tag:b"} {
		if err := st.Put(store.Aspect{URN: u, Name: "status", Value: json.RawMessage(`{"removed":false}`)}); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, id, keepAlive string) {
		_, err := x.Scroll(Query{Count: 1}, id, keepAlive)
		if err != nil && !errors.Is(err, ErrScrollID) && !errors.Is(err, ErrBadQuery) {
			t.Fatalf("Scroll(%q, %q): %v", id, keepAlive, err)
		}
	})
}
