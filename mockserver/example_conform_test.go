package mockserver_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver"
)

// WithBootstrap starts the server holding what a fresh DataHub GMS
// bootstraps: its data platforms, data types and entity types.
func ExampleWithBootstrap() {
	s := mockserver.New(mockserver.WithBootstrap(true))
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	resp, err := http.Get(srv.URL + "/openapi/v3/entity/dataPlatform/" + url.PathEscape("urn:li:dataPlatform:snowflake") + "/dataPlatformInfo")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(string(body))
	// Output:
	// {"value":{"datasetNameDelimiter":".","displayName":"Snowflake","logoUrl":"assets/platforms/snowflakelogo.png","name":"snowflake","type":"RELATIONAL_DB"}}
}

// A structured property definition's URN fields must point at entities of
// the right type that exist, as DataHub's @UrnValidation checks them: the
// data types and entity types a fresh DataHub has count as existing.
func Example_urnValidation() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	for _, valueType := range []string{"urn:li:dataType:datahub.string", "urn:li:dataType:datahub.nothing"} {
		def := `{"value":{"qualifiedName":"tier","valueType":"` + valueType + `","entityTypes":["urn:li:entityType:datahub.dataset"]}}`
		resp, err := http.Post(srv.URL+"/openapi/v3/entity/structuredProperty/"+url.PathEscape("urn:li:structuredProperty:tier")+
			"/propertyDefinition", "application/json", strings.NewReader(def))
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Println(valueType, resp.StatusCode)
	}
	// Output:
	// urn:li:dataType:datahub.string 200
	// urn:li:dataType:datahub.nothing 400
}

// The query of an OpenAPI list or scroll is DataHub's structured search: a
// field query, with escaped characters and a wildcard.
func Example_structuredQuery() {
	s := mockserver.New()
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	write := `[`
	for i, qn := range []string{"shop.orders", "shop.orders_daily", "shopXorders"} {
		if i > 0 {
			write += ","
		}
		write += `{"urn":"urn:li:dataset:(urn:li:dataPlatform:hive,t` + fmt.Sprint(i) + `,PROD)","datasetProperties":{"value":{"qualifiedName":"` + qn + `"}}}`
	}
	resp, err := http.Post(srv.URL+"/openapi/v3/entity/dataset?async=false", "application/json", strings.NewReader(write+`]`))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	q := url.Values{"query": {`qualifiedName:shop\.orders*`}, "aspects": {"datasetKey"}}
	resp, err = http.Get(srv.URL + "/openapi/v3/entity/dataset?" + q.Encode())
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(strings.Count(string(body), `"urn":`), strings.Contains(string(body), "t2"))
	// Output:
	// 2 false
}
