package kafka

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
)

// Bridge consumes DataHub's proposal topic and applies every proposal to a
// GMS over its REST ingest path, as GMS's own proposal consumer applies
// them: it decodes each message (Confluent wire format, with the schema the
// registry holds under the message's schema id) and posts the proposal
// unchanged to POST {gms}/aspects?action=ingestProposal, the request
// DataHub's Python REST emitter sends. A DELETE of an entity's key aspect
// deletes the entity there, as GMS does.
//
// It is meant for tests: point it at an in-process mock server
// (github.com/catalogkit/datahub-go/mockserver) to check a Kafka ingestion
// job end to end without containers, as this package's tests do with
// franz-go's kfake and srfake. It reads the topic from its start with no
// consumer group (pass kgo.ConsumerGroup through WithKgoOptions to use
// one) and keeps its position in memory.
//
// A proposal GMS refuses (a 4xx answer) or that cannot be decoded is
// reported to the WithOnApply function and skipped, as GMS reports it on
// its failed-proposal topic; 429, 5xx answers and network errors are
// retried until the context is done. A 401 or 403 (every proposal would
// fail alike) and a registry failure stop the call with the error. A
// proposal not applied when a call stops is applied first by the next. Methods must not be called concurrently.
type Bridge struct {
	cfg     config
	cl      *kgo.Client
	codecs  *codecs
	ingest  string
	next    map[int32]int64 // the next offset to apply, per partition
	pending []*kgo.Record   // consumed, not yet applied
	mu      sync.Mutex
}

// Applied reports what the Bridge did with one message.
type Applied struct {
	// Topic, Partition and Offset locate the message.
	Topic     string
	Partition int32
	Offset    int64
	// URN, Aspect and ChangeType name the proposal; they are empty when
	// the message could not be decoded.
	URN, Aspect string
	ChangeType  emitter.ChangeType
	// Err is nil when GMS applied the proposal. Otherwise it is GMS's
	// refusal (a *datahub.Error) or the decoding error.
	Err error
}

// NewBridge returns a Bridge consuming the proposal topic (WithTopic) from
// the Kafka brokers, with the schema registry at schemaRegistryURL, and
// applying proposals to the GMS at gmsURL (such as a mock server's URL).
// Options that apply to a Bridge: WithTopic, WithKgoOptions,
// WithRegistryOptions, WithToken, WithHTTPClient, WithOnApply.
func NewBridge(brokers []string, schemaRegistryURL, gmsURL string, opts ...Option) (*Bridge, error) {
	cfg := newConfig(opts)
	switch {
	case len(brokers) == 0:
		return nil, fmt.Errorf("kafka: no brokers: %w", datahub.ErrValidation)
	case schemaRegistryURL == "" || gmsURL == "":
		return nil, fmt.Errorf("kafka: no schema registry or GMS URL: %w", datahub.ErrValidation)
	}
	cs, err := newCodecs(schemaRegistryURL, cfg.srOpts)
	if err != nil {
		return nil, err
	}
	kopts := append([]kgo.Opt{
		kgo.SeedBrokers(brokers...),
		kgo.ConsumeTopics(cfg.mcpTopic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(100 * time.Millisecond),
	}, cfg.kgoOpts...)
	cl, err := kgo.NewClient(kopts...)
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	return &Bridge{
		cfg: cfg, cl: cl, codecs: cs,
		ingest: strings.TrimRight(gmsURL, "/") + "/aspects?action=ingestProposal",
		next:   make(map[int32]int64),
	}, nil
}

// Sync applies every message written to the topic before the call, and
// returns how many messages it handled (applied or refused). Messages
// written meanwhile may be applied too. It waits for every partition of the
// topic, so it suits a Bridge that reads them all (no consumer group, or
// the only member of one).
func (b *Bridge) Sync(ctx context.Context) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ends, err := b.endOffsets(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		m, err := b.applyPending(ctx)
		n += m
		if err != nil {
			return n, err
		}
		caughtUp := true
		for p, end := range ends {
			if b.next[p] < end {
				caughtUp = false
			}
		}
		if caughtUp {
			return n, nil
		}
		if err := b.poll(ctx); err != nil {
			return n, err
		}
	}
}

