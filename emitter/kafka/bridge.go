package kafka

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
)

// Bridge consumes DataHub's proposal topic and applies every proposal to a
// GMS over its REST ingest path, as GMS's own proposal consumer applies
// them: it decodes each message (Confluent wire format, with the schema the
// registry holds under the message's schema id) and sends the proposal
// unchanged with the REST emitter (nothing defaulted or filled in): POST
// {gms}/aspects?action=ingestProposal, the request DataHub's Python REST
// emitter sends, with the emitter's bounded retries and replay rules (a
// CREATE or conditional proposal whose answer was lost is not sent again:
// its outcome is Unknown). A DELETE of an entity's key aspect deletes the
// entity there, as GMS does.
//
// It is meant for tests: point it at an in-process mock server
// (github.com/catalogkit/datahub-go/mockserver) to check a Kafka ingestion
// job end to end without containers, as this package's tests do with
// franz-go's kfake and srfake. Without [WithGroup] it reads the topic from
// its start and keeps its position in memory; with a group it commits the
// offset of every message it handled, so that a Bridge started again with
// the same group resumes after them.
//
// Every message gets an outcome, reported to the WithOnApply function, and
// the Bridge moves on, its offset committed (WithGroup): Written, Rejected
// (GMS refused it, or it cannot be decoded), Unknown (its answer was lost,
// or GMS answered 500 to every attempt: it may have been applied, and a
// poison message does not hold back the next; the Bridge keeps nothing to
// send again, so a caller that must know reads the aspect). Other failures
// stop a call instead, report nothing and keep the message (its offset
// uncommitted) for the next call or the next member of the group: a 401
// or 403 (every proposal would fail alike); GMS unreachable or answering
// 429 or 503 to every attempt (Failed: nothing was applied); the call's
// context ending while the proposal was in flight (Stopped: it may have
// been applied, and is sent again, which an upsert allows; a conditional
// proposal or a CREATE sent again may then be refused by its own
// condition); the context ending before it was sent; a registry failure;
// and fetches from the brokers that failed ten times in a row (each
// failure is logged, see WithLogger, and retried after a wait that grows
// from 10 ms to 1 s). Methods must not be called concurrently.
type Bridge struct {
	cfg     config
	cl      *kgo.Client
	codecs  *codecs
	rest    *emitter.REST
	next    map[int32]int64 // the next offset to apply, per partition
	pending []*kgo.Record   // consumed, not yet applied
	handled []*kgo.Record   // applied, offsets not yet committed (WithGroup)
	// fetchFailures counts the polls in a row that reported fetch errors.
	fetchFailures int
	mu            sync.Mutex
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
	// Status is the outcome: Written, Rejected (refused by GMS, or not
	// decodable) or Unknown (applied or not: its answer was lost, or GMS
	// answered 500 to every attempt). A message stopped by the call's
	// context is not reported: it is applied by the next call.
	Status emitter.Status
	// Err is nil when GMS applied the proposal. Otherwise it is GMS's
	// refusal (a *datahub.Error), the decoding error, or an error matching
	// datahub.ErrOutcomeUnknown.
	Err error
}

// NewBridge returns a Bridge consuming the proposal topic (WithTopic) from
// the Kafka brokers, with the schema registry at schemaRegistryURL, and
// applying proposals to the GMS at gmsURL (such as a mock server's URL).
// Options that apply to a Bridge: WithTopic, WithKgoOptions,
// WithRegistryOptions, WithRESTOptions, WithGroup, WithOnApply,
// WithLogger.
func NewBridge(brokers []string, schemaRegistryURL, gmsURL string, opts ...BridgeOption) (*Bridge, error) {
	cfg := newBridgeConfig(opts)
	switch {
	case len(brokers) == 0:
		return nil, fmt.Errorf("kafka: no brokers: %w", datahub.ErrValidation)
	case schemaRegistryURL == "" || gmsURL == "":
		return nil, fmt.Errorf("kafka: no schema registry or GMS URL: %w", datahub.ErrValidation)
	}
	rest, err := emitter.NewREST(gmsURL, cfg.restOpts...)
	if err != nil {
		return nil, fmt.Errorf("kafka: bridge: %w", err)
	}
	cs, err := newCodecs(schemaRegistryURL, cfg.srOpts)
	if err != nil {
		return nil, err
	}
	kopts := []kgo.Opt{
		kgo.SeedBrokers(brokers...),
		kgo.ConsumeTopics(cfg.mcpTopic),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.FetchMaxWait(100 * time.Millisecond),
	}
	if cfg.group != "" {
		kopts = append(kopts, kgo.ConsumerGroup(cfg.group), kgo.DisableAutoCommit())
	}
	cl, err := kgo.NewClient(append(kopts, cfg.kgoOpts...)...)
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	return &Bridge{cfg: cfg, cl: cl, codecs: cs, rest: rest, next: make(map[int32]int64)}, nil
}

