package emitter_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestOptionValuesRefused checks that NewREST refuses option values it
// cannot use, naming the option or header but never echoing a token.
func TestOptionValuesRefused(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	tests := []struct {
		name     string
		opt      emitter.Option
		wantSays string
	}{
		{"token with a line break", datahub.WithToken("good\nX-Evil: 1"), "Authorization"},
		{"token with NUL", datahub.WithToken("se\x00cret"), "Authorization"},
		{"header value with a line break", datahub.WithHeaders(map[string]string{"X-Team": "a\r\nb"}), "X-Team"},
		{"header name with a space", datahub.WithHeaders(map[string]string{"X Team": "a"}), `"X Team"`},
		{"empty header name", datahub.WithHeaders(map[string]string{"": "a"}), `""`},
		{"negative timeout", datahub.WithTimeout(-1), "WithTimeout"},
		{"negative attempts", datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: -5}), "MaxAttempts -5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := emitter.NewREST(s.URL(), tt.opt)
			if !errors.Is(err, datahub.ErrValidation) {
				t.Fatalf("err = %v, want ErrValidation", err)
			}
			if msg := err.Error(); !strings.Contains(msg, tt.wantSays) || strings.Contains(msg, "good") || strings.Contains(msg, "cret") {
				t.Errorf("err = %q, want it to name %s and not echo the value", msg, tt.wantSays)
			}
		})
	}
	// Values that are fine: a tab in a value, the token characters, nil
	// client (the default), zero timeout (the HTTP client's own).
	_, err := emitter.NewREST(s.URL(), datahub.WithToken("eyJ.a-b_c~+/="), datahub.WithHeaders(map[string]string{"X-Team!#": "a\tb ü"}),
		datahub.WithHTTPClient(nil), datahub.WithTimeout(0), datahub.WithRetry(datahub.RetryPolicy{}))
	if err != nil {
		t.Errorf("valid options refused: %v", err)
	}
}

// TestEmitNotSent checks that a proposal whose request was never sent (the
// context done before) is not reported as of unknown outcome. (The other
// unsent case, a header net/http refuses, is now refused by NewREST: see
// TestOptionValuesRefused.)
func TestEmitNotSent(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	r, _ := newREST(t, s)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := r.Emit(ctx, propertiesProposal(t, 0, 0))
	var be *emitter.BatchError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BatchError", err)
	}
	if st := be.Results[0].Status; st != emitter.Failed && st != emitter.NotAttempted {
		t.Errorf("status %v, want failed or not attempted", st)
	}
	if errors.Is(err, datahub.ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled without ErrOutcomeUnknown", err)
	}
	if n := s.RequestCount(opWrite); n != 0 {
		t.Errorf("%d requests reached the server, want 0", n)
	}
}
