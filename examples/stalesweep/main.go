// Command stalesweep removes from the catalog what a source no longer has,
// as an ingestion job does at the end of a run: it searches the feature
// tables this job ingested earlier (platform feast, custom property
// ingested_by=feast-sync), soft-deletes those the source no longer lists,
// and searches again. Soft-deleted tables drop out of searches (and
// lineage) but keep their metadata; writing them again brings them back.
//
// The search pages by scroll ids (no 10,000-result ceiling) and its limit
// is explicit: a sweep never acts on a silently truncated list.
//
// With no -server it writes four sample tables to an embedded mock DataHub
// first (three by this job, one by another) and sweeps against a source
// that still has two of them. With -server it sweeps what that server has,
// and writes the sample tables there first only when -sample is given:
//
//	go run ./examples/stalesweep
//	go run ./examples/stalesweep -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN" -keep users,orders
//	go run ./examples/stalesweep -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN" -sample
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

var (
	keep   = flag.String("keep", "users,orders", "comma-separated feature tables the source still has")
	sample = flag.Bool("sample", false, "write the sample tables to -server first (always done for the embedded mock)")
)

func main() {
	embedded.Main("stalesweep", func(ctx context.Context, server, token string, out io.Writer) error {
		return sweep(ctx, server, token, strings.Split(*keep, ","), *sample, out)
	})
}

// ours selects what this job ingested.
var ours = client.And(client.EntityType(urn.TypeMLFeatureTable), client.Platform("feast"),
	client.HasCustomProperty("ingested_by", "feast-sync"))

// run is sweep without -sample.
func run(ctx context.Context, server, token string, source []string, out io.Writer) error {
	return sweep(ctx, server, token, source, false, out)
}

// sweep runs the example against server ("": an embedded mock, always given
// the sample tables), writing the sample tables to it first when sample is
// set.
func sweep(ctx context.Context, server, token string, source []string, sample bool, out io.Writer) error {
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	switch {
	case server == "" || sample:
		if err := seed(ctx, em); err != nil {
			return err
		}
	default:
		fmt.Fprintf(out, "(what %s has; -sample writes the example's sample tables first)\n", server)
	}
	var stale []urn.URN
	for t, err := range client.SearchAs[client.MLFeatureTableView](ctx, c, "*", ours, client.WithLimit(100_000)) {
		if err != nil {
			return err // a refused page or the limit: sweep nothing rather than the wrong things
		}
		if !slices.Contains(source, t.Name) {
			u, err := urn.Parse(t.URN)
			if err != nil {
				return err
			}
			stale = append(stale, u)
		}
	}
	for _, u := range stale {
		if err := c.Entities().Delete(ctx, u, false); err != nil {
			return err
		}
		fmt.Fprintf(out, "soft-deleted %s\n", u)
	}
	n, err := c.Search().Count(ctx, "*", ours)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d tables of this job remain\n", n)
	return nil
}

// seed writes the sample tables: three from this job, one from another job
// on the same platform.
func seed(ctx context.Context, em *emitter.REST) error {
	var ps []emitter.Proposal
	for name, by := range map[string]string{"users": "feast-sync", "orders": "feast-sync", "sessions_v1": "feast-sync", "experiments": "notebook"} {
		u, err := urn.NewMLFeatureTable("feast", name)
		if err != nil {
			return err
		}
		p, err := emitter.NewProposal(u, aspects.MLFeatureTableProperties{CustomProperties: map[string]string{"ingested_by": by}})
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	return em.Emit(ctx, ps...)
}
