package client_test

import (
	"context"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/urn"
)

func ExampleEntities_Create() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()
	c, err := client.New(server)
	must(err)

	u, err := urn.NewDataset("snowflake", "shop.orders", "PROD")
	must(err)
	ds := entity.NewDataset(u, "Orders placed on the web shop.",
		entity.Column{Name: "id", Type: "bigint", Description: "Order id"},
		entity.Column{Name: "amount", Type: "decimal(10,2)", Description: "Total in EUR"})
	must(c.Entities().Create(ctx, ds))

	// A second Create finds the entity and writes nothing.
	err = c.Entities().Create(ctx, ds)
	fmt.Println(errors.Is(err, datahub.ErrAlreadyExists))
	// Output: true
}

func ExampleEntities_Update() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()
	c, err := client.New(server)
	must(err)

	// The mock holds this model; read it with its versions.
	e, err := c.Entities().Get(ctx, urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)"))
	must(err)
	m := e.(*entity.MLModel)
	// The function may run again on a fresh read if another writer
	// changes the model meanwhile: it only changes what it finds.
	res, err := c.Entities().Update(ctx, m, func() error {
		m.Properties.TrainingMetrics = append(m.Properties.TrainingMetrics, entity.Metrics(map[string]any{"auc": 0.91})...)
		m.GlobalTags = &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:production"}}}
		return nil
	})
	must(err)
	// The result says which aspects Update wrote.
	fmt.Println(*m.Properties.Description, *m.Properties.TrainingMetrics[0].Value, m.Version("mlModelProperties"), m.Version("globalTags"), res.Written())
	// Output: Churn model. 0.91 2 1 [globalTags mlModelProperties]
}
