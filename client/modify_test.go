package client

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
)

func TestAddFeatureToTableConcurrent(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	table := tableURN(t, "concurrent")
	putTable(t, s, table)

	want := featureNames(64, "concurrent")
	addConcurrently(t, s, c, table, want)
}

// oldTableProperties is mlFeatureTableProperties as an older SDK would type
// it: it knows only mlFeatures, so customProperties, description and
// mlPrimaryKeys are a newer server's members to it.
type oldTableProperties struct {
	MLFeatures []string `json:"mlFeatures,omitempty"`
}

func (oldTableProperties) AspectName() string { return "mlFeatureTableProperties" }

func TestModifyKeepsUnknownMembers(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	table := tableURN(t, "newer-server")
	stored := `{"customProperties":{"k":"v"},"description":"d","mlFeatures":["urn:li:mlFeature:(ns,a)"],"mlPrimaryKeys":["urn:li:mlPrimaryKey:(ns,id)"]}`
	if err := s.PutAspectJSON(table.String(), "mlFeatureTableProperties", []byte(stored)); err != nil {
		t.Fatal(err)
	}
	err := Modify(t.Context(), c, table, func(p *oldTableProperties) error {
		if want := []string{"urn:li:mlFeature:(ns,a)"}; !slices.Equal(p.MLFeatures, want) {
			t.Errorf("read %v, want %v", p.MLFeatures, want)
		}
		p.MLFeatures = append(p.MLFeatures, "urn:li:mlFeature:(ns,b)")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := s.GetAspectJSON(table.String(), "mlFeatureTableProperties", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"customProperties":{"k":"v"},"description":"d","mlFeatures":["urn:li:mlFeature:(ns,a)","urn:li:mlFeature:(ns,b)"],"mlPrimaryKeys":["urn:li:mlPrimaryKey:(ns,id)"]}`
	if !equalJSON(raw, []byte(want)) {
		t.Errorf("stored %s\nwant   %s", raw, want)
	}
}

func TestMergeUnknown(t *testing.T) {
	t.Parallel()
	known := knownMembers(reflect.TypeFor[aspects.MLFeatureTableProperties]())
	for _, tc := range []struct {
		name   string
		value  aspects.MLFeatureTableProperties
		stored string
		want   string
	}{
		{"nothing stored", aspects.MLFeatureTableProperties{Description: aspects.Ptr("x")}, ``,
			`{"customProperties":{},"description":"x"}`},
		{"unknown member kept", aspects.MLFeatureTableProperties{}, `{"description":"old","future":[1,{"a":"<&>"}]}`,
			`{"customProperties":{},"future":[1,{"a":"<&>"}]}`},
		{"known member cleared", aspects.MLFeatureTableProperties{}, `{"description":"old","mlFeatures":["u"]}`,
			`{"customProperties":{}}`},
		{"stored not an object", aspects.MLFeatureTableProperties{}, `[1]`, `{"customProperties":{}}`},
		{"nested unknown member kept", aspects.MLFeatureTableProperties{Description: aspects.Ptr("x")}, `{"future":{"a":1}}`,
			`{"customProperties":{},"description":"x","future":{"a":1}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkMerge(t, tc.value, tc.stored, known, tc.want)
		})
	}
	// Inside a struct member: VersionTag of mlModelProperties.version.
	model := knownMembers(reflect.TypeFor[aspects.MLModelProperties]())
	for _, tc := range []struct {
		name   string
		value  aspects.MLModelProperties
		stored string
		want   string
	}{
		{"unknown inside a known object", aspects.MLModelProperties{Version: &aspects.VersionTag{VersionTag: aspects.Ptr("2")}},
			`{"version":{"versionTag":"1","signed":true},"created":{"time":5}}`,
			`{"customProperties":{},"tags":[],"version":{"versionTag":"2","signed":true}}`},
		{"known object cleared", aspects.MLModelProperties{}, `{"version":{"versionTag":"1","signed":true}}`,
			`{"customProperties":{},"tags":[]}`},
		{"list element matched", aspects.MLModelProperties{HyperParams: []aspects.MLHyperParam{{Name: "lr"}}},
			`{"hyperParams":[{"name":"lr","unit":"1/s"}]}`,
			`{"customProperties":{},"tags":[],"hyperParams":[{"name":"lr","unit":"1/s"}]}`},
		{"changed list element keeps nothing", aspects.MLModelProperties{HyperParams: []aspects.MLHyperParam{{Name: "lr", Value: aspects.Ptr("2")}}},
			`{"hyperParams":[{"name":"lr","unit":"1/s"}]}`,
			`{"customProperties":{},"tags":[],"hyperParams":[{"name":"lr","value":"2"}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkMerge(t, tc.value, tc.stored, model, tc.want)
		})
	}
}

func TestModifyNoChangeWritesNothing(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	table := tableURN(t, "idem")
	f := featureURN(t, "idem", "a")
	putTable(t, s, table, f.String())
	before := s.RequestCount(opWrite)
	for range 3 {
		if err := c.AddFeatureToTable(t.Context(), table, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.RemoveFeatureFromTable(t.Context(), table, featureURN(t, "idem", "absent")); err != nil {
		t.Fatal(err)
	}
	// A function that returns the value unchanged writes nothing either.
	if err := Modify(t.Context(), c, table, func(*aspects.MLFeatureTableProperties) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if got := s.RequestCount(opWrite) - before; got != 0 {
		t.Errorf("%d writes, want 0", got)
	}
	if got := mustGetTable(t, s, table).MLFeatures; !slices.Equal(got, []string{f.String()}) {
		t.Errorf("features %v", got)
	}
}

func TestModifyFunctionError(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	table := tableURN(t, "fnerr")
	putTable(t, s, table)
	boom := errors.New("boom")
	err := Modify(t.Context(), c, table, func(*aspects.MLFeatureTableProperties) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("err = %v, want boom", err)
	}
}

func TestHelpersRefuseMissingEntity(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	table := tableURN(t, "nowhere")
	err := c.AddFeatureToTable(t.Context(), table, featureURN(t, "ns", "a"))
	var nf *EntityNotFoundError
	if !errors.As(err, &nf) || !errors.Is(err, datahub.ErrNotFound) || nf.URN != table.String() {
		t.Fatalf("err = %v, want *EntityNotFoundError for %s", err, table)
	}
	if n := s.RequestCount(opWrite); n != 0 {
		t.Errorf("%d writes", n)
	}
	// Modify itself creates.
	if err := Modify(t.Context(), c, table, func(p *aspects.MLFeatureTableProperties) error {
		p.Description = aspects.Ptr("new")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Exists(t.Context(), table); err != nil || !ok {
		t.Errorf("Exists = %v, %v after Modify", ok, err)
	}
}

func TestModifyConflictRetriesRunOut(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s, WithConflictPolicy(ConflictPolicy{MaxAttempts: 3}))
	table := tableURN(t, "contended")
	putTable(t, s, table)
	calls := 0
	err := Modify(t.Context(), c, table, func(p *aspects.MLFeatureTableProperties) error {
		calls++
		// Another writer changes the aspect between every read and write.
		if err := s.PutAspect(table.String(), aspects.MLFeatureTableProperties{Description: aspects.Ptr(string(rune('a' + calls)))}); err != nil {
			t.Error(err)
		}
		p.Description = aspects.Ptr("mine")
		return nil
	})
	var ce *ConflictError
	if !errors.As(err, &ce) || !errors.Is(err, datahub.ErrPreconditionFailed) {
		t.Fatalf("err = %v, want *ConflictError", err)
	}
	if ce.Attempts != 3 || calls != 3 || ce.URN != table.String() || ce.Aspect != "mlFeatureTableProperties" {
		t.Errorf("ConflictError %+v after %d calls", ce, calls)
	}
}

// badTableProperties is mlFeatureTableProperties with a member the server
// refuses (422), to see a definite refusal end Modify.
type badTableProperties struct {
	Bogus int `json:"bogus"`
}

func (badTableProperties) AspectName() string { return "mlFeatureTableProperties" }

func TestModifyWriteFailures(t *testing.T) {
	t.Parallel()
	noWait := datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 3, Backoff: func(int, *http.Response) time.Duration { return 0 }})
	t.Run("503 and 429 are retried", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		c := newTestClient(t, s, noWait)
		table := tableURN(t, "busy")
		putTable(t, s, table)
		// More failures than the transport's attempts: Modify's own
		// rounds go on.
		s.Fail(opWrite, mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: 3})
		s.Fail(opWrite, mockserver.FailSpec{Status: http.StatusTooManyRequests, Times: 2})
		if err := c.AddFeatureToTable(t.Context(), table, featureURN(t, "busy", "a")); err != nil {
			t.Fatal(err)
		}
		if got := mustGetTable(t, s, table).MLFeatures; !slices.Equal(got, []string{"urn:li:mlFeature:(busy,a)"}) {
			t.Errorf("features %v", got)
		}
		if n := s.RequestCount(opWrite); n != 6 {
			t.Errorf("%d write attempts, want 6", n)
		}
	})
	t.Run("busy to the end is no conflict", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		c := newTestClient(t, s, noWait, WithConflictPolicy(ConflictPolicy{MaxAttempts: 2}))
		table := tableURN(t, "busy-forever")
		putTable(t, s, table)
		s.Fail(opWrite, mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: mockserver.Forever})
		err := c.AddFeatureToTable(t.Context(), table, featureURN(t, "busy", "a"))
		var de *datahub.Error
		var ce *ConflictError
		if !errors.As(err, &de) || de.StatusCode != http.StatusServiceUnavailable || errors.As(err, &ce) || errors.Is(err, datahub.ErrPreconditionFailed) {
			t.Fatalf("err = %v, want the 503, not a conflict", err)
		}
		if n := s.RequestCount(opWrite); n != 6 {
			t.Errorf("%d write attempts, want 6 (2 rounds of 3)", n)
		}
	})
	t.Run("a refusal ends Modify", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		c := newTestClient(t, s, noWait)
		table := tableURN(t, "refused")
		putTable(t, s, table)
		err := Modify(t.Context(), c, table, func(p *badTableProperties) error { p.Bogus = 1; return nil })
		var de *datahub.Error
		if !errors.As(err, &de) || de.StatusCode != validationStatus || !errors.Is(err, datahub.ErrValidation) {
			t.Fatalf("err = %v, want the server's %d", err, validationStatus)
		}
		if n := s.RequestCount(opWrite); n != 1 {
			t.Errorf("%d writes, want 1", n)
		}
	})
	t.Run("context cancelled during the wait", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		c := newTestClient(t, s, noWait, WithConflictPolicy(ConflictPolicy{MaxAttempts: 5, MinWait: time.Hour, MaxWait: time.Hour}))
		c.sleep = func(ctx context.Context, d time.Duration) error {
			if d > time.Hour {
				t.Errorf("wait %v above MaxWait", d)
			}
			return context.Canceled
		}
		table := tableURN(t, "cancel")
		putTable(t, s, table)
		s.Fail(opWrite, mockserver.FailSpec{Status: http.StatusPreconditionFailed, Times: 1})
		err := c.AddFeatureToTable(t.Context(), table, featureURN(t, "cancel", "a"))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}

func TestModifyRereadFailureEnds(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	table := tableURN(t, "reread")
	putTable(t, s, table)
	s.Fail(opWrite, mockserver.FailSpec{Status: http.StatusPreconditionFailed, Times: 1})
	// The read after the conflict is refused.
	c.sleep = func(context.Context, time.Duration) error {
		s.Fail(opGetEntity, mockserver.FailSpec{Status: http.StatusBadRequest, Times: 1})
		return nil
	}
	err := c.AddFeatureToTable(t.Context(), table, featureURN(t, "reread", "a"))
	var de *datahub.Error
	if !errors.As(err, &de) || de.StatusCode != http.StatusBadRequest {
		t.Fatalf("err = %v, want the read's 400", err)
	}
	if n := s.RequestCount(opWrite); n != 1 {
		t.Errorf("%d writes, want 1", n)
	}
}

// TestModifyRequireEntity checks the one rule for entities that do not
// exist: Modify creates them by default and refuses them, without calling
// fn, under WithRequireEntity (the option or the per-call copy); an
// existing entity with the aspect missing is written either way.
func TestModifyRequireEntity(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		client  func(c *Client) *Client
		opts    []Option
		refuses bool
	}{
		{"default creates", nil, nil, false},
		{"option refuses", nil, []Option{WithRequireEntity(true)}, true},
		{"per call refuses", func(c *Client) *Client { return c.WithRequireEntity(true) }, nil, true},
		{"per call lifts the option", func(c *Client) *Client { return c.WithRequireEntity(false) }, []Option{WithRequireEntity(true)}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			c := newTestClient(t, s, tt.opts...)
			if tt.client != nil {
				c = tt.client(c)
			}
			missing := tableURN(t, "never-written")
			calls := 0
			err := Modify(t.Context(), c, missing, func(p *aspects.MLFeatureTableProperties) error {
				calls++
				p.Description = aspects.Ptr("new")
				return nil
			})
			_, gerr := mockserver.Get[aspects.MLFeatureTableProperties](s, missing)
			if tt.refuses {
				var nf *EntityNotFoundError
				if !errors.As(err, &nf) || !errors.Is(err, datahub.ErrNotFound) || nf.URN != missing.String() || calls != 0 {
					t.Errorf("Modify = %v after %d calls of fn, want an *EntityNotFoundError and none", err, calls)
				}
				if !errors.Is(gerr, datahub.ErrNotFound) {
					t.Errorf("the refused entity was written: %v", gerr)
				}
			} else {
				if err != nil || calls != 1 {
					t.Errorf("Modify = %v after %d calls of fn, want nil after 1", err, calls)
				}
				mockserver.Check(t, s, missing, aspects.MLFeatureTableProperties{Description: aspects.Ptr("new")})
			}

			// An entity that exists, its aspect missing: written either way.
			existing := tableURN(t, "exists")
			if err := s.PutAspect(existing.String(), aspects.Status{}); err != nil {
				t.Fatal(err)
			}
			if err := Modify(t.Context(), c, existing, func(p *aspects.MLFeatureTableProperties) error {
				p.Description = aspects.Ptr("added")
				return nil
			}); err != nil {
				t.Fatalf("Modify of an existing entity: %v", err)
			}
			mockserver.Check(t, s, existing, aspects.MLFeatureTableProperties{Description: aspects.Ptr("added")})
		})
	}
}
