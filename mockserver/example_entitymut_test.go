package mockserver_test

import (
	"context"
	"encoding/json"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
)

// updateDataset replaces whole aspects, as DataHub's update mappers write
// them; patchEntity changes part of one aspect, and reports a failure in
// its result rather than as a GraphQL error.
func Example_graphQLEntityMutations() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	if err := s.PutAspectJSON(ds, "globalTags", json.RawMessage(`{"tags":[{"tag":"urn:li:tag:pii"}]}`)); err != nil {
		panic(err)
	}
	c, err := client.New(s.URL(), datahub.ForTests())
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	updated, err := c.GraphQL(ctx, `mutation($u: String!) { updateDataset(urn: $u, input: {
		editableProperties: {description: "All orders"}, tags: {tags: [{tag: {urn: "urn:li:tag:gold", name: "Gold"}}]}}) {
		editableProperties { description } tags { tags { tag { urn } } } } }`, map[string]any{"u": ds}, "")
	fmt.Println(string(updated), err)
	patched, err := c.GraphQL(ctx, `mutation($u: String!) { patchEntity(input: {urn: $u, aspectName: "globalTags",
		patch: [{op: ADD, path: "/tags/urn:li:tag:pii", value: "{\"tag\":\"urn:li:tag:pii\"}"}]}) { success error } }`, map[string]any{"u": ds}, "")
	fmt.Println(string(patched), err)
	failed, err := c.GraphQL(ctx, `mutation($u: String!) { patchEntity(input: {urn: $u, aspectName: "chartInfo",
		patch: [{op: ADD, path: "/title", value: "x"}]}) { success error } }`, map[string]any{"u": ds}, "")
	fmt.Println(string(failed), err)
	tags, err := s.GetAspectJSON(ds, "globalTags", 0)
	fmt.Println(string(tags), err)
	// Output:
	// {"updateDataset":{"editableProperties":{"description":"All orders"},"tags":{"tags":[{"tag":{"urn":"urn:li:tag:gold"}}]}}} <nil>
	// {"patchEntity":{"success":true,"error":null}} <nil>
	// {"patchEntity":{"success":false,"error":"Failed to create MCP for input 0: Aspect chartInfo not found for entity type dataset"}} <nil>
	// {"tags":[{"tag":"urn:li:tag:gold"},{"tag":"urn:li:tag:pii"}]} <nil>
}
