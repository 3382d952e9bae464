package client

import (
	"errors"
	"net/http"
	"testing"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLFaultsByOperation fails GraphQL operations by name on the mock,
// in GraphQL's shape (200 with errors) and as HTTP statuses, and checks how
// the client maps and retries them.
func TestGraphQLFaultsByOperation(t *testing.T) {
	t.Parallel()
	table, feature, _, _, dataset := gqlURNs(t)
	tests := []struct {
		name    string
		spec    mockserver.FailSpec
		want    error // the sentinel the error matches
		code    int   // extensions.code of a GraphQL-shaped error, 0 for an HTTP status
		typ     string
		message string
	}{
		{"403 in errors", mockserver.FailSpec{Status: 403, Times: 1, GraphQLError: "Unauthorized to perform this action. Please contact your DataHub administrator."},
			datahub.ErrUnauthorized, 403, "UNAUTHORIZED", "Unauthorized to perform this action. Please contact your DataHub administrator."},
		{"404 in errors", mockserver.FailSpec{Status: 404, Times: 1, GraphQLError: "not here"}, datahub.ErrNotFound, 404, "NOT_FOUND", "not here"},
		{"400 in errors", mockserver.FailSpec{Status: 400, Times: 1, GraphQLError: "bad"}, datahub.ErrValidation, 400, "BAD_REQUEST", "bad"},
		{"HTTP 404", mockserver.FailSpec{Status: 404, Times: 1}, datahub.ErrNotFound, 0, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			putTable(t, s, table)
			c := newTestClient(t, s)
			s.FailGraphQL("mlFeature", tt.spec)
			// Another operation is not affected.
			if _, err := c.MLFeatureTable(t.Context(), table); err != nil {
				t.Fatalf("mlFeatureTable under an mlFeature fault: %v", err)
			}
			_, err := c.MLFeature(t.Context(), feature)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want one matching %v", err, tt.want)
			}
			var de *datahub.Error
			if !errors.As(err, &de) || de.StatusCode != tt.spec.Status {
				t.Errorf("error %v: want a *datahub.Error with status %d", err, tt.spec.Status)
			}
			var ge *GraphQLError
			if got := errors.As(err, &ge); got != (tt.code != 0) {
				t.Fatalf("error %v is a *GraphQLError: %v, want %v", err, got, tt.code != 0)
			}
			if ge != nil && (ge.Code != tt.code || ge.Type != tt.typ || ge.Message != tt.message || ge.Classification != "DataFetchingException") {
				t.Errorf("GraphQL error %+v, want code %d type %s message %q", ge, tt.code, tt.typ, tt.message)
			}
			// The fault was used up: the next read answers.
			if _, err := c.MLFeature(t.Context(), feature); err != nil {
				t.Errorf("after the fault: %v", err)
			}
		})
	}

	t.Run("503 retried", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t, mockserver.WithFault(mockserver.FailGraphQL("dataset", mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: 2})))
		c := newTestClient(t, s, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 3, Backoff: func(int, *http.Response) time.Duration { return 0 }}))
		if _, err := c.Dataset(t.Context(), dataset); err != nil {
			t.Fatalf("after two 503s: %v", err)
		}
		if n := s.RequestCount(mockserver.OpGraphQL); n != 3 {
			t.Errorf("%d GraphQL requests, want 3 (two 503s, then the answer)", n)
		}
	})
	t.Run("200 with errors not retried", func(t *testing.T) {
		t.Parallel()
		s := mockserver.Start(t)
		s.FailGraphQL("dataset", mockserver.FailSpec{Status: 500, Times: 1, GraphQLError: "boom"})
		c := newTestClient(t, s, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 3, Backoff: func(int, *http.Response) time.Duration { return 0 }}))
		var ge *GraphQLError
		if _, err := c.Dataset(t.Context(), dataset); !errors.As(err, &ge) || ge.Code != 500 || ge.Type != "SERVER_ERROR" {
			t.Fatalf("error %v, want a 500 SERVER_ERROR GraphQL error", err)
		}
		if n := s.RequestCount(mockserver.OpGraphQL); n != 1 {
			t.Errorf("%d GraphQL requests, want 1", n)
		}
	})
}
