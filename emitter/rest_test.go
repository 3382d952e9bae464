package emitter_test

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func TestAuth(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("good-token"))
	tests := []struct {
		name    string
		token   string
		wantErr error
	}{
		{name: "no token", wantErr: datahub.ErrUnauthorized},
		{name: "bad token", token: "bad-token", wantErr: datahub.ErrUnauthorized},
		{name: "good token", token: "good-token"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, _ := newREST(t, s, datahub.WithToken(tt.token))
			err := r.Emit(t.Context(), propertiesProposal(t, 1, 0))
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil && tt.token != "" && strings.Contains(err.Error(), tt.token) {
				t.Errorf("error shows the token: %v", err)
			}
		})
	}
}

func TestTestConnection(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("good-token"))
	open := mockserver.Start(t)
	tests := []struct {
		name    string
		url     string
		token   string
		stub    *stubTransport
		wantErr error
		wantMsg string
	}{
		{name: "GMS root", url: s.URL(), token: "good-token"},
		{name: "front address", url: s.URL() + "/api/gms/", token: "good-token"},
		{name: "no token", url: s.URL(), wantErr: datahub.ErrUnauthorized, wantMsg: "without a token"},
		{name: "wrong token", url: s.URL(), token: "wrong", wantErr: datahub.ErrUnauthorized, wantMsg: "refused the token"},
		{name: "no token needed", url: open.URL()},
		{name: "token not needed", url: open.URL(), token: "any"},
		{name: "front end", url: "http://frontend:9002", stub: &stubTransport{status: 200, body: `{"config":{"appVersion":"v1"}}`}, wantErr: emitter.ErrNotGMS, wantMsg: "front end"},
		{name: "front end html", url: "http://frontend:9002", stub: &stubTransport{status: 200, body: `<!doctype html><html></html>`}, wantErr: emitter.ErrNotGMS},
		{name: "noCode not a string", url: "http://gms", stub: &stubTransport{status: 200, body: `{"noCode":true}`}, wantErr: emitter.ErrNotGMS},
		{name: "401", url: "http://gms", stub: &stubTransport{status: 401, body: `{"message":"Unauthorized to perform this action."}`}, wantErr: datahub.ErrUnauthorized, wantMsg: "authentication failed"},
		{name: "404", url: "http://gms", stub: &stubTransport{status: 404}, wantErr: datahub.ErrNotFound, wantMsg: "cannot connect"},
		{name: "unreachable", url: "http://gms", stub: &stubTransport{}, wantMsg: "no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := []emitter.Option{datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 1}), datahub.WithToken(tt.token)}
			if tt.stub != nil {
				opts = append(opts, datahub.WithHTTPClient(&http.Client{Transport: *tt.stub}))
			}
			r, err := emitter.NewREST(tt.url, opts...)
			if err != nil {
				t.Fatal(err)
			}
			err = r.TestConnection(t.Context())
			if tt.wantErr == nil && tt.wantMsg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || (tt.wantErr != nil && !errors.Is(err, tt.wantErr)) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("err = %v, want %v mentioning %q", err, tt.wantErr, tt.wantMsg)
			}
			if err != nil && tt.token != "" && strings.Contains(err.Error(), tt.token) {
				t.Errorf("error shows the token: %v", err)
			}
		})
	}
}

// TestTestConnectionNothingListens is defect 10: TestConnection to a
// port where nothing listens fails after one attempt, with the default
// retry policy (which would wait about 2+4+8+16 s between five attempts),
// while Emit keeps retrying refused connections as the policy says. The
// time TestConnection took is logged, not asserted.
func TestTestConnectionNothingListens(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()

	c := &counter{next: http.DefaultTransport.(*http.Transport).Clone()}
	r, err := emitter.NewREST(url, datahub.WithHTTPClient(&http.Client{Transport: c}))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = r.TestConnection(t.Context())
	t.Logf("TestConnection took %v: %v", time.Since(start), err)
	if err == nil || !strings.Contains(err.Error(), "cannot connect") {
		t.Errorf("err = %v, want cannot connect", err)
	}
	if n := c.attempts.Load(); n != 1 {
		t.Errorf("TestConnection made %d attempts, want 1", n)
	}

	c2 := &counter{next: http.DefaultTransport.(*http.Transport).Clone()}
	r, err = emitter.NewREST(url, datahub.WithHTTPClient(&http.Client{Transport: c2}), datahub.WithRetry(fastRetry))
	if err != nil {
		t.Fatal(err)
	}
	err = r.Emit(t.Context(), propertiesProposal(t, 1, 0))
	var be *emitter.BatchError
	if !errors.As(err, &be) || be.Results[0].Status != emitter.Failed || errors.Is(err, datahub.ErrOutcomeUnknown) {
		t.Errorf("Emit: err = %v, want one Failed result (not written, not unknown)", err)
	}
	if n := c2.attempts.Load(); n != int64(fastRetry.MaxAttempts) {
		t.Errorf("Emit made %d attempts, want %d", n, fastRetry.MaxAttempts)
	}
}

