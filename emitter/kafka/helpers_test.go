package kafka_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sr"
	"github.com/twmb/franz-go/pkg/sr/srfake"

	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/mockserver"
)

// env is a Kafka cluster (kfake), a schema registry (srfake) and a mock GMS,
// all in process.
type env struct {
	cluster *kfake.Cluster
	reg     *srfake.Registry
	mock    *mockserver.Server
	brokers []string
}

func newEnv(t testing.TB, partitions int32) *env {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(partitions, kafka.DefaultMCPTopic))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	reg := srfake.New()
	t.Cleanup(reg.Close)
	return &env{cluster: c, reg: reg, mock: mockserver.Start(t), brokers: c.ListenAddrs()}
}

// fastRetries makes the producer retry lost requests quickly.
var fastRetries = kafka.WithKgoOptions(kgo.RetryBackoffFn(func(int) time.Duration { return time.Millisecond }), kgo.RequestTimeoutOverhead(time.Second), kgo.MetadataMinAge(10*time.Millisecond))

func (e *env) emitter(t testing.TB, opts ...kafka.EmitterOption) *kafka.Emitter {
	t.Helper()
	em, err := kafka.New(e.brokers, e.reg.URL(), append([]kafka.EmitterOption{fastRetries}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := em.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	return em
}

// applied records what a Bridge did.
type applied struct {
	mu  sync.Mutex
	all []kafka.Applied
}

func (a *applied) add(x kafka.Applied) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.all = append(a.all, x)
}

func (a *applied) list() []kafka.Applied {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]kafka.Applied(nil), a.all...)
}

func (e *env) bridge(t testing.TB, opts ...kafka.BridgeOption) (*kafka.Bridge, *applied) {
	t.Helper()
	rec := &applied{}
	b, err := kafka.NewBridge(e.brokers, e.reg.URL(), e.mock.URL(), append([]kafka.BridgeOption{kafka.WithOnApply(rec.add)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b, rec
}

func syncBridge(t testing.TB, b *kafka.Bridge) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	n, err := b.Sync(ctx)
	if err != nil {
		t.Fatalf("Bridge.Sync: %v", err)
	}
	return n
}

// consumeAll reads the first n messages of topic.
func consumeAll(t testing.TB, e *env, topic string, n int) []*kgo.Record {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.brokers...), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var out []*kgo.Record
	for len(out) < n {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("read %d of %d messages: %v", len(out), n, ctx.Err())
		}
		fs.EachRecord(func(r *kgo.Record) { out = append(out, r) })
	}
	return out
}

// subjectSchema returns the latest schema of subject in the registry.
func (e *env) subjectSchema(t testing.TB, subject string) sr.SubjectSchema {
	t.Helper()
	cl, err := sr.NewClient(sr.URLs(e.reg.URL()))
	if err != nil {
		t.Fatal(err)
	}
	ss, err := cl.SchemaByVersion(context.Background(), subject, -1)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}
