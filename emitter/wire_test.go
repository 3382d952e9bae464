package emitter

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/testshared"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/transport"
	"github.com/catalogkit/datahub-go/urn"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fixedNow is the clock of the request-shape tests.
var fixedNow = time.UnixMilli(1700000000000)

// recorder is an httptest server, mounted under /api/gms so that a client
// that drops the base path fails, that records the requests it gets and
// answers them as GMS does. It is for request-shape tests only; behaviour
// tests run against the mock server.
type recorder struct {
	srv  *httptest.Server
	mu   sync.Mutex
	reqs []string
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, formatRequest(r, body))
		rec.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch {
		case !strings.HasPrefix(r.URL.Path, "/api/gms/"):
			w.WriteHeader(http.StatusNotFound)
		case r.URL.Path == "/api/gms/config":
			io.WriteString(w, `{"noCode":"true","versions":{"acryldata/datahub":{"version":"v1.2.0"}}}`)
		case strings.HasPrefix(r.URL.Path, "/api/gms/openapi/v1/trace/write/"):
			// every aspect asked for is written and indexed
			var asked map[string][]string
			_ = json.Unmarshal(body, &asked)
			got := map[string]map[string]any{}
			for u, names := range asked {
				got[u] = map[string]any{}
				for _, n := range names {
					got[u][n] = map[string]any{"success": true, "primaryStorage": map[string]string{"writeStatus": "ACTIVE_STATE"},
						"searchStorage": map[string]string{"writeStatus": "ACTIVE_STATE"}}
				}
			}
			b, _ := json.Marshal(got)
			w.Write(b)
		case strings.HasPrefix(r.URL.Path, "/api/gms/openapi/v3/"):
			w.Header().Set("traceparent", "00-0123456789abcdef0123456789abcdef-0123456789abcdef-01")
			io.WriteString(w, `[]`)
		default:
			io.WriteString(w, `{"value":"success"}`)
		}
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

// formatRequest renders a request as its golden form: the request line,
// the headers a DataHub client sets (sorted, the User-Agent's Go version
// masked), a blank line and the body.
func formatRequest(r *http.Request, body []byte) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", r.Method, r.URL.RequestURI())
	var names []string
	for name := range r.Header {
		switch name {
		case "Accept-Encoding", "Content-Length":
			continue
		}
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		v := strings.Join(r.Header[name], ", ")
		if name == "User-Agent" {
			v = strings.ReplaceAll(v, runtime.Version(), "GOVERSION")
		}
		fmt.Fprintf(&b, "%s: %s\n", name, v)
	}
	b.WriteString("\n")
	b.Write(body)
	b.WriteString("\n")
	return b.String()
}

func (rec *recorder) requests() []string {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return slices.Clone(rec.reqs)
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s differs (-want +got); run go test -update if the change is intended:\n%s", path, diff)
	}
}

// newTestREST returns an emitter for url with the fixed clock.
func newTestREST(t *testing.T, url string, opts ...Option) *REST {
	t.Helper()
	r, err := NewREST(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return fixedNow }
	r.pollMin = time.Millisecond
	return r
}

