package graphql

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestAnswersKept checks which answers the handler keeps: those of requests
// that only read the store and answered no error. The store version is held
// still, so that only the kind of request decides.
func TestAnswersKept(t *testing.T) {
	t.Parallel()
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,kept,PROD)"
	tests := []struct {
		name, query string
		kept        bool
		errs        bool // the answer has errors
	}{
		{"dataset", `{ dataset(urn: "` + ds + `") { urn exists } }`, true, false},
		{"entity and entities", `{ entity(urn: "` + ds + `") { urn } entities(urns: ["` + ds + `"]) { urn } }`, true, false},
		{"every store root", `{ dataPlatform(urn: "urn:li:dataPlatform:hive") { name } dataset(urn: "` + ds + `") { urn }
		  mlModel(urn: "urn:li:mlModel:(urn:li:dataPlatform:x,m,PROD)") { urn } mlModelGroup(urn: "urn:li:mlModelGroup:(urn:li:dataPlatform:x,g,PROD)") { urn }
		  mlFeature(urn: "urn:li:mlFeature:(n,f)") { urn } mlFeatureTable(urn: "urn:li:mlFeatureTable:(urn:li:dataPlatform:x,t)") { urn }
		  entityExists(urn: "` + ds + `") }`, true, false},
		{"a resolver error", `{ dataset(urn: "urn:li:mlFeature:(n,f)") { urn } }`, false, true},
		{"a validation error", `{ dataset(urn: "` + ds + `") { nope } }`, false, true},
		{"search beside a store read", `{ dataset(urn: "` + ds + `") { urn } searchAcrossEntities(input: {query: "*"}) { total } }`, false, false},
		{"search", `{ search(input: {type: DATASET, query: "*"}) { total } }`, false, false},
		{"scroll", `{ scrollAcrossEntities(input: {query: "*"}) { nextScrollId } }`, false, false},
		{"aggregate", `{ aggregateAcrossEntities(input: {query: "*"}) { facets { field } } }`, false, false},
		{"lineage", `{ searchAcrossLineage(input: {urn: "` + ds + `", direction: UPSTREAM}) { total } }`, false, false},
		{"introspection, from the schema alone", `{ __schema { queryType { name } } }`, true, false},
		{"mutation", `mutation { updateLineage(input: {edgesToAdd: [], edgesToRemove: []}) }`, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			core, _ := newTestCore(t)
			h, err := New(core, WithStoreVersion(func() uint64 { return 1 }))
			if err != nil {
				t.Fatal(err)
			}
			body := fmt.Sprintf(`{"query":%q}`, tt.query)
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)))
			if w.Code != http.StatusOK {
				t.Fatalf("status %d: %s", w.Code, w.Body)
			}
			if errs := strings.Contains(w.Body.String(), `"errors"`); errs != tt.errs {
				t.Fatalf("errors answered: %v, want %v: %s", errs, tt.errs, w.Body)
			}
			answer, kept := h.answers.get([]byte(body), 1)
			if kept != tt.kept {
				t.Fatalf("kept = %v, want %v; answer %s", kept, tt.kept, w.Body)
			}
			if kept && string(answer) != w.Body.String() {
				t.Errorf("kept %s, answered %s", answer, w.Body)
			}
		})
	}
}

