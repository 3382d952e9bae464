// Command quickstart registers a small ML catalog in DataHub and reads it back:
// a dataset with a schema, a feature table with two features sourced from the
// dataset, and a model group with one model that uses the features.
//
// With no flags it starts an embedded mock DataHub (package mockserver) on a
// loopback port, so it runs anywhere:
//
//	go run ./examples/quickstart
//
// Point it at a real DataHub GMS (or a front end's /api/gms) with:
//
//	go run ./examples/quickstart -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

func main() { embedded.Main("quickstart", run) }

func run(ctx context.Context, server, token string, out io.Writer) error {
	if server == "" {
		url, stop, err := embedded.Start()
		if err != nil {
			return err
		}
		defer stop()
		server = url
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

	// Read two aspects back through GMS's aspect read path.
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user_features)")
	for _, read := range []struct {
		u      urn.URN
		aspect string
	}{
		{table, "mlFeatureTableProperties"},
		{urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn-model-v3,PROD)"), "mlModelProperties"},
	} {
		body, err := getAspect(ctx, server, token, read.u, read.aspect)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s of %s:\n  %s\n", read.aspect, read.u, body)
	}
	return nil
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

// getAspect reads the latest version of one aspect as GMS returns it:
// {"version":0,"aspect":{"<record name>":{...}}}.
func getAspect(ctx context.Context, server, token string, u urn.URN, aspect string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet,
		server+"/aspects/"+urn.PathEscape(u.String())+"?aspect="+aspect+"&version=0", nil)
	if err != nil {
		return "", err
	}
	req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", &datahub.Error{StatusCode: resp.StatusCode, Message: string(body), Method: http.MethodGet, URL: datahub.RedactURL(req.URL.String())}
	}
	return string(body), nil
}
