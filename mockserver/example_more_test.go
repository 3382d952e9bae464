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
	// status, the key aspect datasetKey and the aspects GMS adds to a new
	// entity, browsePathsV2 and dataPlatformInstance
	fmt.Println("rows restored:", res.RowsMigrated, "indexed:", indexed)
	s.ResumeIndexing()
	// Output:
	// indexed while paused: false
	// rows restored: 4 indexed: true
}

// GET /health answers 200 without a body and needs no token, as a started
// GMS does, so that a container health check or a test's readiness wait
// can poll it. The OpenAPI v3 reads also answer a timeseries aspect: its
// latest document.
func Example_healthAndTimeseries() {
	s, err := mockserver.Listen("127.0.0.1:0", mockserver.WithToken("secret"))
	if err != nil {
		panic(err)
	}
	defer s.Close()
	resp, err := http.Get(s.URL() + "/health")
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println("health:", resp.StatusCode)

	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	for _, rows := range []int64{5, 6} {
		p := aspects.DatasetProfile{TimestampMillis: 1700000000000 + rows, RowCount: aspects.Ptr(rows)}
		if err := s.PutAspect(ds.String(), p); err != nil {
			panic(err)
		}
	}
	c, err := client.New(s.URL(), datahub.WithToken("secret"), datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		panic(err)
	}
	e, err := c.GetEntity(context.Background(), ds, "datasetProfile")
	if err != nil {
		panic(err)
	}
	a := e.Aspects["datasetProfile"]
	fmt.Println(a.Type, string(a.Value))
	// Output:
	// health: 200
	// TIMESERIES {"timestampMillis":1700000000006,"partitionSpec":{"type":"FULL_TABLE","partition":"FULL_TABLE_SNAPSHOT"},"rowCount":6}
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
	for _, err := range c.Search().Results(context.Background(), query, client.SearchFilter{}) {
		var ge *client.GraphQLError
		fmt.Println(errors.As(err, &ge), ge.Code, ge.Message)
		break
	}
	// Output:
	// true 400 Search query exceeds maximum length of 500 characters
}
