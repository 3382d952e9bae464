package mockserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
)

// The UI's GraphQL mutations run with DataHub's rules: a tag must exist
// before it is added, a missing one is refused with DataHub's text, and
// the change is read back over Rest.li and GraphQL.
func Example_graphQLMutations() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	if err := s.PutAspectJSON(ds, "status", json.RawMessage(`{"removed":false}`)); err != nil {
		panic(err)
	}
	c, err := client.New(s.URL(), datahub.ForTests())
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	tag, err := c.GraphQL(ctx, `mutation { createTag(input: {id: "gold", name: "Gold"}) }`, nil, "")
	fmt.Println(string(tag), err)
	added, err := c.GraphQL(ctx, `mutation($u: String!) { addTags(input: {tagUrns: ["urn:li:tag:gold"], resourceUrn: $u}) }`,
		map[string]any{"u": ds}, "")
	fmt.Println(string(added), err)
	_, err = c.GraphQL(ctx, `mutation($u: String!) { addTag(input: {tagUrn: "urn:li:tag:silver", resourceUrn: $u}) }`,
		map[string]any{"u": ds}, "")
	var ge *client.GraphQLError
	fmt.Println(errors.As(err, &ge), ge.Code, ge.Message)

	tags, err := s.GetAspectJSON(ds, "globalTags", 0)
	fmt.Println(string(tags), err)
	read, err := c.GraphQL(ctx, `query($u: String!) { dataset(urn: $u) { tags { tags { tag { urn } } } } }`, map[string]any{"u": ds}, "")
	fmt.Println(string(read), err)
	// Output:
	// {"createTag":"urn:li:tag:gold"} <nil>
	// {"addTags":true} <nil>
	// true 400 Failed to validate label with urn urn:li:tag:silver. Urn does not exist.
	// {"tags":[{"tag":"urn:li:tag:gold"}]} <nil>
	// {"dataset":{"tags":{"tags":[{"tag":{"urn":"urn:li:tag:gold"}}]}}} <nil>
}
