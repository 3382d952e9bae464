package client

import (
	"errors"
	"reflect"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
)

func TestNew(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		opts []Option
		want string // ServerURL, "" for an error wrapping ErrValidation
	}{
		{"http://localhost:8080", nil, "http://localhost:8080"},
		{"https://datahub.example.com/api/gms/", []Option{datahub.WithToken("t"), WithActor("urn:li:corpuser:x")}, "https://datahub.example.com/api/gms"},
		{"http://localhost:8080", []Option{WithWriteStrategy(Patch)}, "http://localhost:8080"},
		{"http://localhost:8080", []Option{WithWriteStrategy(-1)}, ""},
		{"localhost:8080", nil, ""},
		{"ftp://x", nil, ""},
	} {
		c, err := New(tc.url, tc.opts...)
		switch {
		case tc.want == "" && !errors.Is(err, datahub.ErrValidation):
			t.Errorf("New(%q): err = %v, want ErrValidation", tc.url, err)
		case tc.want != "" && err != nil:
			t.Errorf("New(%q): %v", tc.url, err)
		case tc.want != "" && c.ServerURL() != tc.want:
			t.Errorf("New(%q).ServerURL() = %q, want %q", tc.url, c.ServerURL(), tc.want)
		}
	}
}

// TestOptionsAreTyped proves that an emitter option given to New, or a
// client option given to emitter.NewREST, does not compile: neither the
// option's static type nor its value satisfies the other package's Option,
// while every shared datahub.Option satisfies both.
func TestOptionsAreTyped(t *testing.T) {
	t.Parallel()
	clientOpt := reflect.TypeFor[Option]()
	emitterOpt := reflect.TypeFor[emitter.Option]()
	emitterOnly := []emitter.Option{emitter.WithEmitMode(emitter.EmitSyncWait),
		emitter.WithMaxBatchSize(1), emitter.WithMaxBatchBytes(1), emitter.WithIsolateRejected(true)}
	for _, o := range emitterOnly {
		if reflect.TypeOf(o).Implements(clientOpt) {
			t.Errorf("emitter option %T is a client.Option", o)
		}
	}
	if emitterOpt.Implements(clientOpt) {
		t.Error("emitter.Option satisfies client.Option")
	}
	clientOnly := []Option{WithActor("urn:li:corpuser:x"), WithConflictPolicy(DefaultConflictPolicy()),
		WithGraphQLURL("http://x/api/graphql"), WithRequireEntity(true), WithWriteStrategy(Patch)}
	for _, o := range clientOnly {
		if reflect.TypeOf(o).Implements(emitterOpt) {
			t.Errorf("client option %T is an emitter.Option", o)
		}
	}
	if clientOpt.Implements(emitterOpt) {
		t.Error("client.Option satisfies emitter.Option")
	}
	shared := reflect.TypeFor[datahub.Option]()
	if !shared.Implements(clientOpt) || !shared.Implements(emitterOpt) {
		t.Error("datahub.Option is not both a client.Option and an emitter.Option")
	}
}
