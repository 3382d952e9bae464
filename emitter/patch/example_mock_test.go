package patch_test

import (
	"context"
	"fmt"
	"net/http/httptest"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// Adding tags to a dataset by PATCH: the server merges the new tags into
// those already there (here, one written by another tool), where an
// UPSERT of globalTags would have replaced them. The mock server applies
// patches as DataHub GMS does.
func Example_addTags() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()
	ctx := context.Background()

	rest, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}
	ds, err := urn.NewDataset("hive", "db.orders", "PROD")
	if err != nil {
		panic(err)
	}
	// Another tool tagged the dataset already.
	existing, err := emitter.NewProposal(ds, &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:pii"}}})
	if err != nil {
		panic(err)
	}
	if err := rest.Emit(ctx, existing); err != nil {
		panic(err)
	}

	d := patch.NewDataset(ds)
	d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:gold"})
	d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:finance"})
	proposals, err := d.Proposals()
	if err != nil {
		panic(err)
	}
	if err := rest.Emit(ctx, proposals...); err != nil {
		panic(err)
	}

	a, err := s.GetAspect(ds.String(), "globalTags")
	if err != nil {
		panic(err)
	}
	for _, t := range a.(*aspects.GlobalTags).Tags {
		fmt.Println(t.Tag)
	}
	// Output:
	// urn:li:tag:pii
	// urn:li:tag:gold
	// urn:li:tag:finance
}
