// Command quickstart registers a small ML catalog in DataHub and reads it back:
// a dataset with a schema (read through GraphQL, column by column), a feature
// table with two features sourced from the dataset, and a model group with
// one model that uses the features.
//
// With no flags it starts an embedded mock DataHub (package mockserver) on a
// loopback port, so it runs anywhere:
//
//	go run ./examples/quickstart
//
// Point it at a real DataHub GMS (or a front end's /api/gms) with:
//
//	go run ./examples/quickstart -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
//
// It imports only the SDK's public packages: copy this file into a module of
// your own to start from it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func main() {
	server := flag.String("server", "", "DataHub GMS URL; empty starts an embedded mock server")
	token := flag.String("token", os.Getenv("DATAHUB_GMS_TOKEN"), "access token (default $DATAHUB_GMS_TOKEN)")
	flag.Parse()
	log.SetFlags(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, *server, *token, os.Stdout); err != nil {
		cancel()
		log.Fatalf("quickstart: %v", err)
	}
}

func run(ctx context.Context, server, token string, out io.Writer) error {
	if server == "" {
		// An in-memory mock DataHub on a free loopback port, for this run.
		mock, err := mockserver.Listen("127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("start embedded mock: %w", err)
		}
		defer mock.Close()
		server = mock.URL()
		fmt.Fprintf(out, "embedded mock DataHub at %s\n", server)
	}

	em, err := emitter.NewREST(server, datahub.WithToken(token))
	if err != nil {
		return err
	}
	if err := em.TestConnection(ctx); err != nil {
		return err
	}

	proposals, err := catalog()
	if err != nil {
		return err
	}
	// One call: the emitter sends them as ingestProposalBatch requests of at
	// most 200 proposals and 15 MiB, retrying 429/5xx and dropped connections.
	if err := em.Emit(ctx, proposals...); err != nil {
		var be *emitter.BatchError
		if errors.As(err, &be) {
			fmt.Fprintf(out, "some proposals were not written:\n%v\n", be)
		}
		return err
	}
	fmt.Fprintf(out, "wrote %d aspects\n", len(proposals))

	// Read the dataset back with its schema through DataHub's GraphQL API:
	// each column joined with the description edited in DataHub, if any.
	c, err := client.New(server, datahub.WithToken(token))
	if err != nil {
		return err
	}
	dataset := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,analytics.user_events,PROD)").(urn.Dataset)
	d, err := c.Dataset(ctx, dataset)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "dataset %s: %s\n", dataset, d.EffectiveDescription())
	for _, col := range d.Columns() {
		fmt.Fprintf(out, "  column %s %s: %s\n", col.FieldPath, deref(col.NativeDataType), col.EffectiveDescription())
	}

	// Read two aspects back, typed, through GMS's aspect read path.
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features)")
	tp, err := client.GetAspect[aspects.MLFeatureTableProperties](ctx, c, table)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "feature table %s: %s\n  features %v\n", table, deref(tp.Description), tp.MLFeatures)
	model := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn-model-v3,PROD)")
	mp, err := client.GetAspect[aspects.MLModelProperties](ctx, c, model)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "model %s: %s\n  features %v\n  groups %v\n", model, deref(mp.Description), mp.MLFeatures, mp.Groups)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return "(no description)"
	}
	return *s
}

// catalog builds the proposals of the example catalog.
func catalog() ([]emitter.Proposal, error) {
	dataset, err := urn.NewDataset("hive", "analytics.user_events", "PROD")
	if err != nil {
		return nil, err
	}
	table, err := urn.NewMLFeatureTable("feast", "user_features")
	if err != nil {
		return nil, err
	}
	logins, err := urn.NewMLFeature("user_features", "login_count_7d")
	if err != nil {
		return nil, err
	}
	country, err := urn.NewMLFeature("user_features", "country")
	if err != nil {
		return nil, err
	}
	group, err := urn.NewMLModelGroup("sagemaker", "churn-model", "PROD")
	if err != nil {
		return nil, err
	}
	model, err := urn.NewMLModel("sagemaker", "churn-model-v3", "PROD")
	if err != nil {
		return nil, err
	}

	writes := []struct {
		u urn.URN
		a aspects.Aspect
	}{
		{dataset, aspects.DatasetProperties{Description: aspects.Ptr("One row per user event.")}},
		{dataset, aspects.SchemaMetadata{
			SchemaName:     "analytics.user_events",
			Platform:       dataset.Platform().String(),
			PlatformSchema: aspects.OtherSchema{RawSchema: ""},
			Fields: []aspects.SchemaField{
				{FieldPath: "user_id", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string", Description: aspects.Ptr("Who.")},
				{FieldPath: "country", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
				{FieldPath: "ts", Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "bigint"},
			},
		}},
		{logins, aspects.MLFeatureProperties{
			Description: aspects.Ptr("Logins in the last 7 days."),
			DataType:    aspects.Ptr(aspects.MLFeatureDataTypeCount),
			Version:     &aspects.VersionTag{VersionTag: aspects.Ptr("1")},
			Sources:     []string{dataset.String()},
		}},
		{country, aspects.MLFeatureProperties{
			DataType: aspects.Ptr(aspects.MLFeatureDataTypeNominal),
			Sources:  []string{dataset.String()},
		}},
		{table, aspects.MLFeatureTableProperties{
			Description: aspects.Ptr("Features keyed by user."),
			MLFeatures:  []string{logins.String(), country.String()},
		}},
		{group, aspects.MLModelGroupProperties{Description: aspects.Ptr("All training runs of the churn model.")}},
		{model, aspects.MLModelProperties{
			Description: aspects.Ptr("Weekly retrain, November."),
			Type:        aspects.Ptr("gradient boosted trees"),
			Version:     &aspects.VersionTag{VersionTag: aspects.Ptr("3")},
			MLFeatures:  []string{logins.String(), country.String()},
			Groups:      []string{group.String()},
		}},
	}
	ps := make([]emitter.Proposal, 0, len(writes))
	for _, w := range writes {
		p, err := emitter.NewProposal(w.u, w.a)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, nil
}
