package client_test

import (
	"context"
	"fmt"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/urn"
)

func ExampleEntities_Ensure() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()
	c, err := client.New(server)
	must(err)

	u, err := urn.NewMLFeatureTable("feast", "driver_stats")
	must(err)
	table := func(description string) *entity.MLFeatureTable {
		return &entity.MLFeatureTable{URN: u,
			Properties: &aspects.MLFeatureTableProperties{Description: aspects.Ptr(description)},
			Status:     &aspects.Status{}}
	}
	for _, t := range []*entity.MLFeatureTable{table("Hourly stats"), table("Hourly stats"), table("Hourly driver stats")} {
		res, err := c.Entities().Ensure(ctx, t)
		must(err)
		fmt.Println(res.Aspects["mlFeatureTableProperties"], res.Aspects["status"], res.Changed())
	}
	// Output:
	// created created true
	// unchanged unchanged false
	// updated unchanged true
}

func ExampleClient_WithEmitMode() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()
	c, err := client.New(server)
	must(err)

	u, err := urn.NewMLFeatureTable("feast", "trips")
	must(err)
	// This write returns once the entity is searchable, the client's
	// others as soon as they are stored.
	_, err = c.WithEmitMode(emitter.EmitAsyncWait).Entities().Ensure(ctx, &entity.MLFeatureTable{URN: u,
		Properties: &aspects.MLFeatureTableProperties{Description: aspects.Ptr("Trips")}})
	must(err)
	fmt.Println(c.EmitMode(), c.WithEmitMode(emitter.EmitAsyncWait).EmitMode())
	// Output: SYNC_PRIMARY ASYNC_WAIT
}