func TestAnswerCache(t *testing.T) {
	t.Parallel()
	var c answerCache
	c.put([]byte("a"), []byte("A1"), 1)
	if got, ok := c.get([]byte("a"), 1); !ok || string(got) != "A1" {
		t.Fatalf("get = %q, %v", got, ok)
	}
	if _, ok := c.get([]byte("a"), 2); ok {
		t.Error("an answer of version 1 served at version 2")
	}
	// A newer version empties the cache; an older one is not kept.
	c.put([]byte("b"), []byte("B2"), 2)
	if _, ok := c.get([]byte("a"), 1); ok {
		t.Error("version 1 kept beside version 2")
	}
	c.put([]byte("a"), []byte("A1"), 1)
	if _, ok := c.get([]byte("a"), 1); ok {
		t.Error("an answer of an older version replaced the newer ones")
	}
	if got, ok := c.get([]byte("b"), 2); !ok || string(got) != "B2" {
		t.Errorf("get b = %q, %v", got, ok)
	}
	// The kept answer is a copy.
	answer := []byte("C2")
	c.put([]byte("c"), answer, 2)
	answer[0] = 'x'
	if got, _ := c.get([]byte("c"), 2); string(got) != "C2" {
		t.Errorf("kept answer changed with the caller's buffer: %q", got)
	}
	// The cache holds at most maxAnswerBytes.
	pad := strings.Repeat("x", 64<<10)
	for i := range 3 * maxAnswerBytes / len(pad) {
		c.put([]byte(fmt.Sprint(i)), []byte(pad), 2)
		held := 0
		for k, v := range c.m {
			held += len(k) + len(v)
		}
		if held > maxAnswerBytes || held != c.bytes {
			t.Fatalf("cache holds %d bytes (counted %d), limit %d", held, c.bytes, maxAnswerBytes)
		}
	}
	// An answer larger than a quarter of the bound is not kept.
	huge := []byte(strings.Repeat("y", maxAnswerBytes/4))
	c.put([]byte("huge"), huge, 2)
	if _, ok := c.get([]byte("huge"), 2); ok {
		t.Error("an answer beyond the bound was kept")
	}
}

func TestEntityCache(t *testing.T) {
	t.Parallel()
	var c entityCache
	a := &loadedEntity{aspects: []gms.Aspect{{Name: "status", Value: []byte(`{"removed":false}`)}}, key: &keyJSON{}}
	c.put("u", a, 1)
	if got, ok := c.get("u", 1); !ok || got != a {
		t.Fatalf("get = %v, %v", got, ok)
	}
	if _, ok := c.get("u", 2); ok {
		t.Error("an entity of version 1 served at version 2")
	}
	c.put("v", a, 2)
	if _, ok := c.get("u", 1); ok {
		t.Error("version 1 kept beside version 2")
	}
	c.put("u", a, 1)
	if _, ok := c.get("u", 1); ok {
		t.Error("an entity of an older version replaced the newer ones")
	}
	// The cache holds at most maxLoadedBytes of aspect JSON.
	pad := []byte(strings.Repeat("x", 64<<10))
	big := &loadedEntity{aspects: []gms.Aspect{{Name: "a", Value: pad}}}
	for i := range 3 * maxLoadedBytes / len(pad) {
		c.put(fmt.Sprint(i), big, 2)
		held := 0
		for k, l := range c.m {
			held += len(k)
			for _, a := range l.aspects {
				held += len(a.Name) + len(a.Value)
			}
		}
		if held > maxLoadedBytes || held != c.bytes {
			t.Fatalf("cache holds %d bytes (counted %d), limit %d", held, c.bytes, maxLoadedBytes)
		}
	}
	huge := &loadedEntity{aspects: []gms.Aspect{{Name: "a", Value: []byte(strings.Repeat("y", maxLoadedBytes/4))}}}
	c.put("huge", huge, 2)
	if _, ok := c.get("huge", 2); ok {
		t.Error("an entity beyond the bound was kept")
	}
}

// TestEntityRootAnswersKept: the answer of a typed entity read (chart,
// container) is kept as a dataset read's is.
func TestEntityRootAnswersKept(t *testing.T) {
	t.Parallel()
	core, _ := newTestCore(t)
	h, err := New(core, WithStoreVersion(func() uint64 { return 1 }))
	if err != nil {
		t.Fatal(err)
	}
	body := `{"query":"{ container(urn: \"urn:li:container:c\") { urn exists properties { name } } chart(urn: \"urn:li:chart:(looker,c)\") { urn } }"}`
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(body)))
	if _, kept := h.answers.get([]byte(body), 1); !kept || strings.Contains(w.Body.String(), "errors") {
		t.Errorf("kept %v: %s", kept, w.Body)
	}
}
