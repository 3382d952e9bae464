package emitter_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// serveMock serves a fresh mock GMS on a local port for an example.
func serveMock() (*mockserver.Server, *httptest.Server) {
	s := mockserver.New()
	return s, httptest.NewServer(s)
}

func ExampleREST_Emit() {
	mock, srv := serveMock()
	defer srv.Close()
	ctx := context.Background()

	e, err := emitter.NewREST(srv.URL) // a GMS root, or a front end's .../api/gms
	if err != nil {
		log.Fatal(err)
	}
	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
	p, err := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("One row per order.")})
	if err != nil {
		log.Fatal(err)
	}
	if err := e.Emit(ctx, p); err != nil {
		log.Fatal(err)
	}

	got, _ := mock.GetAspect(u.String(), "datasetProperties")
	fmt.Println(*got.(*aspects.DatasetProperties).Description)
	// Output: One row per order.
}

func ExampleNewProposal() {
	u, _ := urn.NewMLFeature("customer", "age")
	_, err := emitter.NewProposal(u, aspects.SchemaMetadata{})
	fmt.Println(err)
	// Output: emitter: entity type mlFeature does not allow aspect "schemaMetadata": datahub: validation failed
}

func ExampleBatchError() {
	_, srv := serveMock()
	defer srv.Close()
	e, _ := emitter.NewREST(srv.URL)

	var ps []emitter.Proposal
	for _, name := range []string{"db.a", "db.b", "db.c"} {
		u, _ := urn.NewDataset("hive", name, "PROD")
		p, _ := emitter.NewProposal(u, aspects.Status{})
		ps = append(ps, p)
	}
	// An aspect the server refuses: the batch is refused as a whole, then
	// split to find the culprit; the other proposals are written.
	ps[1].Aspect = emitter.RawAspect{Name: "status", JSON: json.RawMessage(`{"removed": "no"}`)}

	err := e.Emit(context.Background(), ps...)
	var be *emitter.BatchError
	if errors.As(err, &be) {
		for _, r := range be.Results {
			fmt.Println(r.Index, r.URN, r.Status)
		}
	}
	// Output:
	// 0 urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD) written
	// 1 urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD) rejected
	// 2 urn:li:dataset:(urn:li:dataPlatform:hive,db.c,PROD) written
}

func ExampleREST_TestConnection() {
	_, srv := serveMock()
	defer srv.Close()
	e, _ := emitter.NewREST(srv.URL + "/api/gms/")
	fmt.Println(strings.TrimPrefix(e.ServerURL(), srv.URL)) // trailing slash dropped
	fmt.Println(e.TestConnection(context.Background()) == nil)
	// Output:
	// /api/gms
	// true
}

// TestConnection checks the token too: against a server that requires
// "secret", a wrong token (or none) is refused before anything is sent.
func ExampleREST_TestConnection_token() {
	mock, err := mockserver.Listen("127.0.0.1:0", mockserver.WithToken("secret"))
	if err != nil {
		log.Fatal(err)
	}
	defer mock.Close()
	for _, token := range []string{"wrong", "secret"} {
		e, err := emitter.NewREST(mock.URL(), datahub.WithToken(token))
		if err != nil {
			log.Fatal(err)
		}
		err = e.TestConnection(context.Background())
		fmt.Printf("%s: ok %v, refused %v\n", token, err == nil, errors.Is(err, datahub.ErrUnauthorized))
	}
	// Output:
	// wrong: ok false, refused true
	// secret: ok true, refused false
}

func ExampleNewAsync() {
	mock, srv := serveMock()
	defer srv.Close()
	ctx := context.Background()
	rest, _ := emitter.NewREST(srv.URL)

	a := emitter.NewAsync(rest, emitter.WithWorkers(2), emitter.WithErrorHandler(func(p emitter.Proposal, err error) {
		fmt.Println("not written:", p.URN, err)
	}))
	for i := range 100 {
		u, _ := urn.NewDataset("hive", fmt.Sprintf("db.t%d", i), "PROD")
		p, _ := emitter.NewProposal(u, aspects.Status{})
		if err := a.Emit(ctx, p); err != nil { // queues, or waits for room
			log.Fatal(err)
		}
	}
	if err := a.Close(ctx); err != nil { // sends everything queued first
		log.Fatal(err)
	}
	fmt.Println(mock.RequestCount(mockserver.OpIngestProposalBatch) > 0, len(mock.Proposals()))
	// Output: true 100
}

func ExampleNewFile() {
	path := filepath.Join(os.TempDir(), "datahub-go-example.json")
	defer os.Remove(path)

	f, err := emitter.NewFile(path)
	if err != nil {
		log.Fatal(err)
	}
	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
	p, _ := emitter.NewProposal(u, aspects.Status{Removed: false})
	if err := f.Emit(context.Background(), p); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}

	ps, _ := emitter.ReadFile(path)
	fmt.Println(len(ps), ps[0].URN, ps[0].AspectName, *ps[0].Aspect.(*aspects.Status))
	// Output: 1 urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD) status {false <nil> <nil>}
}

