package client

import (
	"errors"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
)

func TestNew(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		opts []datahub.Option
		want string // ServerURL, "" for an error wrapping ErrValidation
	}{
		{"http://localhost:8080", nil, "http://localhost:8080"},
		{"https://datahub.example.com/api/gms/", []datahub.Option{datahub.WithToken("t"), WithActor("urn:li:corpuser:x")}, "https://datahub.example.com/api/gms"},
		{"http://localhost:8080", []datahub.Option{WithWriteStrategy(Patch)}, "http://localhost:8080"},
		{"http://localhost:8080", []datahub.Option{WithWriteStrategy(-1)}, ""},
		{"localhost:8080", nil, ""},
		{"ftp://x", nil, ""},
		// An emitter-only option is refused by the client.
		{"http://localhost:8080", []datahub.Option{emitter.WithServerAsync(true)}, ""},
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
	// And the emitter refuses the client's own options.
	if _, err := emitter.NewREST("http://localhost:8080", WithActor("urn:li:corpuser:x")); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("emitter.NewREST with client.WithActor: %v, want ErrValidation", err)
	}
	if _, err := emitter.NewREST("http://localhost:8080", WithWriteStrategy(Patch)); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("emitter.NewREST with client.WithWriteStrategy: %v, want ErrValidation", err)
	}
}
