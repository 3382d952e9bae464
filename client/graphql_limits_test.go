package client

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// limitQueries are documents that cost a server without limits seconds and
// gigabytes: many aliases of one field, one field repeated (quadratic in
// graph-gophers' overlap validation), and deep nesting.
func limitQueries() map[string]string {
	const feature = `"urn:li:mlFeature:(ns,f)"`
	var aliases, compact, repeats strings.Builder
	aliases.WriteString("{")
	compact.WriteString("{ mlFeature(urn: " + feature + ") {")
	for i := range 20_000 {
		fmt.Fprintf(&aliases, " a%d: mlFeature(urn: %s) { urn name description featureNamespace }", i, feature)
		fmt.Fprintf(&compact, " a%d: urn", i)
	}
	aliases.WriteString(" }")
	compact.WriteString(" } }")
	repeats.WriteString("{ mlFeature(urn: " + feature + ") {")
	repeats.WriteString(strings.Repeat(" urn", 100_000))
	repeats.WriteString(" } }")
	return map[string]string{
		"20,000 aliases (2 MB)":      aliases.String(),
		"20,000 aliases of a member": compact.String(),
		"100,000 repeats of a field": repeats.String(),
	}
}

// TestGraphQLLimits: documents beyond the server's limits are refused with
// one error whose message names the limit; a document within them works.
func TestGraphQLLimits(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	want := map[string]string{
		"20,000 aliases (2 MB)":      "exceeds the maximum of 1048576 bytes",
		"20,000 aliases of a member": "maximum query complexity exceeded: more than 2000 fields",
		"100,000 repeats of a field": "takes more than 20000 comparisons",
	}
	for name, doc := range limitQueries() {
		t.Run(name, func(t *testing.T) {
			_, err := c.GraphQL(ctx, doc, nil, "")
			var ge *GraphQLError
			if !errors.As(err, &ge) {
				t.Fatalf("error %v (%T), want a *GraphQLError", err, err)
			}
			if !strings.Contains(ge.Message, want[name]) || ge.Classification != "ExecutionAborted" || len(ge.Others) != 0 {
				t.Errorf("error %+v, want one ExecutionAborted error containing %q", ge, want[name])
			}
		})
	}
	t.Run("deep", func(t *testing.T) {
		doc := "{ __schema { types { " + strings.Repeat("fields { type { ", 30) + "name" + strings.Repeat(" } }", 30) + " } } }"
		_, err := c.GraphQL(ctx, doc, nil, "")
		var ge *GraphQLError
		if !errors.As(err, &ge) || ge.Message != "maximum query depth exceeded: deeper than 50" || len(ge.Others) != 0 {
			t.Errorf("error %v, want one depth error", err)
		}
	})
	t.Run("within the limits", func(t *testing.T) {
		doc := `{ a: mlFeature(urn: "urn:li:mlFeature:(ns,f)") { urn } b: mlFeature(urn: "urn:li:mlFeature:(ns,f)") { urn urn } }`
		if _, err := c.GraphQL(ctx, doc, nil, ""); err != nil {
			t.Errorf("GraphQL = %v", err)
		}
	})
}