func mustProposal(t *testing.T, u urn.URN, a aspects.Aspect) Proposal {
	t.Helper()
	p, err := NewProposal(u, a)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

// Fixtures shared by the wire tests.
var (
	datasetURN = urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	featureURN = urn.MustParse("urn:li:mlFeature:(my_ns,my_feature)")
	featureRaw = aspects.MLFeatureProperties{
		Description: ptr("desc <b>&</b> \"quoted\"\n\tnon-ASCII: é ✓"),
		DataType:    ptr(aspects.MLFeatureDataType("CONTINUOUS")),
		Version:     &aspects.VersionTag{VersionTag: ptr("1")},
		Sources:     []string{"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"},
	}
)

// wireCase is a request-shape test: what the emitter sends for emit (or
// TestConnection) with opts.
type wireCase struct {
	name   string
	opts   []Option
	emit   func(t *testing.T) []Proposal
	config bool // call TestConnection instead
}

func TestWireGolden(t *testing.T) {
	t.Parallel()
	tests := []wireCase{
		{
			name: "single",
			opts: []Option{datahub.WithToken("tok-123"), datahub.WithHeaders(map[string]string{"X-Extra": "1"})},
			emit: func(t *testing.T) []Proposal { return []Proposal{mustProposal(t, featureURN, featureRaw)} },
		},
		{
			name: "batch",
			emit: func(t *testing.T) []Proposal {
				return []Proposal{
					mustProposal(t, datasetURN, aspects.Status{Removed: false}),
					mustProposal(t, datasetURN, aspects.DatasetProperties{Description: ptr("orders")}),
				}
			},
		},
		{
			name: "server_async",
			opts: []Option{WithEmitMode(EmitAsync), datahub.WithHeaders(map[string]string{"User-Agent": "mine/1"})},
			emit: func(t *testing.T) []Proposal {
				return []Proposal{mustProposal(t, datasetURN, aspects.Status{Removed: true})}
			},
		},
		{
			name: "conditional_with_system_metadata",
			emit: func(t *testing.T) []Proposal {
				p := mustProposal(t, datasetURN, aspects.Status{})
				p.ChangeType = Create
				p.Headers = map[string]string{"If-Version-Match": "3", "If-None-Match": "*"}
				p.SystemMetadata = &aspects.SystemMetadata{LastObserved: 1600000000000, RunID: aspects.Ptr("run-1"), PipelineName: aspects.Ptr("p"), Properties: map[string]string{"clientId": "mine", "k": "v"}}
				return []Proposal{p}
			},
		},
		{
			name: "key_aspect_and_patch",
			emit: func(t *testing.T) []Proposal {
				return []Proposal{
					{EntityType: "dataset", KeyAspect: aspects.DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "db.k", Origin: "PROD"}, AspectName: "status", Aspect: aspects.Status{}},
					{URN: datasetURN, ChangeType: Patch, Aspect: RawAspect{Name: "globalTags", JSON: json.RawMessage(`[ {"op": "add", "path": "/tags/urn:li:tag:pii", "value": {"tag": "urn:li:tag:pii"}} ]`)}},
				}
			},
		},
		{
			name: "delete",
			emit: func(t *testing.T) []Proposal {
				p, err := NewDeleteEntity(datasetURN)
				if err != nil {
					t.Fatal(err)
				}
				return []Proposal{p}
			},
		},
		{name: "config", config: true, opts: []Option{datahub.WithToken("tok-123")}},
	}
	// The same proposals through OpenAPI (the key aspect alone, which
	// OpenAPI cannot carry, left out), and its emit modes.
	var v3 []wireCase
	for _, tt := range tests {
		switch tt.name {
		case "config":
			continue
		case "key_aspect_and_patch":
			emit := tt.emit
			tt.emit = func(t *testing.T) []Proposal { return emit(t)[1:] }
		}
		tt.name = "openapi_" + tt.name
		tt.opts = append(slices.Clone(tt.opts), datahub.WithEndpoint(datahub.EndpointOpenAPI))
		v3 = append(v3, tt)
	}
	mixed := func(t *testing.T) []Proposal {
		a := mustProposal(t, datasetURN, aspects.Status{})
		b := mustProposal(t, featureURN, featureRaw)
		c := mustProposal(t, datasetURN, aspects.DatasetProperties{Description: ptr("orders")})
		d := c
		d.ChangeType, d.AspectName, d.Aspect = Patch, "globalTags", RawAspect{Name: "globalTags", JSON: json.RawMessage(`[{"op":"add","path":"/tags/urn:li:tag:x","value":{"tag":"urn:li:tag:x"}}]`)}
		return []Proposal{a, b, c, d, a}
	}
	v3 = append(v3,
		wireCase{name: "openapi_batching", opts: []Option{datahub.WithEndpoint(datahub.EndpointOpenAPI)}, emit: mixed},
		wireCase{name: "openapi_sync_wait", opts: []Option{datahub.WithEndpoint(datahub.EndpointOpenAPI), WithEmitMode(EmitSyncWait)}, emit: mixed},
		wireCase{name: "openapi_async_wait", opts: []Option{datahub.WithEndpoint(datahub.EndpointOpenAPI), WithEmitMode(EmitAsyncWait)}, emit: mixed},
		wireCase{name: "openapi_auto", opts: []Option{datahub.WithEndpoint(datahub.EndpointAuto)}, emit: func(t *testing.T) []Proposal {
			return []Proposal{mustProposal(t, datasetURN, aspects.Status{})}
		}},
	)
	for _, tt := range append(tests, v3...) {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := newRecorder(t)
			r := newTestREST(t, rec.srv.URL+"/api/gms/", tt.opts...)
			var err error
			if tt.config {
				err = r.TestConnection(t.Context())
			} else {
				err = r.Emit(t.Context(), tt.emit(t)...)
			}
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "wire_"+tt.name+".golden", []byte(strings.Join(rec.requests(), "----\n")))
		})
	}
}

