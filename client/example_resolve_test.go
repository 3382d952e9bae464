package client_test

import (
	"context"
	"errors"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
)

// Find a domain, a user and a glossary term by what people call them.
func ExampleResolve() {
	mock, err := mockserver.Listen("127.0.0.1:0")
	must(err)
	defer mock.Close()
	c, err := client.New(mock.URL(), datahub.ForTests())
	must(err)
	ctx := context.Background()
	must(mock.PutAspect("urn:li:domain:finance", aspects.DomainProperties{Name: "Finance"}))
	must(mock.PutAspect("urn:li:corpuser:jdoe", aspects.CorpUserInfo{Active: true, FullName: aspects.Ptr("Jane Doe"), Email: aspects.Ptr("jane@example.com")}))
	must(mock.PutAspect("urn:li:glossaryTerm:pii", aspects.GlossaryTermInfo{Name: aspects.Ptr("PII"), Definition: "Personal data."}))

	r := c.Resolve()
	domain, err := r.Domain(ctx, "Finance")
	must(err)
	user, err := r.UserByEmail(ctx, "jane@example.com")
	must(err)
	term, err := r.Term(ctx, "PII")
	must(err)
	fmt.Println(domain, user, term)
	_, err = r.UserByName(ctx, "John Smith")
	fmt.Println(errors.Is(err, datahub.ErrNotFound), err)
	// Output:
	// urn:li:domain:finance urn:li:corpuser:jdoe urn:li:glossaryTerm:pii
	// true client: no corpuser with name "John Smith"
}