// Sync applies every message written to the topic before the call, and
// returns how many messages it handled (whatever their outcome). Messages
// written meanwhile may be applied too. It waits for every partition of the
// topic, so it suits a Bridge that reads them all (no group, or the only
// member of one).
func (b *Bridge) Sync(ctx context.Context) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	ends, err := b.endOffsets(ctx)
	if err != nil {
		return 0, err
	}
	if err := b.resumeCommitted(ctx, ends); err != nil {
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
// nil, and a message whose proposal was in flight when ctx ended stays
// uncommitted, to be applied by the next call or the next member of the
// group. It returns early with the error that stops a call (see [Bridge]);
// the message it stopped at is applied first by the next call.
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

// Close closes the Kafka client (with WithGroup, after leaving the group;
// the offsets of the messages handled are committed already).
func (b *Bridge) Close() { b.cl.Close() }

// Fetch failures: a poll that reports errors is logged and followed by a
// wait that starts at fetchBackoffMin and doubles up to fetchBackoffMax;
// after maxFetchFailures such polls in a row the call returns the last
// error.
const (
	maxFetchFailures = 10
	fetchBackoffMin  = 10 * time.Millisecond
	fetchBackoffMax  = time.Second
)

// poll fetches the next messages into b.pending. A fetch error is logged
// (WithLogger) and retried after a growing wait; after maxFetchFailures
// polls in a row that failed, poll returns the error.
func (b *Bridge) poll(ctx context.Context) error {
	fs := b.cl.PollFetches(ctx)
	if err := ctx.Err(); err != nil {
		return err
	}
	fs.EachRecord(func(r *kgo.Record) { b.pending = append(b.pending, r) })
	var last error
	for _, fe := range fs.Errors() {
		if errors.Is(fe.Err, kgo.ErrClientClosed) {
			return fmt.Errorf("kafka: bridge: %w", fe.Err)
		}
		last = fmt.Errorf("kafka: bridge: fetch %s/%d: %w", fe.Topic, fe.Partition, fe.Err)
		b.cfg.logger.LogAttrs(ctx, slog.LevelWarn, "kafka: bridge: fetch failed",
			slog.String("topic", fe.Topic), slog.Int("partition", int(fe.Partition)),
			slog.Int("failures", b.fetchFailures+1), slog.String("error", fe.Err.Error()))
	}
	if last == nil {
		b.fetchFailures = 0
		return nil
	}
	b.fetchFailures++
	if b.fetchFailures >= maxFetchFailures {
		n := b.fetchFailures
		b.fetchFailures = 0
		return fmt.Errorf("%w (%d fetches in a row failed)", last, n)
	}
	wait := fetchBackoffMin << min(b.fetchFailures-1, 16)
	t := time.NewTimer(min(wait, fetchBackoffMax))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
	}
	return nil
}

// applyPending applies the consumed messages in order, then commits the
// offsets of those it handled (WithGroup).
func (b *Bridge) applyPending(ctx context.Context) (n int, err error) {
	defer func() {
		if cerr := b.commit(ctx); err == nil {
			err = cerr
		}
	}()
	for len(b.pending) > 0 {
		r := b.pending[0]
		a, err := b.apply(ctx, r)
		if err != nil {
			return n, err
		}
		b.pending = b.pending[1:]
		b.next[r.Partition] = r.Offset + 1
		if b.cfg.group != "" {
			b.handled = append(b.handled, r)
		}
		n++
		if b.cfg.onApply != nil {
			b.cfg.onApply(a)
		}
	}
	return n, nil
}

// commit commits the offsets of the handled messages to the group, even
// when the call's context is done (they were handled).
func (b *Bridge) commit(ctx context.Context) error {
	if len(b.handled) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := b.cl.CommitRecords(ctx, b.handled...); err != nil {
		return fmt.Errorf("kafka: bridge: commit offsets: %w", err)
	}
	b.handled = b.handled[:0]
	return nil
}

// apply decodes one message and sends its proposal. The error is one that
// must stop the call (see Bridge), the message kept; every other outcome
// is reported in the Applied.
func (b *Bridge) apply(ctx context.Context, r *kgo.Record) (Applied, error) {
	a := Applied{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Status: emitter.Rejected}
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
	a.URN, a.Aspect, a.ChangeType = w.EntityURN, w.AspectName, emitter.ChangeType(w.ChangeType)
	err = mcpwire.Emit(ctx, b.rest, w)
	if err == nil {
		a.Status = emitter.Written
		return a, nil
	}
	var be *emitter.BatchError
	if !errors.As(err, &be) || len(be.Results) != 1 {
		return a, fmt.Errorf("kafka: bridge: %w", err)
	}
	a.Status, a.Err = be.Results[0].Status, be.Results[0].Err
	switch {
	case errors.Is(a.Err, datahub.ErrUnauthorized):
		return a, fmt.Errorf("kafka: bridge: %w", a.Err) // every message would fail alike
	case a.Status == emitter.NotAttempted || a.Status == emitter.Failed:
		return a, fmt.Errorf("kafka: bridge: proposal at %s/%d@%d not applied: %w", r.Topic, r.Partition, r.Offset, a.Err)
	case a.Status == emitter.Stopped:
		// The call's owner stopped it while the proposal was in flight:
		// the message stays uncommitted, for the next call (or the next
		// member of the group) to apply.
		return a, fmt.Errorf("kafka: bridge: proposal at %s/%d@%d stopped in flight: %w", r.Topic, r.Partition, r.Offset, a.Err)
	}
	return a, nil
}

// resumeCommitted starts each partition the Bridge has not read yet at the
// group's committed offset (WithGroup), so that Sync knows what is left.
func (b *Bridge) resumeCommitted(ctx context.Context, ends map[int32]int64) error {
	if b.cfg.group == "" || len(ends) == 0 {
		return nil
	}
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = b.cfg.group
	rt := kmsg.NewOffsetFetchRequestTopic()
	rt.Topic = b.cfg.mcpTopic
	for p := range ends {
		rt.Partitions = append(rt.Partitions, p)
	}
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, b.cl)
	if err != nil {
		return fmt.Errorf("kafka: bridge: committed offsets: %w", err)
	}
	if err := kerr.ErrorForCode(resp.ErrorCode); errors.Is(err, kerr.GroupIDNotFound) {
		return nil // nothing committed yet
	} else if err != nil {
		return fmt.Errorf("kafka: bridge: committed offsets of group %s: %w", b.cfg.group, err)
	}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			if _, seen := b.next[p.Partition]; !seen && p.Offset > 0 {
				b.next[p.Partition] = p.Offset
			}
		}
	}
	return nil
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
