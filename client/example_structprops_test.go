package client_test

import (
	"context"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// A structured property defined for models, set on one, and a value
// DataHub refuses.
func ExampleProperties_Set() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	c, err := client.New(mock.URL(), datahub.ForTests())
	must(err)
	ctx := context.Background()

	sp := c.StructuredProperties()
	risk, err := sp.Create(ctx, client.PropertyDefinition{
		QualifiedName: "io.acryl.ml.riskTier",
		Type:          client.PropertyString,
		DisplayName:   "Risk tier",
		EntityTypes:   []string{"mlModel"},
		AllowedValues: []client.AllowedValue{{Value: "low"}, {Value: "high", Description: "Needs a review"}},
	})
	must(err)

	model, err := urn.NewMLModel("mlflow", "churn", "PROD")
	must(err)
	must(c.Entities().Create(ctx, entity.NewMLModel(model, "Churn classifier", nil, nil)))
	must(sp.Set(ctx, model, risk, "high"))

	e, err := c.Entities().Get(ctx, model)
	must(err)
	for _, p := range e.(*entity.MLModel).StructuredProperties.Properties {
		fmt.Println(p.PropertyURN, *p.Values[0].String)
	}
	err = sp.Set(ctx, model, risk, "medium")
	fmt.Println(errors.Is(err, datahub.ErrValidation))
	// Output:
	// urn:li:structuredProperty:io.acryl.ml.riskTier high
	// true
}
