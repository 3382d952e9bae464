package kafka

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/linkedin/goavro/v2"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
)

// ErrClosed is returned for proposals emitted after Close.
var ErrClosed = errors.New("kafka: emitter closed")

// Emitter writes metadata change proposals to DataHub's proposal topic in
// Avro, as DataHub's Python DatahubKafkaEmitter does. It is safe for
// concurrent use.
type Emitter struct {
	cfg     config
	cl      *kgo.Client
	codecs  *codecs
	subject string

	schemaMu sync.Mutex // guards id and codec, resolved on first use
	id       int
	codec    *goavro.Codec

	closeMu sync.RWMutex // held for reading while producing
	closed  bool
}

// Ack reports what became of one proposal handed to the producer.
type Ack struct {
	// URN and Aspect name the proposal; URN is the message key.
	URN, Aspect string
	// ChangeType is the proposal's change type.
	ChangeType emitter.ChangeType
	// Topic, Partition and Offset locate the message once acknowledged.
	Topic     string
	Partition int32
	Offset    int64
	// Err is nil when the brokers acknowledged the message.
	Err error
}

// New returns an Emitter producing to the Kafka brokers (host:port seed
// addresses) with the schema registry at schemaRegistryURL. The producer
// is idempotent and waits for all in-sync replicas, so a message retried
// after a lost answer is written once; the message key is the entity URN,
// so the proposals of one entity stay in order in one partition. New does
// not contact the brokers or the registry; the schema is registered (or
// looked up) on the first Emit. It fails, wrapping datahub.ErrValidation,
// without brokers, registry URL or topic.
func New(brokers []string, schemaRegistryURL string, opts ...EmitterOption) (*Emitter, error) {
	cfg := newEmitterConfig(opts)
	switch {
	case len(brokers) == 0:
		return nil, fmt.Errorf("kafka: no brokers: %w", datahub.ErrValidation)
	case schemaRegistryURL == "":
		return nil, fmt.Errorf("kafka: no schema registry URL: %w", datahub.ErrValidation)
	case cfg.mcpTopic == "":
		return nil, fmt.Errorf("kafka: empty topic name: %w", datahub.ErrValidation)
	}
	cs, err := newCodecs(schemaRegistryURL, cfg.srOpts)
	if err != nil {
		return nil, err
	}
	kopts := append([]kgo.Opt{
		kgo.SeedBrokers(brokers...),
		kgo.DefaultProduceTopic(cfg.mcpTopic),
		kgo.RequiredAcks(kgo.AllISRAcks()),
	}, cfg.kgoOpts...)
	cl, err := kgo.NewClient(kopts...)
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	return &Emitter{cfg: cfg, cl: cl, codecs: cs, subject: cfg.mcpTopic + "-value"}, nil
}

// Topic returns the topic proposals are written to.
func (e *Emitter) Topic() string { return e.cfg.mcpTopic }

// MCETopic returns the configured topic of metadata change events (see
// WithMCETopic).
func (e *Emitter) MCETopic() string { return e.cfg.mceTopic }

// Client returns the underlying franz-go client, for metrics and admin
// requests. Producing through it bypasses the Emitter's bookkeeping.
func (e *Emitter) Client() *kgo.Client { return e.cl }

// SchemaID returns the registry id of the schema proposals are written
// with, registering or looking it up on first use.
func (e *Emitter) SchemaID(ctx context.Context) (int, error) {
	id, _, err := e.schema(ctx)
	return id, err
}

func (e *Emitter) schema(ctx context.Context) (int, *goavro.Codec, error) {
	e.schemaMu.Lock()
	defer e.schemaMu.Unlock()
	if e.codec != nil {
		return e.id, e.codec, nil
	}
	id, codec, err := e.codecs.writer(ctx, e.subject, e.cfg.autoRegister, e.cfg.schemaID)
	if err != nil {
		return 0, nil, err
	}
	e.id, e.codec = id, codec
	return id, codec, nil
}

