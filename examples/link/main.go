// Command link adds documentation links to an entity (its
// institutionalMemory aspect) with client.AddLink, which stamps each link
// with its creation time and actor, then removes one with client.RemoveLink.
//
//	go run ./examples/link
//	go run ./examples/link -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"fmt"
	"io"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

func main() { embedded.Main("link", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	table, err := urn.NewMLFeatureTable("feast", "user_features")
	if err != nil {
		return err
	}
	if err := create(ctx, em, table, aspects.MLFeatureTableProperties{Description: aspects.Ptr("Features keyed by user.")}); err != nil {
		return err
	}
	links := []struct{ url, description string }{
		{"https://wiki.example.com/user-features", "Design doc"},
		{"https://dashboards.example.com/feature-freshness", "Freshness dashboard"},
		{"https://old.example.com/notes", "Old notes"},
	}
	for _, l := range links {
		if err := c.AddLink(ctx, table, l.url, l.description); err != nil {
			return err
		}
	}
	if err := c.RemoveLink(ctx, table, "https://old.example.com/notes"); err != nil {
		return err
	}
	mem, err := client.GetAspect[aspects.InstitutionalMemory](ctx, c, table)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "links of %s:\n", table)
	for _, l := range mem.Elements {
		fmt.Fprintf(out, "  %s (%s), added by %s\n", l.URL, l.Description, l.CreateStamp.Actor)
	}
	return nil
}

// create writes aspect a of entity u, so that the entity exists: the
// helpers refuse to write to one that does not.
func create(ctx context.Context, em *emitter.REST, u urn.URN, a aspects.Aspect) error {
	p, err := emitter.NewProposal(u, a)
	if err != nil {
		return err
	}
	return em.Emit(ctx, p)
}