// Run applies messages as they arrive until ctx is done; it then returns
// nil. It returns early only with an error a later call cannot recover
// from.
func (b *Bridge) Run(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if _, err := b.applyPending(ctx); err != nil || ctx.Err() != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if err := b.poll(ctx); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// Close closes the Kafka client.
func (b *Bridge) Close() { b.cl.Close() }

// poll fetches the next messages into b.pending.
func (b *Bridge) poll(ctx context.Context) error {
	fs := b.cl.PollFetches(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, fe := range fs.Errors() {
		if errors.Is(fe.Err, kgo.ErrClientClosed) {
			return fmt.Errorf("kafka: bridge: %w", fe.Err)
		}
		// Other fetch errors are retried by the client.
	}
	fs.EachRecord(func(r *kgo.Record) { b.pending = append(b.pending, r) })
	return nil
}

// applyPending applies the consumed messages in order.
func (b *Bridge) applyPending(ctx context.Context) (int, error) {
	n := 0
	for len(b.pending) > 0 {
		r := b.pending[0]
		a, err := b.apply(ctx, r)
		if err != nil {
			return n, err
		}
		b.pending = b.pending[1:]
		b.next[r.Partition] = r.Offset + 1
		n++
		if b.cfg.onApply != nil {
			b.cfg.onApply(a)
		}
	}
	return n, nil
}

// apply decodes one message and posts its proposal. The error is one that
// must stop the call (ctx done, the registry unreachable); GMS's refusals
// and undecodable messages are reported in the Applied.
func (b *Bridge) apply(ctx context.Context, r *kgo.Record) (Applied, error) {
	a := Applied{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset}
	id, payload, err := unframe(r.Value)
	if err != nil {
		a.Err = err
		return a, nil
	}
	codec, err := b.codecs.byID(ctx, id)
	if err != nil {
		return a, err
	}
	native, _, err := codec.NativeFromBinary(payload)
	if err != nil {
		a.Err = fmt.Errorf("kafka: decode message at %s/%d@%d: %w", r.Topic, r.Partition, r.Offset, err)
		return a, nil
	}
	w, err := wireProposal(native)
	if err != nil {
		a.Err = err
		return a, nil
	}
	a.URN, a.Aspect, a.ChangeType = w.EntityURN, w.AspectName, w.ChangeType
	proposal, err := w.MarshalJSON()
	if err != nil {
		a.Err = err
		return a, nil
	}
	body := make([]byte, 0, len(proposal)+32)
	body = append(body, `{"proposal":`...)
	body = append(body, proposal...)
	body = append(body, `,"async":"false"}`...)
	a.Err, err = b.post(ctx, body)
	return a, err
}

// post sends an ingest request, retrying 429, 5xx and network errors with
// backoff until ctx is done. It returns GMS's refusal of the proposal, or
// the error that stops the call (ctx done, 401, 403).
func (b *Bridge) post(ctx context.Context, body []byte) (refusal, err error) {
	wait := 10 * time.Millisecond
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.ingest, bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("kafka: bridge: %w", err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
		if b.cfg.token != "" {
			req.Header.Set("Authorization", "Bearer "+b.cfg.token)
		}
		resp, err := b.cfg.httpClient.Do(req)
		if err == nil {
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			switch {
			case resp.StatusCode < 300:
				return nil, nil
			case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
				return nil, restError(resp, msg) // every message would fail alike
			case resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500:
				return restError(resp, msg), nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("kafka: bridge: %w", ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, time.Second)
	}
}

// restError returns GMS's refusal as a *datahub.Error, with the message of
// its Rest.li error body.
func restError(resp *http.Response, body []byte) error {
	e := &datahub.Error{StatusCode: resp.StatusCode, Method: resp.Request.Method, URL: datahub.RedactURL(resp.Request.URL.String())}
	var rl struct {
		Message        string `json:"message"`
		ExceptionClass string `json:"exceptionClass"`
	}
	if json.Unmarshal(body, &rl) == nil && rl.Message != "" {
		e.Message, e.ExceptionClass = rl.Message, rl.ExceptionClass
	} else {
		e.Message = strings.TrimSpace(string(body))
	}
	return e
}

// endOffsets returns the end offset of every partition of the topic; a
// topic that does not exist yet has none.
func (b *Bridge) endOffsets(ctx context.Context) (map[int32]int64, error) {
	meta := kmsg.NewPtrMetadataRequest()
	mt := kmsg.NewMetadataRequestTopic()
	mt.Topic = kmsg.StringPtr(b.cfg.mcpTopic)
	meta.Topics = append(meta.Topics, mt)
	mresp, err := meta.RequestWith(ctx, b.cl)
	if err != nil {
		return nil, fmt.Errorf("kafka: bridge: metadata: %w", err)
	}
	lo := kmsg.NewPtrListOffsetsRequest()
	lt := kmsg.NewListOffsetsRequestTopic()
	lt.Topic = b.cfg.mcpTopic
	for _, t := range mresp.Topics {
		if err := kerr.ErrorForCode(t.ErrorCode); err != nil {
			if errors.Is(err, kerr.UnknownTopicOrPartition) {
				return nil, nil
			}
			return nil, fmt.Errorf("kafka: bridge: metadata of %s: %w", b.cfg.mcpTopic, err)
		}
		for _, p := range t.Partitions {
			lp := kmsg.NewListOffsetsRequestTopicPartition()
			lp.Partition = p.Partition
			lp.Timestamp = -1 // the end
			lt.Partitions = append(lt.Partitions, lp)
		}
	}
	if len(lt.Partitions) == 0 {
		return nil, nil
	}
	lo.Topics = append(lo.Topics, lt)
	lresp, err := lo.RequestWith(ctx, b.cl)
	if err != nil {
		return nil, fmt.Errorf("kafka: bridge: list offsets: %w", err)
	}
	ends := make(map[int32]int64)
	for _, t := range lresp.Topics {
		for _, p := range t.Partitions {
			if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
				return nil, fmt.Errorf("kafka: bridge: end offset of %s/%d: %w", t.Topic, p.Partition, err)
			}
			ends[p.Partition] = p.Offset
		}
	}
	return ends, nil
}
