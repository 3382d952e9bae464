package kafka_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
)

// produceError answers a produce request with code for every partition,
// without appending anything.
func produceError(req kmsg.Request, code int16) kmsg.Response {
	preq := req.(*kmsg.ProduceRequest)
	resp := preq.ResponseKind().(*kmsg.ProduceResponse)
	resp.SetVersion(preq.GetVersion())
	for _, t := range preq.Topics {
		rt := kmsg.NewProduceResponseTopic()
		rt.Topic, rt.TopicID = t.Topic, t.TopicID
		for _, p := range t.Partitions {
			rp := kmsg.NewProduceResponseTopicPartition()
			rp.Partition, rp.ErrorCode = p.Partition, code
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

// TestBrokerFailuresLoseNothing emits two versions of an aspect for many
// entities while the cluster drops produce requests (closing the
// connection before appending), answers some with retriable errors without
// appending, and answers others with REQUEST_TIMED_OUT after appending (the
// answer lost, the write done). Every proposal must be acknowledged, the
// topic must hold each exactly once and in order per entity, and the mock's
// final state must hold every entity's second version.
func TestBrokerFailuresLoseNothing(t *testing.T) {
	t.Parallel()
	for _, partitions := range []int32{1, 3} {
		t.Run(fmt.Sprintf("%d partitions", partitions), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, partitions)
			var mu sync.Mutex
			offsets := map[int32]map[int64]bool{}
			// Small batches, so the proposals take many produce requests.
			em := e.emitter(t, kafka.WithKgoOptions(kgo.ProducerBatchMaxBytes(2000)), kafka.WithOnAck(func(a kafka.Ack) {
				mu.Lock()
				defer mu.Unlock()
				if a.Err == nil {
					if offsets[a.Partition] == nil {
						offsets[a.Partition] = map[int64]bool{}
					}
					offsets[a.Partition][a.Offset] = true
				}
			}))

			// Request control: from the 3rd produce request on, drop
			// every 3rd request and answer every 3rd+1 with
			// NOT_LEADER_FOR_PARTITION, 12 faults in all; then append 4
			// requests but answer them REQUEST_TIMED_OUT.
			var seen, dropped, refused atomic.Int32
			e.cluster.ControlKey(kmsg.Produce.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
				e.cluster.KeepControl()
				n := seen.Add(1)
				if n < 3 || dropped.Load()+refused.Load() >= 12 {
					return nil, nil, false // handled normally
				}
				switch n % 3 {
				case 0:
					dropped.Add(1)
					return nil, errors.New("dropped"), true // the connection is closed
				case 1:
					refused.Add(1)
					return produceError(req, kerr.NotLeaderForPartition.Code), nil, true
				}
				return nil, nil, false
			})
			timedOut := e.cluster.Fault(kfake.Fault{Keys: []kmsg.Key{kmsg.Produce}, Err: kerr.RequestTimedOut, Count: 4,
				When: func(kmsg.Request) bool { return dropped.Load()+refused.Load() >= 12 }})

			const entities = 150
			ctx := context.Background()
			// Several Emit calls at once, so produce requests carry
			// batches of proposals mid-stream.
			var wg sync.WaitGroup
			errs := make([]error, 2*5)
			for round := range 2 {
				for w := range 5 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						var ps []emitter.Proposal
						for i := w; i < entities; i += 5 {
							ps = append(ps, emitter.Proposal{URN: dataset(t, fmt.Sprintf("t%03d", i)), Aspect: props(fmt.Sprintf("v%d of %d", round+1, i))})
						}
						errs[round*5+w] = em.Emit(ctx, ps...)
					}()
				}
				wg.Wait() // the second version after the first
			}
			for i, err := range errs {
				if err != nil {
					t.Errorf("Emit %d: %v", i, err)
				}
			}
			if dropped.Load() == 0 || refused.Load() == 0 || timedOut.Hits() == 0 {
				t.Errorf("faults injected: %d dropped, %d refused, %d timed out after appending; want some of each", dropped.Load(), refused.Load(), timedOut.Hits())
			}
			t.Logf("faults: %d produce requests dropped, %d refused, %d appended but answered REQUEST_TIMED_OUT (of %d)", dropped.Load(), refused.Load(), timedOut.Hits(), seen.Load())

			// Exactly once in the topic: as many messages as proposals,
			// and every acknowledged offset distinct.
			acked := 0
			mu.Lock()
			for _, m := range offsets {
				acked += len(m)
			}
			mu.Unlock()
			if acked != 2*entities {
				t.Errorf("%d distinct acknowledged offsets, want %d", acked, 2*entities)
			}
			recs := consumeAll(t, e, kafka.DefaultMCPTopic, 2*entities)
			perKey := map[string]int{}
			for _, r := range recs {
				perKey[string(r.Key)]++
			}
			for k, n := range perKey {
				if n != 2 {
					t.Errorf("%s: %d messages, want 2", k, n)
				}
			}

			b, rec := e.bridge(t)
			if n := syncBridge(t, b); n != 2*entities {
				t.Errorf("bridge handled %d messages, want %d (none lost, none duplicated)", n, 2*entities)
			}
			for _, a := range rec.list() {
				if a.Err != nil {
					t.Errorf("applying %s: %v", a.URN, a.Err)
				}
			}
			var missing []string
			for i := range entities {
				u := dataset(t, fmt.Sprintf("t%03d", i)).String()
				got := getJSON(t, e, u, "datasetProperties")
				if want := fmt.Sprintf(`"description":"v2 of %d"`, i); !contains(got, want) {
					missing = append(missing, fmt.Sprintf("%s = %s", u, got))
				}
			}
			if diff := cmp.Diff([]string(nil), missing); diff != "" {
				t.Errorf("entities without their second version (-want +got):\n%s", diff)
			}
		})
	}
}

