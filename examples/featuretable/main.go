// Command featuretable adds features to an ML feature table without losing
// concurrent additions: eight goroutines each add a feature to the same
// table at once through client.AddFeatureToTable, which reads, appends and
// writes back with If-Version-Match, retrying on conflicts. Adding a
// feature that is there already writes nothing.
//
// With no flags it runs against an embedded mock DataHub:
//
//	go run ./examples/featuretable
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
	flag.Parse()
	log.SetFlags(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, *server, *token, os.Stdout); err != nil {
		log.Fatalf("featuretable: %v", err)
	}
}

func run(ctx context.Context, server, token string, out io.Writer) error {
	if server == "" {
		url, stop, err := embedded.Start()
		if err != nil {
			return err
		}
		defer stop()
		server = url
	}
	table, err := urn.NewMLFeatureTable("feast", "user_features")
	if err != nil {
		return err
	}
	// The helpers refuse to write to an entity that does not exist: create
	// the table first.
	em, err := emitter.NewREST(server, datahub.WithToken(token))
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

	c, err := client.New(server, datahub.WithToken(token))
	if err != nil {
		return err
	}
	// Close the connections the concurrent calls opened before the
	// embedded server stops (its shutdown waits for open ones).
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
	// Idempotent: adding a feature that is there writes nothing.
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
	fmt.Fprintf(out, "%s has %d features:\n", table, len(props.MLFeatures))
	for _, f := range props.MLFeatures {
		fmt.Fprintf(out, "  %s\n", f)
	}
	return nil
}
