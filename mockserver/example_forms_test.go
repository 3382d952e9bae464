package mockserver_test

import (
	"context"
	"encoding/json"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
)

// Forms run as DataHub's FormService does: a form assigned to an asset
// lists its prompts as incomplete; answering the required prompt writes the
// structured property's value on the asset and moves the form to the
// completed forms.
func Example_graphQLForms() {
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
	run := func(doc string) {
		out, err := c.GraphQL(ctx, doc, map[string]any{"u": ds}, "")
		fmt.Println(string(out), err)
	}
	run(`mutation { createStructuredProperty(input: {qualifiedName: "io.tier", valueType: "urn:li:dataType:datahub.string",
		entityTypes: ["urn:li:entityType:datahub.dataset"]}) { urn } }`)
	run(`mutation { createForm(input: {id: "tiering", name: "Tiering", prompts: [{id: "tier", title: "Which tier?",
		type: STRUCTURED_PROPERTY, structuredPropertyParams: {urn: "urn:li:structuredProperty:io.tier"}, required: true}]}) { urn } }`)
	run(`mutation($u: String!) { batchAssignForm(input: {formUrn: "urn:li:form:tiering", entityUrns: [$u]}) }`)
	run(`mutation($u: String!) { submitFormPrompt(urn: $u, input: {promptId: "tier", formUrn: "urn:li:form:tiering", type: STRUCTURED_PROPERTY,
		structuredPropertyParams: {structuredPropertyUrn: "urn:li:structuredProperty:io.tier", values: [{stringValue: "gold"}]}}) }`)
	run(`query($u: String!) { dataset(urn: $u) {
		forms { completedForms { form { urn } } incompleteForms { form { urn } } }
		structuredProperties { properties { values { ... on StringValue { stringValue } } } } } }`)
	// Output:
	// {"createStructuredProperty":{"urn":"urn:li:structuredProperty:io.tier"}} <nil>
	// {"createForm":{"urn":"urn:li:form:tiering"}} <nil>
	// {"batchAssignForm":true} <nil>
	// {"submitFormPrompt":true} <nil>
	// {"dataset":{"forms":{"completedForms":[{"form":{"urn":"urn:li:form:tiering"}}],"incompleteForms":[]},"structuredProperties":{"properties":[{"values":[{"stringValue":"gold"}]}]}}} <nil>
}

// Documents (knowledge articles) are created, edited and moved with
// DataHub's rules: a document cannot become its own ancestor.
func Example_graphQLDocuments() {
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
	run := func(doc string) {
		out, err := c.GraphQL(ctx, doc, nil, "")
		fmt.Println(string(out), err)
	}
	run(`mutation { createDocument(input: {id: "handbook", title: "Handbook", contents: {text: "Welcome"}}) }`)
	run(`mutation { createDocument(input: {id: "oncall", title: "On-call", contents: {text: "Pager"}, parentDocument: "urn:li:document:handbook"}) }`)
	run(`mutation { updateDocumentStatus(input: {urn: "urn:li:document:oncall", state: PUBLISHED}) }`)
	run(`mutation { moveDocument(input: {urn: "urn:li:document:handbook", parentDocument: "urn:li:document:oncall"}) }`)
	run(`query { document(urn: "urn:li:document:oncall") { info { title status { state } parentDocument { document { urn } } } } }`)
	// Output:
	// {"createDocument":"urn:li:document:handbook"} <nil>
	// {"createDocument":"urn:li:document:oncall"} <nil>
	// {"updateDocumentStatus":true} <nil>
	// null datahub: graphql moveDocument: 400 BAD_REQUEST: Cannot move document: would create a circular parent reference
	// {"document":{"info":{"title":"On-call","status":{"state":"PUBLISHED"},"parentDocument":{"document":{"urn":"urn:li:document:handbook"}}}}} <nil>
}