// fetchError answers a fetch request with code for every partition it asks
// for, without records.
func fetchError(req kmsg.Request, code int16) kmsg.Response {
	freq := req.(*kmsg.FetchRequest)
	resp := freq.ResponseKind().(*kmsg.FetchResponse)
	resp.SetVersion(freq.GetVersion())
	for _, t := range freq.Topics {
		rt := kmsg.NewFetchResponseTopic()
		rt.Topic, rt.TopicID = t.Topic, t.TopicID
		for _, p := range t.Partitions {
			rp := kmsg.NewFetchResponseTopicPartition()
			rp.Partition, rp.ErrorCode = p.Partition, code
			rt.Partitions = append(rt.Partitions, rp)
		}
		resp.Topics = append(resp.Topics, rt)
	}
	return resp
}

// TestBridgeFetchErrorsReported: fetches that keep failing (the brokers
// answer TOPIC_AUTHORIZATION_FAILED) are logged, retried after growing
// waits, and then returned by Run instead of being retried forever without
// a report; the message is applied once the fetches work again. (Before,
// Run never returned and nothing was logged.)
func TestBridgeFetchErrorsReported(t *testing.T) {
	t.Parallel()
	e := newEnv(t, 1)
	em := e.emitter(t)
	u := dataset(t, "fetched")
	if err := em.Emit(context.Background(), emitter.Proposal{URN: u, Aspect: props("late")}); err != nil {
		t.Fatal(err)
	}
	var failing atomic.Bool
	failing.Store(true)
	var refused atomic.Int32
	e.cluster.ControlKey(kmsg.Fetch.Int16(), func(req kmsg.Request) (kmsg.Response, error, bool) {
		e.cluster.KeepControl()
		if !failing.Load() {
			return nil, nil, false
		}
		refused.Add(1)
		return fetchError(req, kerr.TopicAuthorizationFailed.Code), nil, true
	})
	var logs syncBuffer
	b, rec := e.bridge(t, kafka.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := b.Run(ctx)
	if !errors.Is(err, kerr.TopicAuthorizationFailed) {
		t.Fatalf("Run = %v, want the fetch error (TOPIC_AUTHORIZATION_FAILED) after repeated failures", err)
	}
	if n := strings.Count(logs.String(), "fetch failed"); n < 2 {
		t.Errorf("%d fetch failures logged, want each one:\n%s", n, logs.String())
	}
	if len(rec.list()) != 0 {
		t.Errorf("applied %+v while fetches failed", rec.list())
	}
	failing.Store(false)
	if n, err := syncWithin(t, b); n != 1 || err != nil {
		t.Fatalf("Sync after the fetches recovered = %d, %v; want the message applied", n, err)
	}
	if v := getJSON(t, e, u.String(), "datasetProperties"); !contains(v, `"late"`) {
		t.Errorf("datasetProperties = %s", v)
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
