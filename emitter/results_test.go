package emitter_test

import (
	"errors"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestEmitResultsVersions checks what EmitResults reports per endpoint and
// mode: versions from OpenAPI's synchronous writes (the later of two writes
// of one aspect in a request gets it), none from Rest.li or async writes,
// and the BatchError's results when a proposal fails.
func TestEmitResultsVersions(t *testing.T) {
	t.Parallel()
	u, _ := urn.NewDataset("hive", "db.versions", "PROD")
	props := func(d string) emitter.Proposal {
		p, err := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr(d)})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		opts []emitter.Option
		want []string // versions of the three results
	}{
		{"openapi-sync", []emitter.Option{datahub.WithEndpoint(datahub.EndpointOpenAPI)}, []string{"", "2", "1"}},
		{"openapi-syncwait", []emitter.Option{datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithEmitMode(emitter.EmitSyncWait)}, []string{"", "2", "1"}},
		{"openapi-async", []emitter.Option{datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithEmitMode(emitter.EmitAsync)}, []string{"", "", ""}},
		{"restli", nil, []string{"", "", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			e, err := emitter.NewREST(s.URL(), tc.opts...)
			if err != nil {
				t.Fatal(err)
			}
			st, err := emitter.NewProposal(u, aspects.Status{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := e.EmitResults(t.Context(), props("a"), props("b"), st)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 3 {
				t.Fatalf("%d results, want 3", len(res))
			}
			for i, r := range res {
				if r.Index != i || r.Status != emitter.Written || r.Err != nil || r.Version != tc.want[i] {
					t.Errorf("result %d: %+v, want written with version %q", i, r, tc.want[i])
				}
			}
		})
	}
	t.Run("failure", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		e, err := emitter.NewREST(s.URL(), datahub.WithEndpoint(datahub.EndpointOpenAPI))
		if err != nil {
			t.Fatal(err)
		}
		bad := props("x")
		bad.ChangeType = emitter.Update // no OpenAPI form: Rejected unsent
		res, err := e.EmitResults(t.Context(), props("c"), bad)
		var be *emitter.BatchError
		if !errors.As(err, &be) {
			t.Fatalf("EmitResults with a bad proposal: %v, want a *BatchError", err)
		}
		if len(res) != 2 || &res[0] != &be.Results[0] {
			t.Fatalf("results %+v are not the BatchError's %+v", res, be.Results)
		}
		if res[0].Status != emitter.Written || res[0].Version != "1" || res[1].Status != emitter.Rejected || res[1].Version != "" {
			t.Errorf("results %+v, want the first written at version 1, the second rejected", res)
		}
	})
}
