// Command featurestoresync is an ingestion job of the kind that runs every
// hour: it makes DataHub match a feature store (a project, its feature
// tables and their features) and stops. It writes only what changed
// (Ensure), and removes from DataHub what the store no longer has, as
// DataHub's stateful ingestion does: the URNs each run produced are kept in
// a checkpoint DataHub's Python connectors share, and the next run
// soft-deletes those it did not produce, unless a fail-safe stops it.
//
// With no -server it runs three times against an embedded mock DataHub: a
// first run creates everything, a second identical run writes nothing, a
// third, after a table was dropped from the store, removes that table and
// its features:
//
//	go run ./examples/featurestoresync
//	go run ./examples/featurestoresync -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
//	go run ./examples/featurestoresync -server http://localhost:8080 -dry-run
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/stateful"
	"github.com/catalogkit/datahub-go/urn"
)

var dryRun = flag.Bool("dry-run", false, "say what would be removed, remove and commit nothing")

func main() {
	embedded.Main("featurestoresync", func(ctx context.Context, server, token string, out io.Writer) error {
		return run(ctx, server, token, *dryRun, out)
	})
}

// Table is a feature table of the store.
type Table struct {
	Name        string
	Description string
	Features    []string
}

// Store is the feature store the job reads: a project and its tables.
type Store struct {
	Project string
	Tables  []Table
}

// sample is the store of the example.
func sample() Store {
	return Store{Project: "driver_ranking", Tables: []Table{
		{"driver_stats", "Hourly driver statistics", []string{"conv_rate", "acc_rate", "avg_daily_trips"}},
		{"customer_profile", "Customer profile features", []string{"current_balance", "life_time_value"}},
		{"driver_location", "Where drivers are", []string{"lat", "lon"}},
	}}
}

// pipeline names the job's checkpoints; a Python connector of the same
// pipeline and platform shares them.
const (
	pipeline = "featurestore_sync"
	platform = "feast"
)

// run syncs the sample store three times to the GMS at server (an embedded
// mock when empty): as it is, again, and without driver_location.
func run(ctx context.Context, server, token string, dryRun bool, out io.Writer) error {
	_, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	store := sample()
	for i, name := range []string{"first run", "second run, nothing changed", "third run, driver_location dropped"} {
		if i == 2 {
			store.Tables = slices.DeleteFunc(store.Tables, func(t Table) bool { return t.Name == "driver_location" })
		}
		rep, err := Sync(ctx, c, store, dryRun, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s: %d written (%d aspects), %d unchanged, %d removed, %d failed\n",
			name, rep.Written, rep.AspectsWritten, rep.Unchanged, rep.Removed, rep.Failed)
		for _, u := range rep.Stale {
			fmt.Fprintf(out, "  removed %s\n", u)
		}
		if rep.Skipped != "" {
			fmt.Fprintf(out, "  nothing removed: %s\n", rep.Skipped)
		}
	}
	return nil
}

// Sync makes DataHub match store: one run of the job.
func Sync(ctx context.Context, c *client.Client, store Store, dryRun bool, log *slog.Logger) (stateful.Report, error) {
	opts := []stateful.Option{stateful.WithPlatform(platform), stateful.WithDryRun(dryRun)}
	if log != nil {
		opts = append(opts, stateful.WithLogger(log))
	}
	r, err := stateful.Start(ctx, c, pipeline, opts...)
	if err != nil {
		return stateful.Report{}, err
	}
	// The project is a container named as DataHub's connectors name
	// project containers.
	project, err := urn.ProjectKey{ContainerKey: urn.ContainerKey{Platform: platform}, ProjectID: store.Project}.URN()
	if err != nil {
		return stateful.Report{}, err
	}
	_, err = r.Ensure(ctx, &entity.Container{
		URN:        project,
		Properties: &aspects.ContainerProperties{Name: store.Project, CustomProperties: map[string]string{"platform": platform, "project_id": store.Project}},
		SubTypes:   &aspects.SubTypes{TypeNames: []string{"Project"}},
	})
	if err != nil {
		return r.Finish(ctx) // counted as a failure: Finish removes nothing
	}
	for _, t := range store.Tables {
		if err := syncTable(ctx, r, t); err != nil {
			break // counted: Finish removes nothing and commits nothing
		}
	}
	return r.Finish(ctx)
}

// syncTable ensures table t and its features.
func syncTable(ctx context.Context, r *stateful.Run, t Table) error {
	tu, err := urn.NewMLFeatureTable(platform, t.Name)
	if err != nil {
		r.Fail(err)
		return err
	}
	var features []string
	for _, f := range t.Features {
		fu, err := urn.NewMLFeature(t.Name, f)
		if err != nil {
			r.Fail(err)
			return err
		}
		features = append(features, fu.String())
		if _, err := r.Ensure(ctx, &entity.MLFeature{URN: fu, Properties: &aspects.MLFeatureProperties{Description: aspects.Ptr(f + " of " + t.Name)}}); err != nil {
			return err
		}
	}
	_, err = r.Ensure(ctx, &entity.MLFeatureTable{URN: tu, Properties: &aspects.MLFeatureTableProperties{
		Description: aspects.Ptr(t.Description),
		MLFeatures:  features,
	}})
	return err
}
