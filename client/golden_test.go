package client

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/urn"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// recorded is one request as the golden files pin it.
type recorded struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"` // escaped path and query, as sent
	Headers map[string]string `json:"headers"`
	Body    json.RawMessage   `json:"body,omitempty"`
}

// goldenHeaders are the request headers pinned (User-Agent carries the Go
// version, so it is checked apart).
var goldenHeaders = []string{"Accept", "Authorization", "Content-Type", "X-Restli-Protocol-Version"}

// fakeGMS records requests under /api/gms and answers them from values:
// aspect name → JSON of a stored aspect (every version "3"); the key
// aspect exists unless noEntity.
type fakeGMS struct {
	values   map[string]string
	noEntity bool

	mu   sync.Mutex
	reqs []recorded
}

// recordOf is r (whose body is body) as the golden files pin it.
func recordOf(r *http.Request, body []byte) recorded {
	rec := recorded{Method: r.Method, Path: r.URL.EscapedPath(), Headers: map[string]string{}}
	if r.URL.RawQuery != "" {
		rec.Path += "?" + r.URL.RawQuery
	}
	for _, h := range goldenHeaders {
		if v := r.Header.Get(h); v != "" {
			rec.Headers[h] = v
		}
	}
	if len(body) > 0 {
		var out bytes.Buffer
		if json.Indent(&out, body, "", "  ") == nil {
			rec.Body = out.Bytes()
		} else {
			rec.Body, _ = json.Marshal(string(body))
		}
	}
	return rec
}

