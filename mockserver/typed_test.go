package mockserver

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// fakeTester records what the helpers report; Fatalf stops nothing, so the
// helpers must return after it.
type fakeTester struct {
	errors, fatals []string
	cleanups       []func()
}

func (f *fakeTester) Helper()           {}
func (f *fakeTester) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTester) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTester) Fatalf(format string, args ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, args...))
}

// ownStatus is a caller's struct for the status aspect.
type ownStatus struct {
	Removed bool `json:"removed"`
}

func (ownStatus) AspectName() string { return "status" }

// myURN is a caller's string type for URNs.
type myURN string

func TestGet(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	props := aspects.DatasetProperties{Description: aspects.Ptr("daily"), CustomProperties: map[string]string{"k": "v"}}
	if err := s.PutAspect(dsURN, props); err != nil {
		t.Fatal(err)
	}
	if err := s.PutAspectJSON(dsURN, "status", []byte(`{"removed":true}`)); err != nil {
		t.Fatal(err)
	}
	got, err := Get[aspects.DatasetProperties](s, dsURN)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(props, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Get[T] (-want +got):\n%s", diff)
	}
	ptr, err := Get[*aspects.DatasetProperties](s, dsURN)
	if err != nil || ptr == nil {
		t.Fatalf("Get[*T] = %v, %v", ptr, err)
	}
	if diff := cmp.Diff(props, *ptr, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Get[*T] (-want +got):\n%s", diff)
	}
	own, err := Get[ownStatus](s, dsURN)
	if err != nil || !own.Removed {
		t.Errorf("Get[own struct] = %+v, %v", own, err)
	}
	if _, err := Get[aspects.Status](s, "urn:li:dataset:(urn:li:dataPlatform:hive,missing,PROD)"); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("Get of a missing aspect = %v, want datahub.ErrNotFound", err)
	}
	typed, err := Get[aspects.DatasetProperties](s, urn.MustParse(dsURN))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(props, typed, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Get[T] of a typed URN (-want +got):\n%s", diff)
	}
	if _, err := Get[aspects.Aspect](s, dsURN); err == nil || !strings.Contains(err.Error(), "is not an aspect struct") {
		t.Errorf("Get[interface] = %v", err)
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	if err := s.PutAspect(dsURN, aspects.Status{Removed: true}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		check func(tb Tester)
		want  string // "" when the check passes
	}{
		{"equal", func(tb Tester) { Check(tb, s, dsURN, aspects.Status{Removed: true}) }, ""},
		{"equal, pointer", func(tb Tester) { Check(tb, s, dsURN, &aspects.Status{Removed: true}) }, ""},
		{"nil and empty are equal", func(tb Tester) {
			if err := s.PutAspect("urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD)", aspects.DatasetProperties{}); err != nil {
				t.Error(err)
			}
			Check(tb, s, "urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD)", aspects.DatasetProperties{CustomProperties: nil})
		}, ""},
		{"equal, typed URN", func(tb Tester) { Check(tb, s, urn.MustParse(dsURN), aspects.Status{Removed: true}) }, ""},
		{"equal, string type", func(tb Tester) { Check(tb, s, myURN(dsURN), aspects.Status{Removed: true}) }, ""},
		{"mismatch", func(tb Tester) { Check(tb, s, dsURN, aspects.Status{Removed: false}) },
			"mockserver: aspect status of " + dsURN + " mismatch (-want +got):"},
		{"mismatch, typed URN", func(tb Tester) { Check(tb, s, urn.MustParse(dsURN), aspects.Status{Removed: false}) },
			"mockserver: aspect status of " + dsURN + " mismatch (-want +got):"},
		{"not a URN", func(tb Tester) { Check(tb, s, 42, aspects.Status{}) },
			"mockserver.Check: mockserver: a URN is a string or a typed URN (a fmt.Stringer), not int"},
		{"missing", func(tb Tester) { Check(tb, s, "urn:li:corpuser:nobody", aspects.Status{}) }, "mockserver.Check: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ft fakeTester
			tt.check(&ft)
			if tt.want == "" {
				if len(ft.errors)+len(ft.fatals) != 0 {
					t.Errorf("reported %v %v", ft.errors, ft.fatals)
				}
				return
			}
			if len(ft.errors) != 1 || !strings.HasPrefix(ft.errors[0], tt.want) {
				t.Errorf("reported %q, want one error starting %q", ft.errors, tt.want)
			}
		})
	}
}
