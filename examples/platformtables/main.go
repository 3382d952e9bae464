// Command platformtables lists every feature table of a data platform with
// its features: one search (client.SearchAs, paged by scroll ids, so it
// holds past 10,000 tables too) for the platform's feature tables, typed,
// each with the features it lists.
//
// With no -server it writes three sample tables (two on feast, one on
// tecton) to an embedded mock DataHub first. With -server it lists what that
// server has, and writes the sample tables there first only when -sample is
// given:
//
//	go run ./examples/platformtables
//	go run ./examples/platformtables -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN" -platform feast
//	go run ./examples/platformtables -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN" -sample
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

var (
	platform = flag.String("platform", "feast", "data platform of the feature tables")
	sample   = flag.Bool("sample", false, "write the sample tables to -server first (always done for the embedded mock)")
)

func main() {
	embedded.Main("platformtables", func(ctx context.Context, server, token string, out io.Writer) error {
		return list(ctx, server, token, *platform, *sample, out)
	})
}

// run is list without -sample.
func run(ctx context.Context, server, token, platform string, out io.Writer) error {
	return list(ctx, server, token, platform, false, out)
}

// list runs the example against server ("": an embedded mock, always given
// the sample tables), writing the sample tables to it first when sample is
// set.
func list(ctx context.Context, server, token, platform string, sample bool, out io.Writer) error {
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
	fmt.Fprintf(out, "feature tables on %s:\n", platform)
	for t, err := range client.SearchAs[client.MLFeatureTableView](ctx, c, "*", client.Platform(platform), client.WithLimit(-1)) {
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

// seed writes the sample tables.
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
