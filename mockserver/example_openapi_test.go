package mockserver_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver"
)

// Entity versioning is behind DataHub's feature flag, off in its
// quickstart: WithEntityVersioning turns it on, and a version set's latest
// version follows the links.
func ExampleWithEntityVersioning() {
	s := mockserver.New(mockserver.WithEntityVersioning(true))
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	set := url.PathEscape("urn:li:versionSet:(models,dataset)")
	for _, table := range []string{"model_v1", "model_v2"} {
		u := url.PathEscape("urn:li:dataset:(urn:li:dataPlatform:hive," + table + ",PROD)")
		resp, err := http.Post(srv.URL+"/openapi/v3/entity/versioning/"+set+"/relationship/versionOf/"+u,
			"application/json", strings.NewReader(`{"version":"`+table+`"}`))
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println("link", table, resp.StatusCode)
	}
	resp, err := http.Get(srv.URL + "/openapi/v3/entity/versionSet/" + set + "/versionSetProperties")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body))
	// Output:
	// link model_v1 200
	// link model_v2 200
	// {"value":{"latest":"urn:li:dataset:(urn:li:dataPlatform:hive,model_v2,PROD)","versioningScheme":"ALPHANUMERIC_GENERATED_BY_DATAHUB"}}
}

// The relationships of an entity, as DataHub's graph holds them: here the
// lineage edge an upstreamLineage aspect makes.
func Example_relationships() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	orders := "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	daily := "urn:li:dataset:(urn:li:dataPlatform:hive,db.daily,PROD)"
	write := `[{"urn":"` + daily + `","upstreamLineage":{"value":{"upstreams":[{"dataset":"` + orders +
		`","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:etl"}}]}}}]`
	resp, err := http.Post(srv.URL+"/openapi/v3/entity/dataset?async=false", "application/json", strings.NewReader(write))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	resp, err = http.Get(srv.URL + "/openapi/relationships/v1/?urn=" + url.QueryEscape(orders) +
		"&relationshipTypes=DownstreamOf&direction=INCOMING")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body))
	// Output:
	// {"start":0,"count":1,"total":1,"entities":[{"relationshipType":"DownstreamOf","urn":"urn:li:dataset:(urn:li:dataPlatform:hive,db.daily,PROD)"}]}
}

// A v3 list sorted by a field and narrowed by a query, as DataHub's
// OpenAPI serves it from its search index.
func Example_listSorted() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	var items []string
	for _, name := range []string{"orders", "customers", "order_items"} {
		u := "urn:li:dataset:(urn:li:dataPlatform:hive,db." + name + ",PROD)"
		items = append(items, `{"urn":"`+u+`","datasetProperties":{"value":{"name":"`+name+`"}}}`)
	}
	resp, err := http.Post(srv.URL+"/openapi/v3/entity/dataset?async=false", "application/json",
		strings.NewReader("["+strings.Join(items, ",")+"]"))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	for _, q := range []string{"sortCriteria=name&sortOrder=DESCENDING", "query=order&sortCriteria=name"} {
		resp, err := http.Get(srv.URL + "/openapi/v3/entity/dataset?aspects=datasetProperties&" + q)
		if err != nil {
			panic(err)
		}
		var page struct {
			Entities []struct {
				Props struct {
					Value struct{ Name string } `json:"value"`
				} `json:"datasetProperties"`
			} `json:"entities"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&page); err != nil {
			panic(err)
		}
		resp.Body.Close()
		var names []string
		for _, e := range page.Entities {
			names = append(names, e.Props.Value.Name)
		}
		fmt.Println(q, names)
	}
	// Output:
	// sortCriteria=name&sortOrder=DESCENDING [orders order_items customers]
	// query=order&sortCriteria=name [order_items orders]
}
