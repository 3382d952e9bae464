package mockserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
)

// A proposal as DataHub's Python emitter posts it, read back through the
// direct test API and over HTTP. In a test, mockserver.Start(t) gives a
// listening server closed at cleanup.
func Example() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	body := `{"proposal": {"entityType": "dataset",
	  "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)",
	  "changeType": "UPSERT", "aspectName": "datasetProperties",
	  "aspect": {"value": "{\"description\": \"daily orders\"}", "contentType": "application/json"}},
	 "async": "false"}`
	resp, err := http.Post(srv.URL+"/aspects?action=ingestProposal", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	answer, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, string(answer))

	a, err := s.GetAspect("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)", "datasetProperties")
	if err != nil {
		panic(err)
	}
	fmt.Println(*a.(*aspects.DatasetProperties).Description)

	resp, err = http.Get(srv.URL + "/api/gms/aspects/urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.orders%2CPROD%29?aspect=datasetProperties&version=0")
	if err != nil {
		panic(err)
	}
	answer, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(answer))
	// Output:
	// 200 {"value":"success"}
	// daily orders
	// {"version":0,"aspect":{"com.linkedin.dataset.DatasetProperties":{"description":"daily orders"}}}
}

// Injected faults make a client's retry path testable: here the first two
// proposals get 503 with Retry-After.
func ExampleServer_Fail() {
	s := mockserver.New()
	defer s.Close()
	s.Fail(mockserver.OpIngestProposal, mockserver.FailSpec{Status: http.StatusServiceUnavailable, Times: 2, RetryAfter: time.Second})

	for range 3 {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposal", strings.NewReader(
			`{"proposal": {"entityType": "dataset", "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)",
			  "changeType": "UPSERT", "aspectName": "status",
			  "aspect": {"value": "{\"removed\": false}", "contentType": "application/json"}}}`))
		s.ServeHTTP(rec, req)
		fmt.Printf("%d Retry-After: %q\n", rec.Code, rec.Header().Get("Retry-After"))
	}
	fmt.Println(s.RequestCount(mockserver.OpIngestProposal), "requests,", len(s.Proposals()), "proposal handled")
	// Output:
	// 503 Retry-After: "1"
	// 503 Retry-After: "1"
	// 200 Retry-After: ""
	// 3 requests, 1 proposal handled
}

// Aspects can be put directly and checked with CheckAspect in a test.
func ExampleServer_PutAspect() {
	s := mockserver.New()
	defer s.Close()
	err := s.PutAspect("urn:li:mlFeature:(ns,age)", aspects.MLFeatureProperties{Description: aspects.Ptr("age in years")})
	fmt.Println(err)
	raw, _ := s.GetAspectJSON("urn:li:mlFeature:(ns,age)", "mlFeatureKey", 0)
	fmt.Println(string(raw))
	// Output:
	// <nil>
	// {"featureNamespace":"ns","name":"age"}
}
