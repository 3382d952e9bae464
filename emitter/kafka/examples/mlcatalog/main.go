// Command mlcatalog emits a small ML catalog to DataHub through Kafka and
// reads it back: a training dataset, a feature table with two features, and
// a model group with one model that uses the features.
//
// With no flags it runs everything in process, with no containers: a fake
// Kafka cluster (franz-go's kfake), a fake schema registry (srfake), the
// SDK's mock DataHub GMS (mockserver) and a kafka.Bridge that applies the
// topic to the mock as GMS's own consumer would:
//
//	go run ./examples/mlcatalog
//
// Against a real deployment, give the brokers and the registry, and the GMS
// to read the catalog back from once GMS's consumers have applied it:
//
//	go run ./examples/mlcatalog -brokers broker:9092 -registry http://registry:8081 -gms http://gms:8080
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// config says where to emit; all empty runs everything in process.
type config struct {
	brokers  []string
	registry string
	gms      string
	token    string
}

func main() {
	brokers := flag.String("brokers", "", "Kafka brokers, comma-separated; empty runs a fake cluster, registry and GMS in process")
	registry := flag.String("registry", "", "schema registry URL")
	gms := flag.String("gms", "", "DataHub GMS URL to read the catalog back from")
	token := flag.String("token", os.Getenv("DATAHUB_GMS_TOKEN"), "GMS access token (default $DATAHUB_GMS_TOKEN)")
	flag.Parse()
	log.SetFlags(0)
	cfg := config{registry: *registry, gms: *gms, token: *token}
	if *brokers != "" {
		cfg.brokers = strings.Split(*brokers, ",")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, cfg, os.Stdout); err != nil {
		log.Fatalf("mlcatalog: %v", err)
	}
}

func run(ctx context.Context, cfg config, out io.Writer) error {
	var bridge *kafka.Bridge
	if len(cfg.brokers) == 0 {
		cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, kafka.DefaultMCPTopic))
		if err != nil {
			return err
		}
		defer cluster.Close()
		reg := srfake.New()
		defer reg.Close()
		gms := httptest.NewServer(mockserver.New())
		defer gms.Close()
		cfg = config{brokers: cluster.ListenAddrs(), registry: reg.URL(), gms: gms.URL}
		if bridge, err = kafka.NewBridge(cfg.brokers, cfg.registry, cfg.gms); err != nil {
			return err
		}
		defer bridge.Close()
	}

	proposals, reads, err := catalog()
	if err != nil {
		return err
	}
	em, err := kafka.New(cfg.brokers, cfg.registry)
	if err != nil {
		return err
	}
	defer em.Close(ctx)
	if err := em.Emit(ctx, proposals...); err != nil {
		return err
	}
	fmt.Fprintf(out, "emitted %d proposals to %s\n", len(proposals), em.Topic())
	if err := em.Close(ctx); err != nil {
		return err
	}

	if bridge != nil {
		n, err := bridge.Sync(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "the bridge applied %d proposals to the mock GMS\n", n)
	}
	if cfg.gms == "" {
		return nil
	}
	for _, r := range reads {
		desc, err := description(ctx, cfg, r.urn, r.aspect)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%s %s: %s\n", r.urn, r.aspect, desc)
	}
	return nil
}

type read struct{ urn, aspect string }

// catalog returns the proposals of the ML catalog and what to read back.
func catalog() ([]emitter.Proposal, []read, error) {
	str := func(s string) *string { return &s }
	ds, err := urn.NewDataset("snowflake", "analytics.customers", "PROD")
	if err != nil {
		return nil, nil, err
	}
	table, err := urn.NewMLFeatureTable("feast", "customer_features")
	if err != nil {
		return nil, nil, err
	}
	tenure, err := urn.NewMLFeature("customer_features", "tenure_days")
	if err != nil {
		return nil, nil, err
	}
	spend, err := urn.NewMLFeature("customer_features", "monthly_spend")
	if err != nil {
		return nil, nil, err
	}
	group, err := urn.NewMLModelGroup("mlflow", "churn", "PROD")
	if err != nil {
		return nil, nil, err
	}
	model, err := urn.NewMLModel("mlflow", "churn-v3", "PROD")
	if err != nil {
		return nil, nil, err
	}
	var ps []emitter.Proposal
	var reads []read
	add := func(u urn.URN, a aspects.Aspect) {
		if err != nil {
			return
		}
		var p emitter.Proposal
		if p, err = emitter.NewProposal(u, a); err == nil {
			ps = append(ps, p)
			reads = append(reads, read{u.String(), a.AspectName()})
		}
	}
	add(ds, aspects.DatasetProperties{Description: str("Customers, one row per account")})
	for _, f := range []struct {
		u    urn.MLFeature
		desc string
	}{{tenure, "Days since the account opened"}, {spend, "Average spend over the last 30 days"}} {
		add(f.u, aspects.MLFeatureProperties{Description: str(f.desc), Sources: []string{ds.String()}})
	}
	add(table, aspects.MLFeatureTableProperties{Description: str("Customer features"), MLFeatures: []string{tenure.String(), spend.String()}})
	add(group, aspects.MLModelGroupProperties{Description: str("Churn models")})
	add(model, aspects.MLModelProperties{
		Description: str("Predicts customers about to leave"), MLFeatures: []string{tenure.String(), spend.String()},
		Groups: []string{group.String()}, TrainingMetrics: []aspects.MLMetric{{Name: "auc", Value: str("0.91")}},
	})
	return ps, reads, err
}

// description reads an aspect over GMS's read path (GET
// /aspects/{urn}?aspect=...&version=0) and returns its description,
// retrying for a while: GMS applies Kafka messages asynchronously.
func description(ctx context.Context, cfg config, u, aspect string) (string, error) {
	endpoint := strings.TrimRight(cfg.gms, "/") + "/aspects/" + strings.ReplaceAll(url.QueryEscape(u), "+", "%20") +
		"?aspect=" + url.QueryEscape(aspect) + "&version=0"
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, endpoint, nil)
		if err != nil {
			return "", err
		}
		req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
		if cfg.token != "" {
			req.Header.Set("Authorization", "Bearer "+cfg.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return "", err
		}
		switch resp.StatusCode {
		case http.StatusOK:
			var got struct {
				Aspect map[string]struct {
					Description string `json:"description"`
				} `json:"aspect"`
			}
			if err := json.Unmarshal(body, &got); err != nil {
				return "", fmt.Errorf("read %s %s: %w", u, aspect, err)
			}
			for _, v := range got.Aspect {
				return v.Description, nil
			}
			return "", fmt.Errorf("read %s %s: no aspect in %s", u, aspect, body)
		case http.StatusNotFound:
			select {
			case <-ctx.Done():
				return "", fmt.Errorf("read %s %s: not applied yet: %w", u, aspect, ctx.Err())
			case <-time.After(wait):
			}
		default:
			return "", fmt.Errorf("read %s %s: %s: %s", u, aspect, resp.Status, body)
		}
	}
}