// Encode returns the message value of p in Confluent's wire format (the
// magic byte 0, the schema id as 4 bytes big-endian, the Avro binary
// encoding of the proposal) as Emit would produce it now. It fails,
// wrapping datahub.ErrValidation, for a proposal Emit would refuse.
func (e *Emitter) Encode(ctx context.Context, p emitter.Proposal) ([]byte, error) {
	id, codec, err := e.schema(ctx)
	if err != nil {
		return nil, err
	}
	rec, _, err := e.record(codec, id, p)
	if err != nil {
		return nil, err
	}
	return rec.Value, nil
}

// record encodes p as a message keyed by its URN (no key without one).
func (e *Emitter) record(codec *goavro.Codec, id int, p emitter.Proposal) (*kgo.Record, mcpwire.Proposal, error) {
	w, err := mcpwire.FromProposal(&p, e.cfg.now())
	if err != nil {
		return nil, w, err
	}
	value, err := encode(codec, id, &w)
	if err != nil {
		return nil, w, fmt.Errorf("kafka: encode %s %s: %w: %w", w.EntityURN, w.AspectName, datahub.ErrValidation, err)
	}
	rec := &kgo.Record{Value: value, Topic: e.cfg.mcpTopic}
	if w.EntityURN != "" { // a proposal naming its entity by key aspect only has no key, as in Python
		rec.Key = []byte(w.EntityURN)
	}
	return rec, w, nil
}

// Emit writes proposals to the topic and returns once the brokers have
// acknowledged all of them, or failed. It returns nil when every proposal
// was acknowledged; otherwise an *emitter.BatchError whose Results give the
// outcome of each, as the REST emitter's do: Written (acknowledged),
// Rejected (invalid, so not sent, or refused by the brokers for good, such
// as a message too large), Unknown (no acknowledgement: the brokers
// unreachable after franz-go's retries, so maybe written; the error
// matches datahub.ErrOutcomeUnknown), Stopped (ctx ended after the record
// was sent and before its acknowledgement, so maybe written; the error
// matches datahub.ErrStopped, datahub.ErrOutcomeUnknown and ctx's error),
// or NotAttempted (ctx was done before the record was sent, the schema
// could not be resolved, or the Emitter is closed). The Emitter keeps
// nothing to send again: a record still in flight when Emit returns is
// reported to the WithOnAck function when it ends. The proposals of one
// entity are written in the order given.
func (e *Emitter) Emit(ctx context.Context, ps ...emitter.Proposal) error {
	if len(ps) == 0 {
		return nil
	}
	results := make([]emitter.Result, len(ps))
	for i := range ps {
		results[i] = emitter.Result{Index: i, URN: urnOf(&ps[i]), Aspect: aspectOf(&ps[i]), Status: emitter.NotAttempted}
	}
	e.closeMu.RLock()
	defer e.closeMu.RUnlock()
	if e.closed {
		return notAttempted(results, ErrClosed)
	}
	if err := ctx.Err(); err != nil {
		return notAttempted(results, err)
	}
	id, codec, err := e.schema(ctx)
	if err != nil {
		return notAttempted(results, err)
	}
	// The producer's callbacks fill results until Emit returns; once ctx
	// is done Emit stops waiting, reports what is still unacknowledged as
	// Stopped (an idempotent producer cannot fail a record it has sent
	// until the brokers answer, so with brokers that drop every request a
	// record can stay in flight indefinitely), and later callbacks only
	// reach the WithOnAck function.
	var (
		mu       sync.Mutex
		pending  = 1 // the loop below, so done closes only after it
		returned bool
		done     = make(chan struct{})
	)
	for i, p := range ps {
		rec, w, err := e.record(codec, id, p)
		if err != nil {
			results[i].Status, results[i].Err = emitter.Rejected, err
			continue
		}
		mu.Lock()
		pending++
		mu.Unlock()
		e.cl.Produce(ctx, rec, func(r *kgo.Record, err error) {
			e.ack(r, &w, err, nil) // before Emit returns, unless ctx ended first
			mu.Lock()
			if !returned {
				results[i].Status, results[i].Err = outcome(err)
				if pending--; pending == 0 {
					close(done)
				}
			}
			mu.Unlock()
		})
	}
	mu.Lock()
	if pending--; pending == 0 {
		close(done)
	}
	mu.Unlock()
	select {
	case <-done:
	case <-ctx.Done():
		mu.Lock()
		returned = true
		for i := range results {
			if results[i].Status == emitter.NotAttempted && results[i].Err == nil {
				results[i].Status = emitter.Stopped
				results[i].Err = fmt.Errorf("%w: %w: no acknowledgement before the context ended: %w", datahub.ErrStopped, datahub.ErrOutcomeUnknown, ctx.Err())
			}
		}
		mu.Unlock()
	}
	for _, r := range results {
		if r.Status != emitter.Written {
			return &emitter.BatchError{Results: results}
		}
	}
	return nil
}