// A conditional write whose answer is lost is not sent again (a replay
// would fail its own condition): Emit reports its outcome as unknown, and
// a read tells what happened.
func ExampleREST_Emit_outcomeUnknown() {
	// The mock applies the write, then drops the connection unanswered.
	mock := mockserver.New(mockserver.WithFault(mockserver.CommitThenDrop(mockserver.OpIngestProposal, 1)))
	srv := httptest.NewServer(mock)
	defer srv.Close()
	e, _ := emitter.NewREST(srv.URL)

	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
	p, _ := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("first")})
	p.Headers = map[string]string{"If-Version-Match": "-1"} // only if it does not exist yet
	err := e.Emit(context.Background(), p)
	fmt.Println(errors.Is(err, datahub.ErrOutcomeUnknown), errors.Is(err, datahub.ErrPreconditionFailed))

	got, _ := mock.GetAspect(u.String(), "datasetProperties")
	fmt.Println(*got.(*aspects.DatasetProperties).Description)
	// Output:
	// true false
	// first
}

// A long ingestion learns which proposals the server acknowledged from the
// outcome stream, and can checkpoint them.
func ExampleWithResultHandler() {
	_, srv := serveMock()
	defer srv.Close()
	rest, _ := emitter.NewREST(srv.URL)

	var mu sync.Mutex
	written := 0
	a := emitter.NewAsync(rest, emitter.WithResultHandler(func(r emitter.AsyncResult) {
		mu.Lock()
		defer mu.Unlock()
		if r.Status == emitter.Written {
			written++ // e.g. record r.Seq or r.Proposal.URN as done
		}
	}))
	for i := range 5 {
		u, _ := urn.NewDataset("hive", fmt.Sprintf("db.t%d", i), "PROD")
		p, _ := emitter.NewProposal(u, aspects.Status{})
		if err := a.Emit(context.Background(), p); err != nil {
			log.Fatal(err)
		}
	}
	if err := a.Close(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println(written, "written")
	// Output: 5 written
}

// ExampleWithEmitMode writes through DataHub's OpenAPI v3 entity API and
// waits, through the write trace, until each proposal is stored and
// indexed or failed: a failed condition found after the 202 is reported
// for its proposal alone.
func ExampleWithEmitMode() {
	mock := mockserver.New(mockserver.WithAsyncLag(10 * time.Millisecond)) // GMS's queue and index lag
	srv := httptest.NewServer(mock)
	defer srv.Close()
	ctx := context.Background()

	e, err := emitter.NewREST(srv.URL, datahub.WithEndpoint(datahub.EndpointOpenAPI), emitter.WithEmitMode(emitter.EmitAsyncWait))
	if err != nil {
		log.Fatal(err)
	}
	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
	ok, _ := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr("One row per order.")})
	stale, _ := emitter.NewProposal(u, aspects.Status{})
	stale.Headers = map[string]string{"If-Version-Match": "4"} // the aspect has no version 4
	err = e.Emit(ctx, ok, stale)

	var be *emitter.BatchError
	if errors.As(err, &be) {
		for _, r := range be.Results {
			fmt.Println(r.Aspect, r.Status)
		}
	}
	var te *emitter.TraceError
	if errors.As(err, &te) {
		fmt.Println(te.Message)
	}
	fmt.Println(mock.IndexedAspects(u.String())["datasetProperties"] != nil) // indexed before Emit returned
	// Output:
	// datasetProperties written
	// status rejected
	// Expected version 4, actual version -1
	// true
}

// A write its caller stops (the context cancelled while the request is in
// flight) may have been applied, as a lost answer may: its outcome is
// Stopped, not Unknown, so that whoever owns the work can keep it to do
// again rather than report it and move on.
func ExampleREST_Emit_stopped() {
	// The mock holds every write for a second before it handles it.
	mock := mockserver.New(mockserver.WithFault(mockserver.Latency(mockserver.OpIngestProposal, time.Second)))
	srv := httptest.NewServer(mock)
	defer srv.Close()
	e, _ := emitter.NewREST(srv.URL, datahub.WithEndpoint(datahub.EndpointRestli))

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for mock.RequestCount(mockserver.OpIngestProposal) == 0 { // the write is in flight
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
	p, _ := emitter.NewProposal(u, aspects.Status{})
	err := e.Emit(ctx, p)

	var be *emitter.BatchError
	if errors.As(err, &be) {
		fmt.Println(be.Results[0].Status)
	}
	fmt.Println(errors.Is(err, datahub.ErrStopped), errors.Is(err, datahub.ErrOutcomeUnknown), errors.Is(err, context.Canceled))
	// Output:
	// stopped
	// true true true
}

func ExampleREST_EmitResults() {
	_, srv := serveMock()
	defer srv.Close()
	ctx := context.Background()

	// OpenAPI v3's synchronous writes answer versions; Rest.li's do not.
	e, err := emitter.NewREST(srv.URL, datahub.WithEndpoint(datahub.EndpointOpenAPI))
	if err != nil {
		log.Fatal(err)
	}
	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
	emit := func(description string) {
		p, err := emitter.NewProposal(u, aspects.DatasetProperties{Description: aspects.Ptr(description)})
		if err != nil {
			log.Fatal(err)
		}
		q, err := emitter.NewProposal(u, aspects.Status{Removed: false})
		if err != nil {
			log.Fatal(err)
		}
		results, err := e.EmitResults(ctx, p, q)
		if err != nil {
			log.Fatal(err)
		}
		for _, r := range results {
			fmt.Println(r.Aspect, r.Status, "version", r.Version)
		}
	}
	emit("One row per order.")
	emit("One row per order.") // unchanged: a no-op, the versions stay
	emit("One row per order, deduplicated.")
	// Output:
	// datasetProperties written version 1
	// status written version 1
	// datasetProperties written version 1
	// status written version 1
	// datasetProperties written version 2
	// status written version 1
}
