package client_test

import (
	"context"
	"fmt"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/urn"
)

func ExampleWithWriteStrategy() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	// The patch strategy: each add is an existence check and one PATCH
	// proposal the server merges; no read of the aspect, no retries.
	c, err := client.New(server, client.WithWriteStrategy(client.Patch))
	must(err)
	defer c.CloseIdleConnections()
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)").(urn.MLFeatureTable)
	for _, name := range []string{"age", "country", "age"} { // adding twice changes nothing
		feature, err := urn.NewMLFeature("users", name)
		must(err)
		must(c.AddFeatureToTable(ctx, table, feature))
	}
	// One call with the conditional strategy (read, If-Version-Match write).
	plan, err := urn.NewMLFeature("users", "plan")
	must(err)
	must(c.WithWriteStrategy(client.Conditional).AddFeatureToTable(ctx, table, plan))

	props, err := client.GetAspect[aspects.MLFeatureTableProperties](ctx, c, table)
	must(err)
	fmt.Println(c.WriteStrategy(), props.MLFeatures)
	// Output: patch [urn:li:mlFeature:(users,age) urn:li:mlFeature:(users,country) urn:li:mlFeature:(users,plan)]
}
