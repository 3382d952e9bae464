package client_test

import (
	"context"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// DataHub has no edge from a dataset to a model: Lineage.Add refuses the
// pair, saying which routes DataHub models. Here the route is a training
// run that read the dataset.
func ExampleLineage_Add_refused() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	c, err := client.New(mock.URL(), datahub.ForTests())
	must(err)
	ctx := context.Background()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)")
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)")
	must(mock.PutAspect(ds.String(), aspects.DatasetProperties{Description: aspects.Ptr("Users.")}))
	must(mock.PutAspect(model.String(), aspects.MLModelProperties{Description: aspects.Ptr("Churn.")}))

	err = c.Lineage().Add(ctx, ds, model)
	fmt.Println(errors.Is(err, datahub.ErrValidation))
	fmt.Println(err)

	run := entity.NewTrainingRun(urn.MustParse("urn:li:dataProcessInstance:churn-run-1").(urn.DataProcessInstance), "churn-run-1", nil, nil)
	run.Input = &aspects.DataProcessInstanceInput{Inputs: []string{}, InputEdges: []aspects.Edge{{DestinationURN: ds.String()}}}
	must(c.Entities().Upsert(ctx, run))
	must(c.Lineage().Add(ctx, run.URN, model))
	up, err := c.Lineage().Get(ctx, model, client.Upstream, 2, client.SearchFilter{})
	must(err)
	for _, r := range up {
		fmt.Println(r.Degree, r.URN)
	}
	// Output:
	// true
	// client: unsupported lineage dataset→mlModel (urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD) -> urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)): the pairs from dataset are dataset→dataset, dataset→chart, dataset→dashboard, dataset→dataJob, dataset→mlFeature; DataHub links a dataset to a model through the features the model uses (Lineage.Add dataset→mlFeature, then mlFeature→mlModel) or through a training run (a dataProcessInstance with the dataset among its inputs, see entity.NewTrainingRun, then Lineage.Add dataProcessInstance→mlModel): datahub: validation failed
	// 1 urn:li:dataProcessInstance:churn-run-1
	// 2 urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)
}
