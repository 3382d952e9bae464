package mockserver

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestFastForwardAppliesDueAsyncWrites moves the server's clock, without
// sleeping, and looks at the store directly (no read barrier): due async
// writes are applied by FastForward itself, in the order they were
// accepted, and nothing before it is due.
func TestFastForwardAppliesDueAsyncWrites(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := newServer(t, WithClock(func() time.Time { return t0 }), WithAsyncLag(time.Minute))
	post := func(value string) {
		t.Helper()
		r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
			ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", value), "true"))
		if r.Status != 200 {
			t.Fatalf("async write = %d %s", r.Status, r.Body)
		}
	}
	stored := func() []string { // the history (1 the oldest), then the latest (0)
		t.Helper()
		var out []string
		for v := int64(1); ; v++ {
			a, err := s.store.Get(dsURN, "datasetProperties", v)
			if err != nil {
				break
			}
			out = append(out, string(a.Value))
		}
		if a, err := s.store.Get(dsURN, "datasetProperties", 0); err == nil {
			out = append(out, string(a.Value))
		}
		return out
	}
	post(`{"description":"first"}`) // due at t0+1m
	s.FastForward(30 * time.Second)
	post(`{"description":"second"}`) // due at t0+1m30s
	s.FastForward(29 * time.Second)
	if got := stored(); len(got) != 0 {
		t.Fatalf("applied before due: %v", got)
	}
	s.FastForward(time.Second)
	if diff := cmp.Diff([]string{`{"description":"first"}`}, stored()); diff != "" {
		t.Errorf("at t0+1m (-want +got):\n%s", diff)
	}
	s.FastForward(-time.Hour) // ignored
	if got, want := s.Now(), t0.Add(time.Minute); !got.Equal(want) {
		t.Errorf("Now = %v, want %v", got, want)
	}
	s.FastForward(30 * time.Second)
	if diff := cmp.Diff([]string{`{"description":"first"}`, `{"description":"second"}`}, stored()); diff != "" {
		t.Errorf("at t0+1m30s (-want +got):\n%s", diff)
	}
	// Versions are stamped with the server's clock.
	if a, err := s.store.Get(dsURN, "datasetProperties", 0); err != nil || !a.CreatedOn.Equal(t0.Add(90*time.Second)) {
		t.Errorf("latest version created on %v (%v), want %v", a.CreatedOn, err, t0.Add(90*time.Second))
	}
}

func TestSetTime(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := newFakeClock()
	s := newServer(t, WithClock(clock.Now), WithAsyncLag(time.Hour))
	s.SetTime(t0)
	if got := s.Now(); !got.Equal(t0) {
		t.Fatalf("Now = %v, want %v", got, t0)
	}
	clock.Advance(time.Second) // the base clock keeps moving the server's
	if got := s.Now(); !got.Equal(t0.Add(time.Second)) {
		t.Errorf("Now after the base clock moved = %v", got)
	}
	for _, v := range []string{`{"removed":true}`, `{"removed":false}`} {
		if r := serve(t, s, http.MethodPost, "/aspects?action=ingestProposal",
			ingestBody(t, mcp("dataset", dsURN, "UPSERT", "status", v), "true")); r.Status != 200 {
			t.Fatalf("async write = %d %s", r.Status, r.Body)
		}
	}
	if _, err := s.store.Get(dsURN, "status", 0); err == nil {
		t.Fatal("applied before due")
	}
	s.SetTime(t0.Add(2 * time.Hour))
	a, err := s.store.Get(dsURN, "status", 0)
	if err != nil || string(a.Value) != `{"removed":false}` {
		t.Errorf("after SetTime past the lag: %s %v, want the second write last", a.Value, err)
	}
	s.SetTime(t0) // back
	if got := s.Now(); !got.Equal(t0) {
		t.Errorf("Now after SetTime back = %v", got)
	}
}

// TestClockOverflow: moves past what a time.Duration offset holds neither
// wrap the clock around nor clamp silently.
func TestClockOverflow(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := newServer(t, WithClock(func() time.Time { return t0 }))
	s.FastForward(math.MaxInt64)
	far := s.Now()
	s.FastForward(time.Hour)
	if got := s.Now(); got.Before(far) {
		t.Errorf("FastForward(time.Hour) after FastForward(MaxInt64) moved the clock back from %v to %v", far, got)
	}
	for _, when := range []time.Time{time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)} {
		if err := s.SetTime(when); err == nil {
			t.Errorf("SetTime(%v) = nil, want an error; Now = %v", when, s.Now())
		}
	}
	if got := s.Now(); !got.Equal(far) {
		t.Errorf("refused SetTime moved the clock to %v, want %v", got, far)
	}
	if err := s.SetTime(t0); err != nil || !s.Now().Equal(t0) {
		t.Errorf("SetTime(%v) = %v, Now = %v", t0, err, s.Now())
	}
}
