package mockserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
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

// exampleT stands in for a test's *testing.T in these examples: Start and
// Check take any mockserver.Tester.
type exampleT struct{ cleanups []func() }

func (t *exampleT) Helper()                           {}
func (t *exampleT) Cleanup(f func())                  { t.cleanups = append(t.cleanups, f) }
func (t *exampleT) Errorf(format string, args ...any) { fmt.Printf("FAIL: "+format+"\n", args...) }
func (t *exampleT) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

// finish runs the cleanups, as the testing package does after a test.
func (t *exampleT) finish() {
	for _, f := range slices.Backward(t.cleanups) {
		f()
	}
}

// In a test: start the mock, point the emitter at it, check what was
// written. Check and CheckAspect report a cmp.Diff through t.Errorf.
func ExampleStart() {
	t := &exampleT{} // in a test, the test's t
	defer t.finish()

	s := mockserver.Start(t) // 127.0.0.1:<free port>, closed by t.Cleanup
	em, err := emitter.NewREST(s.URL())
	if err != nil {
		t.Fatalf("%v", err)
	}
	u, err := urn.NewDataset("hive", "db.orders", "PROD")
	if err != nil {
		t.Fatalf("%v", err)
	}
	p, err := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("daily orders")})
	if err != nil {
		t.Fatalf("%v", err)
	}
	if err := em.Emit(context.Background(), p); err != nil {
		t.Fatalf("%v", err)
	}

	mockserver.Check(t, s, u, aspects.DatasetProperties{Description: aspects.Ptr("daily orders")})
	s.CheckAspect(t, u.String(), aspects.DatasetProperties{Description: aspects.Ptr("daily orders")})
	fmt.Println(s.RequestCount(mockserver.OpIngestProposal), "proposal received")
	// Output:
	// 1 proposal received
}

// firstLineT is a Tester that prints the first line of each failure (the
// cmp.Diff below it is not stable text).
type firstLineT struct{ exampleT }

func (t *firstLineT) Errorf(format string, args ...any) {
	msg, _, _ := strings.Cut(fmt.Sprintf(format, args...), "\n")
	fmt.Println("FAIL:", msg)
}

// Check compares the stored aspect with want, its name and type taken from
// want's type, and reports a difference as a cmp.Diff through t.Errorf.
func ExampleCheck() {
	t := &firstLineT{} // in a test, the test's t
	s := mockserver.Start(t)
	defer t.finish()
	const dataset = "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	if err := s.PutAspect(dataset, aspects.Status{Removed: true}); err != nil {
		panic(err)
	}
	mockserver.Check(t, s, dataset, aspects.Status{Removed: true})  // passes
	mockserver.Check(t, s, dataset, aspects.Status{Removed: false}) // fails
	// Output:
	// FAIL: mockserver: aspect status of urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD) mismatch (-want +got):
}

// Get reads an aspect into its typed struct, the aspect's name taken from
// the type; the URN is a string or a typed URN.
func ExampleGet() {
	s := mockserver.New()
	defer s.Close()
	const dataset = "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	if err := s.PutAspect(dataset, aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:pii"}}}); err != nil {
		panic(err)
	}
	tags, err := mockserver.Get[aspects.GlobalTags](s, dataset)
	fmt.Println(tags.Tags[0].Tag, err)

	ds, err := urn.NewDataset("hive", "db.orders", "PROD")
	if err != nil {
		panic(err)
	}
	_, err = mockserver.Get[aspects.Ownership](s, ds)
	fmt.Println(errors.Is(err, datahub.ErrNotFound))
	// Output:
	// urn:li:tag:pii <nil>
	// true
}

