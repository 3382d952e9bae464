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

// A write is its request's actor's: here the user a configured token acts
// for, which systemMetadata records as aspectCreated and aspectModified,
// with the API the write came through.
func ExampleWithToken_actor() {
	s := mockserver.New(mockserver.WithToken("secret"))
	defer s.Close()
	srv := httptest.NewServer(s)
	defer srv.Close()

	u := url.PathEscape("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	send := func(method, path, body string) []byte {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		req.Header.Set("Authorization", "Bearer secret")
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	send("POST", "/openapi/v3/entity/dataset/"+u+"/status?async=false", `{"value":{"removed":false}}`)
	var got struct {
		SystemMetadata struct {
			AspectCreated, AspectModified struct{ Actor string }
			Properties                    map[string]string
		}
	}
	if err := json.Unmarshal(send("GET", "/openapi/v3/entity/dataset/"+u+"/status?systemMetadata=true", ""), &got); err != nil {
		panic(err)
	}
	sm := got.SystemMetadata
	fmt.Println("created by", sm.AspectCreated.Actor)
	fmt.Println("modified by", sm.AspectModified.Actor)
	fmt.Println("through", sm.Properties["eventSource"])
	// Output:
	// created by urn:li:corpuser:datahub
	// modified by urn:li:corpuser:datahub
	// through OPENAPI
}
