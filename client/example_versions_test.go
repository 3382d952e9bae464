package client_test

import (
	"context"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// A model retrained: both versions linked into one version set, the new
// one the latest, with an alias. DataHub serves versioning with its
// entityVersioning feature flag on (ENTITY_VERSIONING_ENABLED=true); the
// mock with WithEntityVersioning(true).
func ExampleVersions_Link() {
	mock, err := mockserver.Listen("127.0.0.1:0", mockserver.WithEntityVersioning(true))
	must(err)
	defer mock.Close()
	c, err := client.New(mock.URL(), datahub.ForTests())
	must(err)
	ctx := context.Background()

	set, err := urn.NewVersionSet("churn", "mlModel")
	must(err)
	for i, name := range []string{"churn_2025_01", "churn_2025_02"} {
		u, err := urn.NewMLModel("mlflow", name, "PROD")
		must(err)
		must(c.Entities().Create(ctx, entity.NewMLModel(u, "Churn classifier", nil, nil)))
		_, _, err = c.Versions().Link(ctx, u, set, fmt.Sprint(i+1), client.WithVersionComment("monthly retraining"))
		must(err)
	}
	latest, err := urn.NewMLModel("mlflow", "churn_2025_02", "PROD")
	must(err)
	_, _, err = c.Versions().Link(ctx, latest, set, "2", client.WithVersionAliases("champion"))
	must(err)

	vs, err := c.Versions().Get(ctx, set)
	must(err)
	fmt.Println("latest:", vs.Latest)
	for _, v := range vs.Versions {
		fmt.Println(v.Label, v.URN, v.Aliases, v.Latest)
	}
	// Output:
	// latest: urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn_2025_02,PROD)
	// 2 urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn_2025_02,PROD) [champion] true
	// 1 urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn_2025_01,PROD) [] false
}