func (f *fakeGMS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rec := recordOf(r, body)
	f.mu.Lock()
	f.reqs = append(f.reqs, rec)
	f.mu.Unlock()

	path, ok := strings.CutPrefix(r.URL.Path, "/api/gms")
	w.Header().Set("Content-Type", "application/json")
	notFound := func() {
		w.Header().Set("X-RestLi-Error-Response", "true")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"exceptionClass":"com.linkedin.metadata.restli.NonExceptionHttpErrorResponse","status":404}`)
	}
	switch {
	case !ok:
		http.Error(w, "the base path /api/gms was dropped", http.StatusTeapot)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/aspects/"):
		name := r.URL.Query().Get("aspect")
		info, _ := aspects.Lookup(name)
		value, ok := f.values[name]
		if strings.HasSuffix(name, "Key") {
			value, ok = `{}`, !f.noEntity
		}
		if !ok {
			notFound()
			return
		}
		io.WriteString(w, `{"version":0,"aspect":{"`+info.RecordName+`":`+value+`}}`)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/entitiesV2/"):
		u := strings.TrimPrefix(path, "/entitiesV2/")
		list := strings.TrimSuffix(strings.TrimPrefix(r.URL.Query().Get("aspects"), "List("), ")")
		got := map[string]any{}
		for name, v := range f.values {
			if list == "" || strings.Contains(","+list+",", ","+name+",") {
				got[name] = map[string]any{"name": name, "type": "VERSIONED", "version": 0, "value": json.RawMessage(v),
					"created":        map[string]any{"time": 1, "actor": "urn:li:corpuser:datahub"},
					"systemMetadata": map[string]any{"runId": "no-run-id-provided", "version": "3"}}
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"urn": u, "entityName": urn.MustParse(u).EntityType(), "aspects": got})
	case r.URL.Query().Get("action") == "ingestProposal", r.URL.Query().Get("action") == "ingestProposalBatch":
		io.WriteString(w, `{"value":"success"}`)
	case r.URL.Query().Get("action") == "getTimeseriesAspectValues":
		io.WriteString(w, `{"value":{"entityName":"dataset","aspectName":"datasetProfile","values":[{"aspect":{"value":"{\"timestampMillis\":2000,\"rowCount\":7}","contentType":"application/json"}}]}}`)
	case r.Method == http.MethodDelete && strings.HasPrefix(path, "/openapi/v3/entity/"):
		w.WriteHeader(http.StatusOK) // an empty body, as DataHub answers
	case r.URL.Query().Get("action") == "delete":
		io.WriteString(w, `{"value":{"urn":"x","rows":2,"timeseriesRows":0}}`)
	default:
		http.Error(w, "unexpected request", http.StatusTeapot)
	}
}

func TestRequestShapes(t *testing.T) {
	t.Parallel()
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user features)").(urn.MLFeatureTable)
	feature := urn.MustParse("urn:li:mlFeature:(user features,age)").(urn.MLFeature)
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)").(urn.Dataset)
	tableJSON := `{"customProperties":{},"mlFeatures":["urn:li:mlFeature:(user features,id)"]}`
	schemaJSON := `{"schemaName":"users","platform":"urn:li:dataPlatform:hive","version":0,"created":{"time":0,"actor":"urn:li:corpuser:unknown"},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"hash":"","platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"fields":[{"fieldPath":"id","nullable":false,"type":{"type":{"com.linkedin.schema.NumberType":{}}},"nativeDataType":"int","recursive":false,"isPartOfKey":false}]}`
	for _, tc := range []struct {
		name     string
		values   map[string]string
		noEntity bool
		call     func(ctx context.Context, c *Client) error
	}{
		{"GetAspect", map[string]string{"mlFeatureTableProperties": tableJSON}, false,
			func(ctx context.Context, c *Client) error {
				_, err := GetAspect[aspects.MLFeatureTableProperties](ctx, c, table)
				return err
			}},
		{"GetVersioned", map[string]string{"mlFeatureTableProperties": tableJSON}, false,
			func(ctx context.Context, c *Client) error {
				_, err := GetVersioned[aspects.MLFeatureTableProperties](ctx, c, table)
				return err
			}},
		{"GetEntity", map[string]string{"mlFeatureTableProperties": tableJSON}, false,
			func(ctx context.Context, c *Client) error {
				if _, err := c.GetEntity(ctx, table); err != nil {
					return err
				}
				_, err := c.GetEntity(ctx, table, "mlFeatureTableProperties", "globalTags")
				return err
			}},
		{"Exists", nil, false, func(ctx context.Context, c *Client) error { _, err := c.Exists(ctx, table); return err }},
		{"GetTimeseries", nil, false, func(ctx context.Context, c *Client) error {
			if _, err := GetTimeseries[aspects.DatasetProfile](ctx, c, ds, TimeseriesQuery{Start: time.UnixMilli(1000), End: time.UnixMilli(3000), Limit: 10}); err != nil {
				return err
			}
			_, err := LatestTimeseries[aspects.DatasetProfile](ctx, c, ds)
			return err
		}},
		{"AddFeatureToTable", map[string]string{"mlFeatureTableProperties": tableJSON}, false,
			func(ctx context.Context, c *Client) error { return c.AddFeatureToTable(ctx, table, feature) }},
		{"AddFeatureToTable absent aspect", nil, false,
			func(ctx context.Context, c *Client) error { return c.AddFeatureToTable(ctx, table, feature) }},
		{"AddFeatureToTable absent entity", nil, true,
			func(ctx context.Context, c *Client) error {
				if err := c.AddFeatureToTable(ctx, table, feature); err == nil {
					return errorString("wrote to a missing entity")
				}
				return nil
			}},
		{"AddLink", nil, false, func(ctx context.Context, c *Client) error {
			return c.AddLink(ctx, ds, "https://wiki.example.com/users?x=1&y=<2>", "Design doc ünïcode")
		}},
		{"AddTag", nil, false, func(ctx context.Context, c *Client) error { return c.AddTag(ctx, ds, testTag) }},
		{"AddTerm", nil, false, func(ctx context.Context, c *Client) error { return c.AddTerm(ctx, ds, testTerm) }},
		{"AddOwner", nil, false, func(ctx context.Context, c *Client) error {
			return c.AddOwner(ctx, ds, testOwner, aspects.OwnershipTypeTechnicalOwner)
		}},
		{"SetDescription", nil, false, func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, ds, "Users.") }},
		{"SetFieldDescription", map[string]string{"schemaMetadata": schemaJSON}, false,
			func(ctx context.Context, c *Client) error { return c.SetFieldDescription(ctx, ds, "id", "User id.") }},
		{"SoftDelete", nil, false, func(ctx context.Context, c *Client) error { return c.Entities().Delete(ctx, ds, false) }},
		{"HardDelete", nil, false, func(ctx context.Context, c *Client) error { _, err := c.HardDelete(ctx, ds); return err }},
		{"entities_Create", map[string]string{"datasetProperties": `{"description":"Users."}`}, true, func(ctx context.Context, c *Client) error {
			return c.Entities().Create(ctx, entity.NewDataset(ds, "Users.", entity.Column{Name: "id", Type: "int", Description: "User id."}))
		}},
		{"entities_Update", map[string]string{"schemaMetadata": schemaJSON}, false, func(ctx context.Context, c *Client) error {
			e, err := c.Entities().Get(ctx, ds)
			if err != nil {
				return err
			}
			d := e.(*entity.Dataset)
			_, err = c.Entities().Update(ctx, d, func() error {
				d.Schema.Fields[0].Description = aspects.Ptr("User id.")
				return nil
			})
			return err
		}},
		{"entities_Update_patch", map[string]string{"globalTags": `{"tags":[{"tag":"urn:li:tag:old"}]}`}, false, func(ctx context.Context, c *Client) error {
			es := c.WithWriteStrategy(Patch).Entities()
			e, err := es.Get(ctx, ds, "globalTags")
			if err != nil {
				return err
			}
			d := e.(*entity.Dataset)
			_, err = es.Update(ctx, d, func() error {
				d.GlobalTags.Tags = []aspects.TagAssociation{{Tag: "urn:li:tag:new"}}
				return nil
			})
			return err
		}},
		{"entities_DeleteAspects", nil, false, func(ctx context.Context, c *Client) error {
			return c.Entities().DeleteAspects(ctx, ds, "globalTags")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeGMS{values: tc.values, noEntity: tc.noEntity}
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			c, err := New(srv.URL+"/api/gms", datahub.WithToken("secret-token"), WithActor("urn:li:corpuser:jdoe"))
			if err != nil {
				t.Fatal(err)
			}
			fixedClock(c, testTime)
			if err := tc.call(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name, f.reqs)
		})
	}
}

