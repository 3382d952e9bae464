package gms_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newCore(t *testing.T, opts gms.Options) *gms.Core {
	t.Helper()
	st := store.OpenMemory(opts.Clock)
	c := gms.New(st, opts)
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
		_ = st.Close()
	})
	return c
}

func upsert(urn, aspect, value string) gms.Proposal {
	return gms.Proposal{EntityType: "dataset", EntityURN: urn, ChangeType: "UPSERT", AspectName: aspect,
		Aspect: json.RawMessage(value), ContentType: "application/json"}
}

func kindOf(err error) gms.Kind {
	var e *gms.Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// TestIngestKinds: the core's refusals carry a kind and DataHub's text.
func TestIngestKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    gms.Proposal
		kind gms.Kind
		msg  string
	}{
		{"unknown entity", gms.Proposal{EntityType: "nope", EntityURN: "urn:li:nope:x", ChangeType: "UPSERT",
			AspectName: "status", Aspect: json.RawMessage(`{}`), ContentType: "application/json"},
			gms.UnknownEntity, "Unknown entity: nope"},
		{"unknown aspect", upsert(ds, "foo", `{}`), gms.UnknownAspect, "Unknown aspect foo for entity dataset"},
		{"bad urn", upsert("urn:li:dataset:(x", "status", `{}`), gms.BadArgument, "Invalid urn: urn:li:dataset:(x"},
		{"schema", upsert(ds, "status", `{"removed":"yes"}`), gms.Invalid, "Failed to validate record with class com.linkedin.common.Status"},
		{"not an object", upsert(ds, "status", `[1]`), gms.BadArgument, "Aspect status of dataset is not a JSON object: found an array"},
		{"patch without a template", gms.Proposal{EntityType: "dataset", EntityURN: ds, ChangeType: "PATCH", AspectName: "institutionalMemory",
			Aspect: json.RawMessage(`[{"op":"add","path":"/elements/0","value":{}}]`), ContentType: gms.ContentTypeJSONPatch},
			gms.Invalid, "DataHub has no patch template for institutionalMemory; write it with a conditional read-modify-write"},
		{"patch that does not parse", gms.Proposal{EntityType: "dataset", EntityURN: ds, ChangeType: "PATCH", AspectName: "status",
			Aspect: json.RawMessage(`{"op":"add"}`), ContentType: gms.ContentTypeJSONPatch},
			gms.BadArgument, "Invalid JSON Patch: patch status: not a JSON patch"},
		{"patch of a timeseries aspect", gms.Proposal{EntityType: "dataset", EntityURN: ds, ChangeType: "PATCH", AspectName: "datasetProfile",
			Aspect: json.RawMessage(`[]`), ContentType: gms.ContentTypeJSONPatch},
			gms.Invalid, "change type PATCH not supported for timeseries aspect datasetProfile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCore(t, gms.Options{})
			err := c.Ingest(context.Background(), []gms.Proposal{tt.p}, gms.IngestOptions{})
			if kindOf(err) != tt.kind || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("Ingest = %v (kind %v), want kind %v and %q", err, kindOf(err), tt.kind, tt.msg)
			}
		})
	}
}

// TestReadsAndWrites goes through the core's API without any protocol.
func TestReadsAndWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCore(t, gms.Options{})
	if err := c.Put(ctx, ds, "status", json.RawMessage(`{ "removed": false }`)); err != nil {
		t.Fatal(err)
	}
	a, err := c.GetAspect(ctx, ds, "status", 0)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("com.linkedin.common.Status "+`{"removed":false}`, a.RecordName+" "+string(a.Value)); diff != "" {
		t.Errorf("GetAspect (-want +got):\n%s", diff)
	}
	e, err := c.GetEntity(ctx, ds, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, a := range e.Aspects {
		names = append(names, a.Name)
	}
	// The first write created the entity: GMS added its key aspect and the
	// default aspects (DefaultAspectsUtil).
	if diff := cmp.Diff([]string{"browsePathsV2", "dataPlatformInstance", "datasetKey", "status"}, names); diff != "" {
		t.Errorf("GetEntity aspects (-want +got):\n%s", diff)
	}
	if ok, err := c.Exists(ctx, ds); !ok || err != nil {
		t.Errorf("Exists = %t, %v", ok, err)
	}
	if _, err := c.GetAspect(ctx, ds, "datasetProperties", 0); kindOf(err) != gms.NotFound {
		t.Errorf("GetAspect of a missing aspect = %v, want NotFound", err)
	}
	if n, err := c.Count(ctx, "status", nil); n != 1 || err != nil {
		t.Errorf("Count = %d, %v", n, err)
	}
	d, err := c.DeleteEntity(ctx, ds, "")
	if err != nil || d.Rows != 4 {
		t.Errorf("DeleteEntity = %+v, %v", d, err)
	}
	if _, err := c.DeleteEntity(ctx, ds, "status"); kindOf(err) != gms.Unsupported {
		t.Errorf("DeleteEntity of one aspect = %v, want Unsupported", err)
	}
}

