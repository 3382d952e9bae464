package mockserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver"
)

// PlatformEvents lists the events clients produce with
// POST /platform?action=producePlatformEvent, oldest first.
func ExampleServer_PlatformEvents() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	body := `{"name":"entityChangeEvent","key":"k1","event":{"header":{"timestampMillis":1700000000000},` +
		`"name":"entityChangeEvent","payload":{"value":"{\"category\":\"TAG\"}","contentType":"application/json"}}}`
	resp, err := http.Post(s.URL()+"/platform?action=producePlatformEvent", "application/json", strings.NewReader(body))
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	for _, e := range s.PlatformEvents() {
		fmt.Println(e.Name, e.Key)
	}
	// Output:
	// 200
	// entityChangeEvent k1
}

// DataHub's Python emitter sends a MetadataChangeEvent (emit_mce) to
// /entities?action=ingest; `datahub ingest rollback` undoes a run with
// /runs?action=rollback. The mock serves both over its store.
func Example_mceAndRollback() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	post := func(path, body string) string {
		resp, err := http.Post(s.URL()+path, "application/json", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.TrimSpace(fmt.Sprint(resp.StatusCode, " ", string(b)))
	}
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	fmt.Println(post("/entities?action=ingest", `{"entity":{"value":{"com.linkedin.metadata.snapshot.DatasetSnapshot":{"urn":"`+ds+
		`","aspects":[{"com.linkedin.dataset.DatasetProperties":{"description":"daily orders"}}]}}},"systemMetadata":{"runId":"run-1"}}`))
	fmt.Println(post("/entities?action=exists", `{"urn":"`+ds+`"}`))
	runs, _, _ := strings.Cut(post("/runs?action=list", `{}`), `,"timestamp"`)
	fmt.Println(runs)
	// A hard rollback (the CLI's --nuke) deletes what the run created.
	post("/runs?action=rollback", `{"runId":"run-1","safe":false}`)
	fmt.Println(post("/entities?action=exists", `{"urn":"`+ds+`"}`))
	// Output:
	// 200
	// 200 {"value":true}
	// 200 {"value":[{"runId":"run-1"
	// 200 {"value":false}
}
