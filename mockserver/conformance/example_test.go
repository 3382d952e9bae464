package conformance_test

import (
	"context"
	"fmt"

	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/mockserver/conformance"
)

// Run sends a fixture's steps to a server and reports each step's outcome;
// here two steps in DataHub's format against the mock.
func ExampleRun() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	f, err := conformance.Parse("example.json", []byte(`[
	  {"request": {"url": "/openapi/v3/entity/dataset", "params": {"async": "false"}, "description": "write",
	    "json": [{"urn": "urn:li:dataset:(urn:li:dataPlatform:test,ex,PROD)", "status": {"value": {"removed": false}}}]}},
	  {"request": {"url": "/openapi/v3/entity/dataset/urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Atest%2Cex%2CPROD%29/status",
	    "method": "get", "description": "read back"},
	   "response": {"json": {"value": {"removed": true}}}}
	]`))
	if err != nil {
		panic(err)
	}
	res, err := conformance.Run(context.Background(), conformance.Target{URL: s.URL()}, f)
	if err != nil {
		panic(err)
	}
	for _, r := range res {
		fmt.Println(r.ID(), r.Description, r.Passed(), r.Differences)
	}
	// Output:
	// example.json[0] write true []
	// example.json[1] read back false [root['value']['removed']: value differs: got false, want true]
}

// Compare checks an answer as DataHub's fixture runner does: array order
// does not matter, 30 and 30.0 differ, excluded paths are not compared.
func ExampleCompare() {
	d, err := conformance.Compare(
		[]byte(`{"tags":["b","a"],"n":30,"message":"x"}`),
		[]byte(`{"tags":["a","b"],"n":30.0,"message":"y"}`),
		[]string{`root\['message'\]`})
	if err != nil {
		panic(err)
	}
	fmt.Println(d)
	// Output:
	// [root['n']: type differs: got 30, want 30.0]
}
