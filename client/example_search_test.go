package client_test

import (
	"context"
	"fmt"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/urn"
)

func ExampleSearch_Results() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	for r, err := range c.Search().Results(ctx, "*", client.Platform("feast")) {
		must(err)
		fmt.Println(r.Type, r.URN, *r.MLFeatureTable.Description)
	}
	n, err := c.Search().Count(ctx, "churn", client.SearchFilter{})
	must(err)
	fmt.Println(n, "entity matches churn")
	// Output:
	// MLFEATURE_TABLE urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users) Features keyed by user.
	// 1 entity matches churn
}

// A search text is DataHub's query syntax. Free text: terms all match by
// default, "|" is OR, "-" excludes, parentheses group, "a*" is a prefix.
// After "/q " it is a structured query: AND, OR, NOT, field:value, ranges.
func ExampleSearch_Results_booleanQuery() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	for _, query := range []string{"churn | (user* -model)", "/q description:model OR name:users", "churn -model"} {
		n, err := c.Search().Count(ctx, query, client.SearchFilter{})
		must(err)
		fmt.Printf("%q: %d\n", query, n)
	}
	for r, err := range c.Search().Results(ctx, "churn | users", client.SearchFilter{}) {
		must(err)
		fmt.Println(r.Type, r.URN)
	}
	// Output:
	// "churn | (user* -model)": 2
	// "/q description:model OR name:users": 2
	// "churn -model": 0
	// MLMODEL urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)
	// MLFEATURE_TABLE urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)
}

// WithFirst takes the first results and stops without an error, however
// many more match; WithLimit would end with ErrResultLimit.
func ExampleWithFirst() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	n := 0
	for _, err := range c.Search().Results(ctx, "*", client.SearchFilter{}, client.WithFirst(2)) {
		must(err)
		n++
	}
	fmt.Println(n, "results")
	// Output: 2 results
}

func ExampleSearchAs() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	filter := client.And(client.Platform("sagemaker"), client.Not(client.Tag("deprecated")))
	for m, err := range client.SearchAs[client.MLModelView](ctx, c, "", filter, client.WithLimit(100)) {
		must(err)
		fmt.Println(m.Name, m.Origin)
	}
	// Output: churn PROD
}

func ExampleLineage_Get() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)")
	feature := urn.MustParse("urn:li:mlFeature:(users,age)")
	source := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)")
	// The feature and the dataset exist (Lineage.Add patches the downstream,
	// which must exist).
	em, err := emitter.NewREST(server)
	must(err)
	for _, w := range []struct {
		u urn.URN
		a aspects.Aspect
	}{{feature, aspects.MLFeatureProperties{Description: aspects.Ptr("Age in years.")}},
		{source, aspects.DatasetProperties{Description: aspects.Ptr("Users.")}}} {
		p, err := emitter.NewProposal(w.u, w.a)
		must(err)
		must(em.Emit(ctx, p))
	}
	must(c.Lineage().Add(ctx, feature, model))
	must(c.Lineage().Add(ctx, source, feature))

	up, err := c.Lineage().Get(ctx, model, client.Upstream, 3, client.SearchFilter{})
	must(err)
	for _, r := range up {
		fmt.Println(r.Degree, r.URN)
	}
	// Output:
	// 1 urn:li:mlFeature:(users,age)
	// 2 urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)
}
