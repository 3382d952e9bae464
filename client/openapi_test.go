package client

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// recordingTransport records every request (pinned headers, path, body)
// on its way to the mock.
type recordingTransport struct {
	mu   sync.Mutex
	reqs []recorded
}

func (rt *recordingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	rt.mu.Lock()
	rt.reqs = append(rt.reqs, recordOf(r, body))
	rt.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

// TestOpenAPIReadsGolden pins the requests of the reads over OpenAPI v3
// (testdata/golden/openapi_reads.json) and checks their answers against
// the mock: the version comes from systemMetadata=true, Exists asks HEAD
// and counts a soft-deleted entity as existing, as on Rest.li.
func TestOpenAPIReadsGolden(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	gone := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.gone,PROD)")
	missing := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)")
	if err := s.PutAspect(ds.String(), aspects.DatasetProperties{Description: aspects.Ptr("v1")}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutAspect(ds.String(), aspects.DatasetProperties{Description: aspects.Ptr("v2")}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutAspect(gone.String(), aspects.Status{Removed: true}); err != nil {
		t.Fatal(err)
	}
	rt := &recordingTransport{}
	c, err := New(s.URL()+"/api/gms", datahub.WithEndpoint(datahub.EndpointOpenAPI), datahub.WithHTTPClient(&http.Client{Transport: rt}))
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	props, err := GetAspect[aspects.DatasetProperties](ctx, c, ds)
	if err != nil || props.Description == nil || *props.Description != "v2" {
		t.Errorf("GetAspect = %+v, %v", props, err)
	}
	v, err := GetVersioned[aspects.DatasetProperties](ctx, c, ds)
	if err != nil || v.Version != "2" {
		t.Errorf("GetVersioned = version %q, %v; want 2", v.Version, err)
	}
	e, err := c.GetEntity(ctx, ds)
	if err != nil || e.Aspects["datasetProperties"].Version != "2" || e.Aspects["datasetKey"].Value == nil || e.Aspects["datasetProperties"].Created.Time == 0 {
		t.Errorf("GetEntity = %+v, %v", e, err)
	}
	if _, err := GetAspect[aspects.Ownership](ctx, c, ds); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("GetAspect of an absent aspect: %v, want ErrNotFound", err)
	}
	for _, tc := range []struct {
		u    urn.URN
		want bool
	}{{ds, true}, {gone, true}, {missing, false}} {
		if got, err := c.Exists(ctx, tc.u); err != nil || got != tc.want {
			t.Errorf("Exists(%s) = %v, %v; want %v", tc.u, got, err, tc.want)
		}
	}
	info, err := c.ServerInfo(ctx)
	want := ServerInfo{Version: mockserver.DefaultServerVersion, ServerType: "datahub-mock", ServerEnv: "core",
		Capabilities: Capabilities{OpenAPI: true, Patch: true}}
	if diff := cmp.Diff(want, info); err != nil || diff != "" {
		t.Errorf("ServerInfo (-want +got):\n%s%v", diff, err)
	}
	checkGolden(t, "openapi_reads", rt.reqs)
}

// TestServerInfo checks the version rule and the front end's refusal.
func TestServerInfo(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithServerVersion("v1.1.0"))
	c := newTestClient(t, s)
	info, err := c.ServerInfo(t.Context())
	if err != nil || !info.Capabilities.OpenAPI || info.Version != "v1.1.0" || info.Cloud {
		t.Errorf("ServerInfo = %+v, %v", info, err)
	}
	front := http.NewServeMux()
	front.HandleFunc("/config", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, `{"config":{}}`) })
	srv := httptest.NewServer(front)
	t.Cleanup(srv.Close)
	fc, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fc.ServerInfo(t.Context()); !errors.Is(err, emitter.ErrNotGMS) {
		t.Errorf("ServerInfo of a front end: %v, want ErrNotGMS", err)
	}
}
