// Command platformtables lists every feature table of a data platform with
// its features: one search (client.SearchAs, paged by scroll ids, so it
// holds past 10,000 tables too) for the platform's feature tables, typed,
// each with the features it lists.
//
// With no -server it writes three tables (two on feast, one on tecton) to an
// embedded mock DataHub first:
//
//	go run ./examples/platformtables
//	go run ./examples/platformtables -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN" -platform feast
package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

var platform = flag.String("platform", "feast", "data platform of the feature tables")

func main() {
	embedded.Main("platformtables", func(ctx context.Context, server, token string, out io.Writer) error {
		return run(ctx, server, token, *platform, out)
	})
}

func run(ctx context.Context, server, token, platform string, out io.Writer) error {
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	if server == "" {
		if err := seed(ctx, em); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "feature tables on %s:\n", platform)
	for t, err := range client.SearchAs[client.MLFeatureTable](ctx, c, "*", client.Platform(platform), client.WithLimit(-1)) {
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s (%s)\n", t.Name, t.URN)
		if t.Properties == nil {
			continue
		}
		for _, f := range t.Properties.MLFeatures {
			fmt.Fprintf(out, "  %s\n", f.Name)
		}
	}
	return nil
}

// seed writes the embedded mock's tables.
func seed(ctx context.Context, em *emitter.REST) error {
	tables := []struct {
		platform, name string
		features       []string
	}{
		{"feast", "users", []string{"age", "country"}},
		{"feast", "orders", []string{"total_30d"}},
		{"tecton", "sessions", []string{"length"}},
	}
	var ps []emitter.Proposal
	for _, t := range tables {
		u, err := urn.NewMLFeatureTable(t.platform, t.name)
		if err != nil {
			return err
		}
		props := aspects.MLFeatureTableProperties{}
		for _, name := range t.features {
			f, err := urn.NewMLFeature(t.name, name)
			if err != nil {
				return err
			}
			props.MLFeatures = append(props.MLFeatures, f.String())
		}
		p, err := emitter.NewProposal(u, props)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	return em.Emit(ctx, ps...)
}
