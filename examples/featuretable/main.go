// Command featuretable adds features to an ML feature table without losing
// concurrent additions: eight goroutines each add a feature to the same
// table at once through client.AddFeatureToTable, with each of the
// client's two write strategies:
//
//   - conditional (the default): read the aspect with its version, append,
//     write back with If-Version-Match, and retry on a conflict;
//   - patch (client.WithWriteStrategy(client.Patch)): check that the table
//     exists, then send one PATCH proposal that the server merges; no read
//     of the aspect, no retry.
//
// Adding a feature that is there already changes nothing either way.
// -strategy picks one; by default it runs both, each on its own table.
//
// With no -server it runs against an embedded mock DataHub:
//
//	go run ./examples/featuretable
//	go run ./examples/featuretable -strategy patch
//	go run ./examples/featuretable -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

func main() {
	server := flag.String("server", "", "DataHub GMS URL; empty starts an embedded mock server")
	token := flag.String("token", os.Getenv("DATAHUB_GMS_TOKEN"), "access token (default $DATAHUB_GMS_TOKEN)")
	strategy := flag.String("strategy", "both", "write strategy: conditional, patch or both")
	endpoint := flag.String("endpoint", "restli", "API: restli, openapi, or auto (picked from the server's version)")
	flag.Parse()
	log.SetFlags(0)
	ep, err := datahub.ParseEndpoint(*endpoint)
	if err != nil {
		log.Fatalf("featuretable: -endpoint: %v", err)
	}
	strategies := []client.WriteStrategy{client.Conditional, client.Patch}
	if *strategy != "both" {
		s, err := client.ParseWriteStrategy(*strategy)
		if err != nil {
			log.Fatalf("featuretable: %v", err)
		}
		strategies = []client.WriteStrategy{s}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, *server, *token, ep, strategies, os.Stdout); err != nil {
		log.Fatalf("featuretable: %v", err)
	}
}

func run(ctx context.Context, server, token string, ep datahub.Endpoint, strategies []client.WriteStrategy, out io.Writer) error {
	if server == "" {
		url, stop, err := embedded.Start()
		if err != nil {
			return err
		}
		defer stop()
		server = url
	}
	for _, s := range strategies {
		if err := addFeatures(ctx, server, token, ep, s, out); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// addFeatures creates the table user_features_<strategy> and adds eight
// features to it at once with the given write strategy.
func addFeatures(ctx context.Context, server, token string, ep datahub.Endpoint, strategy client.WriteStrategy, out io.Writer) error {
	table, err := urn.NewMLFeatureTable("feast", "user_features_"+strategy.String())
	if err != nil {
		return err
	}
	// The helpers refuse to write to an entity that does not exist: create
	// the table first.
	em, err := emitter.NewREST(server, datahub.WithToken(token), datahub.WithEndpoint(ep))
	if err != nil {
		return err
	}
	p, err := emitter.NewProposal(table, aspects.MLFeatureTableProperties{Description: aspects.Ptr("Features keyed by user.")})
	if err != nil {
		return err
	}
	if err := em.Emit(ctx, p); err != nil {
		return err
	}

	c, err := client.New(server, datahub.WithToken(token), datahub.WithEndpoint(ep), client.WithWriteStrategy(strategy))
	if err != nil {
		return err
	}
	// Close the connections the concurrent calls opened once done, as a
	// long-running program should for a client it stops using.
	defer c.CloseIdleConnections()
	names := []string{"age", "country", "signup_days", "logins_7d", "plan", "device", "locale", "churn_score"}
	var wg sync.WaitGroup
	errs := make([]error, len(names))
	for i, name := range names {
		wg.Go(func() {
			feature, err := urn.NewMLFeature("user_features", name)
			if err == nil {
				err = c.AddFeatureToTable(ctx, table, feature)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	// Idempotent: adding a feature that is there changes nothing (the
	// conditional strategy writes nothing; the patch strategy sends a
	// patch that leaves the value and its version as they were).
	age, err := urn.NewMLFeature("user_features", "age")
	if err != nil {
		return err
	}
	if err := c.AddFeatureToTable(ctx, table, age); err != nil {
		return err
	}

	props, err := client.GetAspect[aspects.MLFeatureTableProperties](ctx, c, table)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s strategy: %s has %d features:\n", strategy, table, len(props.MLFeatures))
	for _, f := range props.MLFeatures {
		fmt.Fprintf(out, "  %s\n", f)
	}
	return nil
}
