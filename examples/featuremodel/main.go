// Command featuremodel records which features an ML model was trained on
// (mlModelProperties.mlFeatures) and which dataset each feature comes from
// (mlFeatureProperties.sources), with client.AddFeatureToModel and
// client.AddSourceToFeature. Both read, add and write back with
// If-Version-Match, keep what other writers added meanwhile, and write
// nothing when the URN is there already.
//
//	go run ./examples/featuremodel
//	go run ./examples/featuremodel -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
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

func main() { embedded.Main("featuremodel", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	model, err := urn.NewMLModel("sagemaker", "churn-model-v3", "PROD")
	if err != nil {
		return err
	}
	source, err := urn.NewDataset("hive", "analytics.users", "PROD")
	if err != nil {
		return err
	}
	if err := create(ctx, em, model, aspects.MLModelProperties{Description: aspects.Ptr("Weekly retrain.")}); err != nil {
		return err
	}
	for _, name := range []string{"age", "country", "age"} { // the second "age" writes nothing
		feature, err := urn.NewMLFeature("user_features", name)
		if err != nil {
			return err
		}
		if err := create(ctx, em, feature, aspects.MLFeatureProperties{DataType: aspects.Ptr(aspects.MLFeatureDataTypeNominal)}); err != nil {
			return err
		}
		if err := c.AddFeatureToModel(ctx, model, feature); err != nil {
			return err
		}
		if err := c.AddSourceToFeature(ctx, feature, source); err != nil {
			return err
		}
	}
	props, err := client.GetAspect[aspects.MLModelProperties](ctx, c, model)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s was trained on:\n", model)
	for _, f := range props.MLFeatures {
		fp, err := client.GetAspect[aspects.MLFeatureProperties](ctx, c, urn.MustParse(f))
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  %s from %v\n", f, fp.Sources)
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