// TestWireBodyIsValidJSON decodes what the single golden test sent: the
// body is JSON, the aspect value a string holding the aspect's JSON.
func TestWireBodyIsValidJSON(t *testing.T) {
	t.Parallel()
	rec := newRecorder(t)
	r := newTestREST(t, rec.srv.URL+"/api/gms")
	if err := r.Emit(t.Context(), mustProposal(t, featureURN, featureRaw)); err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(rec.requests()[0], "\n\n")
	var got struct {
		Proposal struct {
			Aspect struct{ Value string }
		}
	}
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	back, err := aspects.Decode("mlFeatureProperties", []byte(got.Proposal.Aspect.Value))
	if err != nil {
		t.Fatal(err)
	}
	want := featureRaw
	want.CustomProperties = map[string]string{}
	if diff := cmp.Diff(&want, back); diff != "" {
		t.Errorf("aspect round trip (-want +got):\n%s", diff)
	}
}

// pythonBodies reads the request bodies of DataHub's Python emitter quoted
// in WIRE.md §1.3: the exact body of test_rest_sink.py and the
// illustrative MLFeatureProperties one.
func pythonBodies(t *testing.T) (ownership, feature string) {
	t.Helper()
	text := string(testshared.ReadFile(t, "reference", "WIRE.md"))
	start := strings.Index(text, "### 1.3")
	end := strings.Index(text, "### 1.4")
	if start < 0 || end < start {
		t.Fatal("WIRE.md has no §1.3")
	}
	var blocks []string
	for rest := text[start:end]; ; {
		_, after, ok := strings.Cut(rest, "```json\n")
		if !ok {
			break
		}
		block, tail, _ := strings.Cut(after, "```")
		blocks = append(blocks, block)
		rest = tail
	}
	if len(blocks) != 2 {
		t.Fatalf("WIRE.md §1.3 has %d JSON blocks, want 2", len(blocks))
	}
	return blocks[0], blocks[1]
}

