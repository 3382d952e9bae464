package kafka_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
)

// BenchmarkEmit measures proposals per second into kfake: Emit of batches
// of 500 datasetProperties proposals over 100 entities, waiting for every
// acknowledgement (3 partitions, one broker, all in process).
func BenchmarkEmit(b *testing.B) {
	e := newEnv(b, 3)
	em := e.emitter(b)
	const batch = 500
	ps := make([]emitter.Proposal, batch)
	for i := range ps {
		ps[i] = emitter.Proposal{URN: dataset(b, fmt.Sprintf("b%d", i%100)), Aspect: props(fmt.Sprintf("a description of table %d", i))}
	}
	ctx := context.Background()
	if err := em.Emit(ctx, ps[0]); err != nil { // registers the schema
		b.Fatal(err)
	}
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if err := em.Emit(ctx, ps...); err != nil {
			b.Fatal(err)
		}
		n += batch
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "proposals/s")
}

// BenchmarkEncode measures the encoding of one proposal to Confluent's wire
// format (the wire form, then Avro), without Kafka.
func BenchmarkEncode(b *testing.B) {
	e := newEnv(b, 1)
	em := e.emitter(b, kafka.WithAutoRegister(true))
	p := emitter.Proposal{URN: dataset(b, "enc"), Aspect: props("a description")}
	ctx := context.Background()
	if _, err := em.Encode(ctx, p); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := em.Encode(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}
