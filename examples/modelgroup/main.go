// Command modelgroup puts ML models (training runs) into a model group. DataHub
// stores the membership on the model, in mlModelProperties.groups;
// client.AddModelToGroup adds the group there without losing concurrent
// changes to the model, and does not require the group to exist.
//
//	go run ./examples/modelgroup
//	go run ./examples/modelgroup -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
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

func main() { embedded.Main("modelgroup", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	group, err := urn.NewMLModelGroup("sagemaker", "churn-model", "PROD")
	if err != nil {
		return err
	}
	if err := create(ctx, em, group, aspects.MLModelGroupProperties{Description: aspects.Ptr("All runs of the churn model.")}); err != nil {
		return err
	}
	for _, name := range []string{"churn-model-v1", "churn-model-v2"} {
		model, err := urn.NewMLModel("sagemaker", name, "PROD")
		if err != nil {
			return err
		}
		if err := create(ctx, em, model, aspects.MLModelProperties{Type: aspects.Ptr("gradient boosted trees")}); err != nil {
			return err
		}
		for range 2 { // the second call writes nothing
			if err := c.AddModelToGroup(ctx, model, group); err != nil {
				return err
			}
		}
		props, err := client.GetAspect[aspects.MLModelProperties](ctx, c, model)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s groups: %v\n", model, props.Groups)
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