// TestTestConnectionTokenAnswers checks how TestConnection reads the
// answer to its token check, after a GMS /config: a 401 is a refused
// token; a 403 (no privilege to read) or a 404 (nothing there) means the
// token was accepted. It is one request, not retried.
func TestTestConnectionTokenAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		status  int
		wantErr error
	}{
		{status: http.StatusOK},
		{status: http.StatusForbidden},
		{status: http.StatusNotFound},
		{status: http.StatusUnauthorized, wantErr: datahub.ErrUnauthorized},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			t.Parallel()
			var checks atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if r.URL.Path == "/config" {
					io.WriteString(w, `{"noCode":"true"}`)
					return
				}
				checks.Add(1)
				w.WriteHeader(tt.status)
				io.WriteString(w, `{"status":`+strconv.Itoa(tt.status)+`}`)
			}))
			t.Cleanup(srv.Close)
			r, err := emitter.NewREST(srv.URL, datahub.WithToken("tok"), datahub.WithRetry(fastRetry))
			if err != nil {
				t.Fatal(err)
			}
			err = r.TestConnection(t.Context())
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if n := checks.Load(); n != 1 {
				t.Errorf("%d token checks, want 1", n)
			}
		})
	}
}

func TestProposalValidation(t *testing.T) {
	t.Parallel()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	feature := urn.MustParse("urn:li:mlFeature:(ns,f)")
	tests := []struct {
		name string
		u    urn.URN
		a    aspects.Aspect
	}{
		{name: "aspect not allowed on the entity", u: feature, a: aspects.SchemaMetadata{}},
		{name: "nil URN", u: nil, a: aspects.Status{}},
		{name: "zero URN", u: urn.Dataset{}, a: aspects.Status{}},
		{name: "nil aspect", u: ds, a: nil},
		{name: "nil aspect pointer", u: ds, a: (*aspects.Status)(nil)},
		{name: "unknown entity", u: urn.MustParse("urn:li:noSuchEntity:x"), a: aspects.Status{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := emitter.NewProposal(tt.u, tt.a); !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("NewProposal: err = %v, want ErrValidation", err)
			}
		})
	}

	s := mockserver.Start(t)
	r, c := newREST(t, s)
	invalid := []emitter.Proposal{
		{URN: ds, EntityType: "mlFeature", Aspect: aspects.Status{}},
		{URN: ds, ChangeType: "MERGE", Aspect: aspects.Status{}},
		{URN: ds},
		{URN: ds, ChangeType: emitter.Delete, AspectName: "status"},
		{Aspect: aspects.Status{}},
		{URN: ds, Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{bad`)}},
		{URN: ds, Aspect: emitter.RawAspect{Name: "status", JSON: json.RawMessage(`"a string"`)}},
	}
	for i, p := range invalid {
		if err := r.Emit(t.Context(), p); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("Emit(invalid %d): err = %v, want ErrValidation", i, err)
		}
	}
	if n := c.attempts.Load(); n != 0 {
		t.Errorf("%d requests sent for invalid proposals", n)
	}
}

func TestDeleteEntity(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	if err := r.Emit(t.Context(), propertiesProposal(t, 1, 0), propertiesProposal(t, 2, 0)); err != nil {
		t.Fatal(err)
	}
	del, err := emitter.NewDeleteEntity(datasetURN(t, 1))
	if err != nil {
		t.Fatal(err)
	}
	// In a batch the delete goes alone, in its place: write 3, delete 1, write 1 again.
	if err := r.Emit(t.Context(), propertiesProposal(t, 3, 0), del, propertiesProposal(t, 1, 1)); err != nil {
		t.Fatal(err)
	}
	if n := s.RequestCount(mockserver.OpDeleteEntity); n != 1 {
		t.Errorf("%d delete requests, want 1", n)
	}
	got, err := s.GetAspect(datasetURN(t, 1).String(), "datasetProperties")
	if err != nil {
		t.Fatal(err)
	}
	if d := got.(*aspects.DatasetProperties).Description; d == nil || *d != description(1, 1) {
		t.Errorf("dataset 1 description %v after delete and rewrite", d)
	}
	if _, err := s.GetAspectJSON(datasetURN(t, 1).String(), "datasetProperties", 1); err == nil {
		t.Error("dataset 1 kept its history after the delete")
	}
}

// TestKeyAspectProposal sends a proposal that names its entity by key
// aspect instead of URN.
func TestKeyAspectProposal(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	p := emitter.Proposal{
		EntityType: "dataset",
		KeyAspect:  aspects.DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "db.keyed", Origin: "PROD"},
		Aspect:     aspects.Status{Removed: true},
	}
	if err := r.Emit(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	s.CheckAspect(t, "urn:li:dataset:(urn:li:dataPlatform:hive,db.keyed,PROD)", aspects.Status{Removed: true})
}