// checkGolden compares reqs, as indented JSON, with the golden file of
// name (spaces as underscores), rewriting it with -update.
func checkGolden(t *testing.T, name string, reqs []recorded) {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(reqs); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	file := filepath.Join("testdata", "golden", strings.ReplaceAll(name, " ", "_")+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("requests differ from %s (-want +got):\n%s", file, diff)
	}
}

type errorString string

func (e errorString) Error() string { return string(e) }

// TestModifyRestliConflict: DataHub's Rest.li path answers a failed
// If-Version-Match with 422 "Expected version X, actual version Y"; Modify
// takes it as a conflict, reads again and writes with the new version.
func TestModifyRestliConflict(t *testing.T) {
	t.Parallel()
	f := &fakeGMS{values: map[string]string{"mlFeatureTableProperties": `{"customProperties":{}}`}}
	var writes atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("action") == "ingestProposal" && writes.Add(1) == 1 {
			w.Header().Set("X-RestLi-Error-Response", "true")
			w.WriteHeader(http.StatusUnprocessableEntity)
			io.WriteString(w, `{"exceptionClass":"com.linkedin.restli.server.RestLiServiceException","message":"Expected version 2, actual version 3","status":422}`)
			return
		}
		f.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL + "/api/gms")
	if err != nil {
		t.Fatal(err)
	}
	c.sleep = func(context.Context, time.Duration) error { return nil }
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)").(urn.MLFeatureTable)
	if err := c.AddFeatureToTable(t.Context(), table, urn.MustParse("urn:li:mlFeature:(t,a)").(urn.MLFeature)); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range f.reqs {
		paths = append(paths, r.Method+" "+strings.SplitN(r.Path, "?", 2)[1])
	}
	want := []string{"GET aspects=List(mlFeatureTableProperties)", "GET aspects=List(mlFeatureTableProperties)", "POST action=ingestProposal"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	if n := writes.Load(); n != 2 {
		t.Errorf("%d writes, want 2", n)
	}
}
