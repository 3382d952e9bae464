package mockserver_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// FailGraphQL fails the GraphQL requests of one operation, by name: with
// an HTTP status (retried by the client's policy) or with DataHub's
// GraphQL error shape in a 200 (not retried).
func ExampleServer_FailGraphQL() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)").(urn.Dataset)
	if err := s.PutAspect(ds.String(), aspects.DatasetProperties{Description: aspects.Ptr("daily orders")}); err != nil {
		panic(err)
	}
	c, err := client.New(s.URL(), datahub.ForTests())
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	// A 503 with Retry-After, once: the client retries and succeeds.
	s.FailGraphQL("dataset", mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: 1, RetryAfter: time.Second})
	d, err := c.Dataset(ctx, ds)
	fmt.Println(d.EffectiveDescription(), err)

	// A GraphQL error in a 200: reported as a *client.GraphQLError.
	s.FailGraphQL("dataset", mockserver.FailSpec{Status: http.StatusForbidden, Times: 1, GraphQLError: "Unauthorized to view this dataset"})
	_, err = c.Dataset(ctx, ds)
	var ge *client.GraphQLError
	fmt.Println(errors.As(err, &ge), ge.Code, ge.Message, errors.Is(err, datahub.ErrUnauthorized))
	fmt.Println(s.RequestCount(mockserver.OpGraphQL), "GraphQL requests")
	// Output:
	// daily orders <nil>
	// true 403 Unauthorized to view this dataset true
	// 3 GraphQL requests
}

// PauseIndexing makes the simulated search index drift from the store:
// writes land in the store but not in the index until indexing resumes
// or the index is restored from the store (RestoreIndices).
func ExampleServer_PauseIndexing() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	s.PauseIndexing()
	if err := s.PutAspect(ds, aspects.Status{Removed: false}); err != nil {
		panic(err)
	}
	fmt.Println("indexed while paused:", s.IndexedAspects(ds) != nil)

	c, err := client.New(s.URL())
	if err != nil {
		panic(err)
	}
	res, err := c.RestoreIndices(context.Background(), client.RestoreIndicesRequest{URN: ds})
	if err != nil {
		panic(err)
	}
	_, indexed := s.IndexedAspects(ds)["status"]
	fmt.Println("rows restored:", res.RowsMigrated, "indexed:", indexed) // status and the key aspect datasetKey
	s.ResumeIndexing()
	// Output:
	// indexed while paused: false
	// rows restored: 2 indexed: true
}

// The mock applies DataHub's search limits: a query of more than 500
// characters is refused with DataHub's BAD_REQUEST.
func Example_searchLimits() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	c, err := client.New(s.URL(), datahub.ForTests())
	if err != nil {
		panic(err)
	}
	query := strings.TrimSpace(strings.Repeat("orders ", 72)) // 503 characters
	for _, err := range c.Search(context.Background(), query, client.Filter{}) {
		var ge *client.GraphQLError
		fmt.Println(errors.As(err, &ge), ge.Code, ge.Message)
		break
	}
	// Output:
	// true 400 Search query exceeds maximum length of 500 characters
}