// TestWireMatchesPython sends the proposals of WIRE.md §1.3's Python
// bodies and compares the shapes: the same keys with the same nesting and
// JSON types, "async" a string, the aspect value a string that decodes to
// the same aspect, the proposal's keys in the Python order.
func TestWireMatchesPython(t *testing.T) {
	t.Parallel()
	ownershipBody, featureBody := pythonBodies(t)
	tests := []struct {
		name   string
		python string
		p      func(t *testing.T) Proposal
	}{
		{
			name:   "test_rest_sink ownership",
			python: ownershipBody,
			p: func(t *testing.T) Proposal {
				u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:foo,bar,PROD)")
				return mustProposal(t, u, aspects.Ownership{
					Owners:       []aspects.Owner{{Owner: "urn:li:corpuser:fbar", Type: aspects.OwnershipType("DATAOWNER")}},
					LastModified: aspects.AuditStamp{Time: 0, Actor: "urn:li:corpuser:fbar"},
				})
			},
		},
		{
			name:   "illustrative mlFeatureProperties",
			python: featureBody,
			p: func(t *testing.T) Proposal {
				a := featureRaw
				a.Description = ptr("desc")
				return mustProposal(t, featureURN, a)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rec := newRecorder(t)
			r := newTestREST(t, rec.srv.URL+"/api/gms")
			if err := r.Emit(t.Context(), tt.p(t)); err != nil {
				t.Fatal(err)
			}
			_, ours, _ := strings.Cut(rec.requests()[0], "\n\n")

			var py, go_ map[string]any
			if err := json.Unmarshal([]byte(tt.python), &py); err != nil {
				t.Fatalf("Python body: %v", err)
			}
			if err := json.Unmarshal([]byte(ours), &go_); err != nil {
				t.Fatalf("our body: %v", err)
			}
			if diff := cmp.Diff(shape(py), shape(go_)); diff != "" {
				t.Errorf("body shape differs from Python's (-python +go):\n%s", diff)
			}
			if go_["async"] != "false" {
				t.Errorf(`"async" = %#v, want the string "false"`, go_["async"])
			}
			pyAspect := py["proposal"].(map[string]any)["aspect"].(map[string]any)["value"].(string)
			goAspect := go_["proposal"].(map[string]any)["aspect"].(map[string]any)["value"].(string)
			var pa, ga any
			if err := json.Unmarshal([]byte(pyAspect), &pa); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(goAspect), &ga); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(pa, ga); diff != "" {
				t.Errorf("aspect value differs from Python's (-python +go):\n%s", diff)
			}
			for _, k := range []string{"entityType", "entityUrn", "changeType", "aspectName"} {
				if p, g := py["proposal"].(map[string]any)[k], go_["proposal"].(map[string]any)[k]; p != g {
					t.Errorf("proposal.%s = %v, Python sends %v", k, g, p)
				}
			}
			order := []string{"entityType", "entityUrn", "entityKeyAspect", "changeType", "aspectName", "aspect", "systemMetadata", "headers"}
			if got := topKeys(t, ours, "proposal"); !isSubsequence(got, order) {
				t.Errorf("proposal keys in order %v, want the Python order %v", got, order)
			}
		})
	}
}

// shape replaces every JSON value by its type, keeping object keys and
// array nesting, so that two bodies with different values compare equal
// when their structure does. The system metadata's values and property
// names are ours, so only its keys count.
func shape(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			if k == "properties" {
				out[k] = "object"
				continue
			}
			out[k] = shape(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = shape(e)
		}
		return out
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// topKeys returns the keys of the object member of body in order.
func topKeys(t *testing.T, body, member string) []string {
	t.Helper()
	var outer map[string]json.RawMessage
	if err := json.Unmarshal([]byte(body), &outer); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(outer[member]))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func isSubsequence(sub, seq []string) bool {
	i := 0
	for _, s := range seq {
		if i < len(sub) && sub[i] == s {
			i++
		}
	}
	return i == len(sub)
}

func TestAppendString(t *testing.T) {
	t.Parallel()
	tests := []string{"", "plain", `q"b\`, "\n\r\t\x00\x1f", "<&>", "é✓😀", "bad\xffutf8\xe2\x82", "\u2028"}
	for _, s := range tests {
		got := appendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("appendString(%q) = %s: %v", s, got, err)
		}
		ref, _ := json.Marshal(s)
		var want string
		if err := json.Unmarshal(ref, &want); err != nil {
			t.Fatal(err)
		}
		if back != want {
			t.Errorf("appendString(%q) decodes to %q, want %q", s, back, want)
		}
		if b := appendString(nil, []byte(s)); !bytes.Equal(b, got) {
			t.Errorf("appendString([]byte(%q)) = %s, want %s", s, b, got)
		}
	}
}

// TestAppendStringBytes pins the bytes: encoding/json's with HTML escaping
// off (the emitter once wrote \u0008 and \u000c for \b and \f, and U+2028
// unescaped).
func TestAppendStringBytes(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"a\bb\fc", "\u2028\u2029", "<&>", "\x01"} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got, want := string(appendString(nil, s)), strings.TrimSuffix(buf.String(), "\n"); got != want {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestUserAgent pins the User-Agent header.
func TestUserAgent(t *testing.T) {
	t.Parallel()
	want := "datahub-go/" + datahub.Version + " (go; " + runtime.Version() + ")"
	if transport.UserAgent != want {
		t.Errorf("User-Agent = %q, want %q", transport.UserAgent, want)
	}
}