// Errors of the mock, over HTTP through the emitter or from its direct
// test API, are *datahub.Error values matched with errors.Is.
func Example_errors() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")

	_, err = s.GetAspect(u.String(), "status")
	fmt.Println("direct read:", errors.Is(err, datahub.ErrNotFound))

	if err := s.PutAspect(u.String(), aspects.Status{}); err != nil {
		panic(err)
	}
	em, err := emitter.NewREST(s.URL())
	if err != nil {
		panic(err)
	}
	p, err := emitter.NewProposal(u, aspects.Status{Removed: true})
	if err != nil {
		panic(err)
	}
	p.Headers = map[string]string{"If-Version-Match": "-1"} // only if the aspect does not exist yet
	err = em.Emit(context.Background(), p)
	var de *datahub.Error
	fmt.Println("conditional write:", errors.Is(err, datahub.ErrPreconditionFailed), errors.As(err, &de) && de.StatusCode == 412)
	// Output:
	// direct read: true
	// conditional write: true true
}

// Read-modify-write without losing a concurrent change: read the aspect and
// its systemMetadata.version from GET /entitiesV2, write with
// If-Version-Match set to that version, and on datahub.ErrPreconditionFailed
// (someone wrote in between) read again and retry.
func Example_readModifyWrite() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ctx := context.Background()
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	if err := s.PutAspect(u.String(), aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:a"}}}); err != nil {
		panic(err)
	}
	em, err := emitter.NewREST(s.URL())
	if err != nil {
		panic(err)
	}

	// read returns the tags and their version ("-1" when absent).
	read := func() (aspects.GlobalTags, string) {
		resp, err := http.Get(s.URL() + "/entitiesV2/" + url.PathEscape(u.String()) + "?aspects=List(globalTags)")
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var entity struct {
			Aspects map[string]struct {
				Value          aspects.GlobalTags
				SystemMetadata struct{ Version string }
			}
		}
		if err := json.NewDecoder(resp.Body).Decode(&entity); err != nil {
			panic(err)
		}
		a, ok := entity.Aspects["globalTags"]
		if !ok {
			return aspects.GlobalTags{}, "-1"
		}
		return a.Value, a.SystemMetadata.Version
	}

	for attempt := 1; ; attempt++ {
		tags, version := read()
		if attempt == 1 { // another writer changes the tags after our read
			if err := s.PutAspect(u.String(), aspects.GlobalTags{Tags: append(tags.Tags, aspects.TagAssociation{Tag: "urn:li:tag:b"})}); err != nil {
				panic(err)
			}
		}
		tags.Tags = append(tags.Tags, aspects.TagAssociation{Tag: "urn:li:tag:c"})
		p, err := emitter.NewProposal(u, tags)
		if err != nil {
			panic(err)
		}
		p.Headers = map[string]string{"If-Version-Match": version}
		err = em.Emit(ctx, p)
		fmt.Printf("attempt %d at version %s: conflict %v\n", attempt, version, errors.Is(err, datahub.ErrPreconditionFailed))
		if err == nil {
			break
		}
		if !errors.Is(err, datahub.ErrPreconditionFailed) {
			panic(err)
		}
	}
	tags, _ := mockserver.Get[aspects.GlobalTags](s, u)
	for _, t := range tags.Tags {
		fmt.Println(t.Tag)
	}
	// Output:
	// attempt 1 at version 1: conflict true
	// attempt 2 at version 2: conflict false
	// urn:li:tag:a
	// urn:li:tag:b
	// urn:li:tag:c
}

// Injected faults make a client's retry path testable: here the first two
// proposals get 503 with Retry-After. A fault states its count (or
// mockserver.Forever); an invalid one (a status that is not 4xx or 5xx, say)
// is refused.
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

	err := s.Inject(mockserver.Fail(mockserver.OpAny, mockserver.FailSpec{Status: 200, Times: mockserver.Forever}))
	fmt.Println(err)
	// Output:
	// 503 Retry-After: "1"
	// 503 Retry-After: "1"
	// 200 Retry-After: ""
	// 3 requests, 1 proposal handled
	// mockserver: invalid fault for "*": Status must be an error status (400 to 599), not 200
}