// TestBarrierOrder: a due async write is applied before a later write.
func TestBarrierOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := &clock{now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := newCore(t, gms.Options{Clock: clk.Now, AsyncLag: time.Minute})
	if err := c.Ingest(ctx, []gms.Proposal{upsert(ds, "status", `{"removed":true}`)}, gms.IngestOptions{Async: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetAspect(ctx, ds, "status", 0); kindOf(err) != gms.NotFound {
		t.Fatalf("async write visible before its lag: %v", err)
	}
	clk.Advance(time.Minute)
	if err := c.Ingest(ctx, []gms.Proposal{upsert(ds, "status", `{"removed":false}`)}, gms.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	a, err := c.GetAspect(ctx, ds, "status", 0)
	if err != nil || string(a.Value) != `{"removed":false}` {
		t.Errorf("latest = %s, %v; want the sync write", a.Value, err)
	}
	if v := a.SystemMetadata; !strings.Contains(string(v), `"version":"2"`) {
		t.Errorf("systemMetadata = %s, want version 2 (the async write first)", v)
	}
}

// TestReadBarriers: every read applies the async writes that are due
// before it answers (the barrier), without waiting for the queue's
// goroutine (which, with a fake clock, waits a real minute).
func TestReadBarriers(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		write gms.Proposal
		read  func(c *gms.Core) (bool, error)
	}{
		{"GetEntity", upsert(ds, "status", `{"removed":true}`), func(c *gms.Core) (bool, error) {
			e, err := c.GetEntity(ctx, ds, nil, false)
			if kindOf(err) == gms.NotFound {
				return false, nil
			}
			return len(e.Aspects) > 0, err
		}},
		{"Timeseries", upsert(ds, "datasetProfile", `{"timestampMillis":1,"rowCount":2}`), func(c *gms.Core) (bool, error) {
			docs, err := c.Timeseries(ctx, gms.TimeseriesQuery{URN: ds, Entity: "dataset", Aspect: "datasetProfile", Limit: 10})
			return len(docs) == 1, err
		}},
		{"Count", upsert(ds, "status", `{"removed":true}`), func(c *gms.Core) (bool, error) {
			n, err := c.Count(ctx, "status", nil)
			return n == 1, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clk := &clock{now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
			c := newCore(t, gms.Options{Clock: clk.Now, AsyncLag: time.Minute})
			if err := c.Ingest(ctx, []gms.Proposal{tc.write}, gms.IngestOptions{Async: true}); err != nil {
				t.Fatal(err)
			}
			if seen, err := tc.read(c); seen || err != nil {
				t.Fatalf("before the lag: seen %v, %v", seen, err)
			}
			clk.Advance(time.Minute)
			if seen, err := tc.read(c); !seen || err != nil {
				t.Errorf("after the lag: seen %v, %v; want the due async write", seen, err)
			}
		})
	}
}

// TestResetBarrier: Reset applies the async writes already due before it
// drops the pending ones; a due write whose condition fails is therefore
// logged as dropped, while one not yet due is discarded silently.
func TestResetBarrier(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := &clock{now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))
	c := newCore(t, gms.Options{Clock: clk.Now, AsyncLag: time.Minute, Logger: logger})
	due := upsert(ds, "status", `{"removed":true}`)
	due.Headers = map[string]string{gms.HeaderIfVersionMatch: "5"}
	if err := c.Ingest(ctx, []gms.Proposal{due}, gms.IngestOptions{Async: true}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	if err := c.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "Expected version 5") {
		t.Errorf("log = %q, want the due write applied (and dropped) by Reset", logs.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestCloseTwice: Close is idempotent.
func TestCloseTwice(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{AsyncLag: time.Minute}) // its cleanup closes it again
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestJSONErrorText(t *testing.T) {
	t.Parallel()
	decode := func(body string, v any) error { return json.Unmarshal([]byte(body), v) }
	var m map[string]json.RawMessage
	var s struct {
		A string `json:"a"`
	}
	var deep any
	tests := []struct {
		err  error
		want string
	}{
		{decode(`[]`, &m), "expected a JSON object, found an array"},
		{decode(`{"a":1}`, &s), "expected a JSON string at a, found a number"},
		{decode(`{"a":`, &m), "invalid JSON at byte 5: unexpected end of JSON input"},
		{json.NewDecoder(strings.NewReader(`{"a":`)).Decode(&m), "invalid JSON: unexpected end of input"},
		{decode(`{x}`, &m), "invalid JSON at byte 2: invalid character 'x' looking for beginning of object key string"},
		{decode(strings.Repeat("[", 10001), &deep), "nested too deeply: JSON nesting exceeds the limit of 10000 levels"},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, gms.JSONErrorText(tt.err)); diff != "" {
			t.Errorf("JSONErrorText(%v) (-want +got):\n%s", tt.err, diff)
		}
	}
}

func TestAbbreviate(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 150) // 300 bytes
	got := gms.Abbreviate(long)
	if !strings.HasSuffix(got, "...") || len(got) > 203 || !strings.HasPrefix(long, strings.TrimSuffix(got, "...")) {
		t.Errorf("Abbreviate = %q (%d bytes)", got, len(got))
	}
	if got := gms.Abbreviate("short"); got != "short" {
		t.Errorf("Abbreviate(short) = %q", got)
	}
}

// TestExistsWithoutKeySchema checks that an entity whose key aspect has no
// schema in the mock (so no key row is written) exists once it has an
// aspect, as in DataHub, and not before.
func TestExistsWithoutKeySchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := newCore(t, gms.Options{})
	const container = "urn:li:container:abc"
	if err := c.Put(ctx, container, "containerProperties", json.RawMessage(`{"name":"abc"}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, ds, "status", json.RawMessage(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		urn  string
		want bool
	}{
		{container, true},
		{"urn:li:container:none", false},
		{ds, true},
		{"urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)", false},
		{"urn:li:notAnEntity:x", false},
	}
	for _, tt := range tests {
		t.Run(tt.urn, func(t *testing.T) {
			t.Parallel()
			got, err := c.Exists(ctx, tt.urn)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Exists(%s) = %t, want %t", tt.urn, got, tt.want)
			}
		})
	}
}
