package mockserver_test

import (
	"context"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
)

// The admin mutations keep their state as metadata, as DataHub does: a
// secret is a dataHubSecret entity (listSecrets answers its name, not its
// value), an ingestion source and its execution requests are entities
// (nothing runs them in the mock), and the global settings are one aspect.
func Example_graphQLAdminMutations() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	c, err := client.New(s.URL(), datahub.ForTests())
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	secret, err := c.GraphQL(ctx, `mutation { createSecret(input: {name: "DB_PASS", value: "hunter2"}) }`, nil, "")
	fmt.Println(string(secret), err)
	_, err = c.GraphQL(ctx, `mutation { createSecret(input: {name: "DB_PASS", value: "again"}) }`, nil, "")
	var ge *client.GraphQLError
	fmt.Println(errors.As(err, &ge), ge.Code, ge.Message)
	listed, err := c.GraphQL(ctx, `{ listSecrets(input: {}) { total secrets { name } } }`, nil, "")
	fmt.Println(string(listed), err)

	_, err = c.GraphQL(ctx, `mutation { createIngestionSource(input: {name: "hive", type: "hive", schedule: {interval: "0 5 * * *", timezone: "UTC"},
		config: {recipe: "{\"source\":{\"type\":\"hive\"}}", executorId: "default"}}) }`, nil, "")
	fmt.Println(err)
	sources, err := c.GraphQL(ctx, `{ listIngestionSources(input: {}) { total ingestionSources { name schedule { interval } } } }`, nil, "")
	fmt.Println(string(sources), err)

	_, err = c.GraphQL(ctx, `mutation { updateDocPropagationSettings(input: {docColumnPropagation: false}) }`, nil, "")
	fmt.Println(err)
	settings, err := s.GetAspectJSON("urn:li:globalSettings:0", "globalSettingsInfo", 0)
	fmt.Println(string(settings), err)
	// Output:
	// {"createSecret":"urn:li:dataHubSecret:DB_PASS"} <nil>
	// true 400 This Secret already exists!
	// {"listSecrets":{"total":1,"secrets":[{"name":"DB_PASS"}]}} <nil>
	// <nil>
	// {"listIngestionSources":{"total":1,"ingestionSources":[{"name":"hive","schedule":{"interval":"0 5 * * *"}}]}} <nil>
	// <nil>
	// {"docPropagation":{"columnPropagationEnabled":false,"enabled":true}} <nil>
}
