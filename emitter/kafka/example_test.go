package kafka_test

import (
	"context"
	"fmt"
	"log"
	"net/http/httptest"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// This example emits a proposal through an in-process Kafka cluster and
// schema registry, applies the topic to a mock GMS with a Bridge, and reads
// the aspect back: a Kafka ingestion job tested end to end without
// containers.
func Example() {
	cluster, err := kfake.NewCluster(kfake.SeedTopics(1, kafka.DefaultMCPTopic))
	if err != nil {
		log.Fatal(err)
	}
	defer cluster.Close()
	registry := srfake.New()
	defer registry.Close()
	mock := mockserver.New()
	gms := httptest.NewServer(mock)
	defer gms.Close()
	ctx := context.Background()

	em, err := kafka.New(cluster.ListenAddrs(), registry.URL())
	if err != nil {
		log.Fatal(err)
	}
	defer em.Close(ctx)
	u, _ := urn.NewDataset("hive", "db.orders", "PROD")
	desc := "All orders"
	p, err := emitter.NewProposal(u, aspects.DatasetProperties{Description: &desc})
	if err != nil {
		log.Fatal(err)
	}
	if err := em.Emit(ctx, p); err != nil {
		log.Fatal(err)
	}

	bridge, err := kafka.NewBridge(cluster.ListenAddrs(), registry.URL(), gms.URL)
	if err != nil {
		log.Fatal(err)
	}
	defer bridge.Close()
	n, err := bridge.Sync(ctx)
	if err != nil {
		log.Fatal(err)
	}
	got, err := mock.GetAspect(u.String(), "datasetProperties")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "applied:", *got.(*aspects.DatasetProperties).Description)
	// Output: 1 applied: All orders
}