// EmitAsync hands p to the producer and returns without waiting: done (if
// not nil) and the WithOnAck function are called once the brokers
// acknowledged the message or it failed. It returns an error, without
// calling done, when p is invalid (wrapping datahub.ErrValidation), the
// schema cannot be resolved, or the Emitter is closed. It blocks while the
// producer's buffer is full, until ctx is done. Flush waits for every
// proposal handed over before it.
func (e *Emitter) EmitAsync(ctx context.Context, p emitter.Proposal, done func(Ack)) error {
	e.closeMu.RLock()
	defer e.closeMu.RUnlock()
	if e.closed {
		return ErrClosed
	}
	id, codec, err := e.schema(ctx)
	if err != nil {
		return err
	}
	rec, w, err := e.record(codec, id, p)
	if err != nil {
		return err
	}
	e.cl.Produce(ctx, rec, func(r *kgo.Record, err error) { e.ack(r, &w, err, done) })
	return nil
}

// ack reports the outcome of one message to done and the WithOnAck
// function.
func (e *Emitter) ack(r *kgo.Record, w *mcpwire.Proposal, err error, done func(Ack)) {
	if e.cfg.onAck == nil && done == nil {
		return
	}
	a := Ack{URN: w.EntityURN, Aspect: w.AspectName, ChangeType: emitter.ChangeType(w.ChangeType), Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Err: err}
	if err != nil {
		a.Partition, a.Offset = -1, -1
	}
	if done != nil {
		done(a)
	}
	if e.cfg.onAck != nil {
		e.cfg.onAck(a)
	}
}

// Flush waits until every proposal handed to the producer so far has been
// acknowledged or has failed, or ctx is done.
func (e *Emitter) Flush(ctx context.Context) error {
	if err := e.cl.Flush(ctx); err != nil {
		return fmt.Errorf("kafka: flush: %w", err)
	}
	return nil
}

// Close waits for running Emit calls, flushes every buffered proposal (until
// ctx is done) and closes the client; later Emits fail with ErrClosed.
// Proposals still unacknowledged when ctx is done fail, and their
// callbacks say so. Close may be called more than once.
func (e *Emitter) Close(ctx context.Context) error {
	e.closeMu.Lock()
	defer e.closeMu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	err := e.Flush(ctx)
	e.cl.Close()
	return err
}

// status classifies a produce error.
// outcome is the status of one produced record and its error: Rejected when
// the brokers refused it for good, Unknown when no acknowledgement came (the
// record may have been appended: franz-go gave up, or ctx ended, after it
// was sent), with an error matching datahub.ErrOutcomeUnknown.
func outcome(err error) (emitter.Status, error) {
	var ke *kerr.Error
	switch {
	case err == nil:
		return emitter.Written, nil
	case errors.As(err, &ke) && !ke.Retriable:
		return emitter.Rejected, err
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		// franz-go fails a record with its context's error only while the
		// record has not been sent in a produce request.
		return emitter.NotAttempted, err
	}
	return emitter.Unknown, fmt.Errorf("%w: %w", datahub.ErrOutcomeUnknown, err)
}

// notAttempted marks every result NotAttempted with err.
func notAttempted(results []emitter.Result, err error) error {
	for i := range results {
		results[i].Status, results[i].Err = emitter.NotAttempted, err
	}
	return &emitter.BatchError{Results: results}
}

func urnOf(p *emitter.Proposal) string {
	if p.URN == nil {
		return ""
	}
	return p.URN.String()
}

func aspectOf(p *emitter.Proposal) string {
	if p.AspectName != "" || p.Aspect == nil {
		return p.AspectName
	}
	if v := reflect.ValueOf(p.Aspect); v.Kind() == reflect.Pointer && v.IsNil() {
		return ""
	}
	return p.Aspect.AspectName()
}