// CommitThenDrop applies a write and then drops the connection instead of
// answering: the client sees a network error although the write is stored,
// which a client that retries must not turn into a second write.
func ExampleServer_CommitThenDrop() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	s.CommitThenDrop(mockserver.OpIngestProposal, 1)

	_, err = http.Post(s.URL()+"/aspects?action=ingestProposal", "application/json", strings.NewReader(
		`{"proposal": {"entityType": "dataset", "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)",
		  "changeType": "UPSERT", "aspectName": "status",
		  "aspect": {"value": "{\"removed\": true}", "contentType": "application/json"}}}`))
	fmt.Println("answer lost:", err != nil)
	stored, err := s.GetAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "status", 0)
	fmt.Println("stored:", string(stored), err)
	// Output:
	// answer lost: true
	// stored: {"removed":true} <nil>
}

// FastForward moves the server's clock: async writes (sent with
// "async": "true") that fall due are applied, in order, without sleeping.
func ExampleServer_FastForward() {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := mockserver.New(mockserver.WithClock(func() time.Time { return start }), mockserver.WithAsyncLag(time.Minute))
	defer s.Close()

	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposal", strings.NewReader(
		`{"proposal": {"entityType": "dataset", "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)",
		  "changeType": "UPSERT", "aspectName": "status",
		  "aspect": {"value": "{\"removed\": true}", "contentType": "application/json"}},
		 "async": "true"}`)))
	fmt.Println(rec.Code)

	_, err := s.GetAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "status", 0)
	fmt.Println("before the lag:", errors.Is(err, datahub.ErrNotFound))
	s.FastForward(time.Minute)
	stored, err := s.GetAspectJSON("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", "status", 0)
	fmt.Println("after:", string(stored), err, s.Now().Format(time.TimeOnly))
	// Output:
	// 200
	// before the lag: true
	// after: {"removed":true} <nil> 00:01:00
}

// Listen runs the mock from a main, or any program that is not a test
// (the mockserver package does not import testing).
func ExampleListen() {
	s, err := mockserver.Listen("127.0.0.1:0", mockserver.WithToken("secret"))
	if err != nil {
		panic(err)
	}
	defer s.Close()
	resp, err := http.Get(s.URL() + "/config") // the one route without a token
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, strings.Contains(string(body), `"noCode":"true"`))
	// Output:
	// 200 true
}

// URN-typed aspect fields are checked as DataHub checks them: a value that
// is no URN, a URN whose parts do not fit its entity's key, or a URN of an
// entity type the field's relationship does not point at is refused with
// DataHub's status (422 over Rest.li) and message, and nothing is written.
func Example_urnFields() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	em, err := emitter.NewREST(s.URL())
	if err != nil {
		panic(err)
	}
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)")
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)")
	dataset := "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"
	for _, p := range []struct {
		u urn.URN
		a aspects.Aspect
	}{
		{model, aspects.MLModelProperties{Groups: []string{"not a urn"}}},
		{table, aspects.MLFeatureTableProperties{MLFeatures: []string{"urn:li:mlFeature:broken"}}},
		{table, aspects.MLFeatureTableProperties{MLFeatures: []string{dataset}}},
		{table, aspects.MLFeatureTableProperties{MLFeatures: []string{"urn:li:mlFeature:(users,age)"}}},
	} {
		prop, err := emitter.NewProposal(p.u, p.a)
		if err != nil {
			panic(err)
		}
		err = em.Emit(context.Background(), prop)
		var de *datahub.Error
		if !errors.As(err, &de) {
			fmt.Println("written:", err == nil)
			continue
		}
		fmt.Println(de.StatusCode, strings.ReplaceAll(de.Message, "\n", " "))
	}
	// Output:
	// 422 Invalid format for aspect: mlModel  Cause: [ERROR :: /groups/0 :: "Provided urn not a urn" is invalid: missing "urn:li:" prefix]
	// 422 Invalid format for aspect: mlFeatureTable  Cause: [ERROR :: /mlFeatures/0 :: "Provided urn urn:li:mlFeature:broken" is invalid: Failed to convert urn to entity key: urns parts and key fields do not have same length for urn:li:mlFeature:broken]
	// 422 Invalid format for aspect: mlFeatureTable  Cause: [ERROR :: /mlFeatures/0 :: "Provided urn urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)" is invalid: Entity type for urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD) is not a valid destination for field path: /mlFeatures/*]
	// written: true
}
