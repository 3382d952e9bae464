package client_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// startMock serves an in-memory mock DataHub with a feature table and a
// model on a loopback port.
func startMock() (url string, stop func()) {
	mock := mockserver.New()
	must(mock.PutAspect("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)",
		aspects.MLFeatureTableProperties{Description: aspects.Ptr("Features keyed by user.")}))
	must(mock.PutAspect("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)",
		aspects.MLModelProperties{Description: aspects.Ptr("Churn model.")}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(err)
	srv := &http.Server{Handler: mock, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // returns at Close
	return "http://" + ln.Addr().String(), func() { srv.Close(); mock.Close() }
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func ExampleClient_AddFeatureToTable() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)").(urn.MLFeatureTable)
	for _, name := range []string{"age", "country", "age"} { // adding twice writes once
		feature, err := urn.NewMLFeature("users", name)
		must(err)
		must(c.AddFeatureToTable(ctx, table, feature))
	}
	props, err := client.GetAspect[aspects.MLFeatureTableProperties](ctx, c, table)
	must(err)
	fmt.Println(props.MLFeatures)
	// Output: [urn:li:mlFeature:(users,age) urn:li:mlFeature:(users,country)]
}

func ExampleModify() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)")
	// Read, change and write back with If-Version-Match; on a concurrent
	// change the function runs again on the new value.
	err = client.Modify(ctx, c, model, func(p *aspects.MLModelProperties) error {
		if p.Type != nil {
			return client.ErrNoChange // nothing to write
		}
		p.Type = aspects.Ptr("gradient boosted trees")
		return nil
	})
	must(err)
	v, err := client.GetVersioned[aspects.MLModelProperties](ctx, c, model)
	must(err)
	fmt.Println(*v.Value.Description, "|", *v.Value.Type, "| version", v.Version)
	// Output: Churn model. | gradient boosted trees | version 2
}

func ExampleGetAspect_notFound() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server)
	must(err)
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.unknown,PROD)")
	_, err = client.GetAspect[aspects.DatasetProperties](ctx, c, ds)
	fmt.Println(errors.Is(err, datahub.ErrNotFound))
	exists, err := c.Exists(ctx, ds)
	must(err)
	fmt.Println(exists)
	// A helper refuses to write to an entity that does not exist.
	err = c.SetDescription(ctx, ds, "Users.")
	var nf *client.EntityNotFoundError
	fmt.Println(errors.As(err, &nf), nf.URN)
	// Output:
	// true
	// false
	// true urn:li:dataset:(urn:li:dataPlatform:hive,db.unknown,PROD)
}

func ExampleClient_AddLink() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server, client.WithActor("urn:li:corpuser:jdoe"))
	must(err)
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)")
	must(c.AddLink(ctx, model, "https://wiki.example.com/churn", "Model card"))
	mem, err := client.GetAspect[aspects.InstitutionalMemory](ctx, c, model)
	must(err)
	for _, l := range mem.Elements {
		fmt.Println(l.URL, l.Description, l.CreateStamp.Actor)
	}
	// Output: https://wiki.example.com/churn Model card urn:li:corpuser:jdoe
}

// By default Modify writes as DataHub's UPSERT does and creates an entity
// that does not exist; WithRequireEntity makes it refuse one, as the
// helpers do.
func ExampleWithRequireEntity() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server, client.WithRequireEntity(true))
	must(err)
	ghost := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,ghost,PROD)")
	setType := func(p *aspects.MLModelProperties) error {
		p.Type = aspects.Ptr("logistic regression")
		return nil
	}
	err = client.Modify(ctx, c, ghost, setType)
	fmt.Println(errors.Is(err, datahub.ErrNotFound))

	// Per call, a copy of the client with the default: the entity is created.
	must(client.Modify(ctx, c.WithRequireEntity(false), ghost, setType))
	exists, err := c.Exists(ctx, ghost)
	must(err)
	fmt.Println(exists)
	// Output:
	// true
	// true
}

// ExampleClient_ServerInfo asks the server what it is, then reads through
// the API it supports: datahub.EndpointAuto picks OpenAPI v3 for DataHub
// 1.0.1 and later (the mock reports the release it follows, 1.6.0, unless
// told otherwise).
func ExampleClient_ServerInfo() {
	server, stop := startMock()
	defer stop()
	ctx := context.Background()

	c, err := client.New(server, datahub.WithEndpoint(datahub.EndpointAuto))
	if err != nil {
		log.Fatal(err)
	}
	info, err := c.ServerInfo(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(info.Version, info.ServerEnv, "OpenAPI:", info.Capabilities.OpenAPI)

	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)")
	exists, err := c.Exists(ctx, table)
	fmt.Println(exists, err)
	// Output:
	// v1.6.0 core OpenAPI: true
	// true <nil>
}
