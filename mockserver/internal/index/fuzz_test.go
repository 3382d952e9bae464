package index

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
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

// FuzzParseQuery feeds arbitrary texts to a search in both syntaxes: it
// never panics, a free-text query never fails and a structured one fails
// only with ErrQuerySyntax (or ErrBadQuery for its length).
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"orders daily", `a | b -(c "d e"~2) f~1 g*`, `name:(a OR b) AND NOT c^2`,
		`createdAt:[1 TO *} _exists_:x /re.*/ "unclosed`, `\/q a:b:c`, `((a)`, `a AND`, `\`, `"\`, `[a TO b`} {
		f.Add(s, false)
		f.Add(s, true)
	}
	st := store.OpenMemory(time.Now)
	x := New(st, Options{})
	f.Cleanup(func() { x.Close(); _ = st.Close() })
	u := "urn:li:dataset:(urn:li:dataPlatform:hive,orders,PROD)"
	if err := st.Put(store.Aspect{URN: u, Name: "datasetProperties",
		Value: json.RawMessage(`{"name":"Orders Daily","description":"every order","created":{"time":100}}`)}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, structured bool) {
		_, err := x.Search(Query{Text: text, Structured: structured, Count: 1})
		if err == nil || errors.Is(err, ErrBadQuery) {
			return
		}
		if !structured && !strings.HasPrefix(strings.TrimSpace(text), structuredPrefix) {
			t.Fatalf("free text %q: %v", text, err)
		}
		if !errors.Is(err, ErrQuerySyntax) {
			t.Fatalf("%q: %v", text, err)
		}
	})
}
