// Package kafka emits DataHub metadata change proposals through Kafka, as
// DataHub's Python DatahubKafkaEmitter and Java KafkaEmitter do: each
// proposal is a message on the MetadataChangeProposal_v1 topic, keyed by
// the entity URN, its value DataHub's MetadataChangeProposal record in Avro
// in Confluent's wire format, and GMS's consumers apply it. That is how an
// ingestion job scales past what one GMS's REST endpoint accepts.
//
// It is a Go module of its own (github.com/catalogkit/datahub-go/emitter/kafka),
// so that users of the SDK who do not use Kafka do not download its
// dependencies: franz-go (the producer, kgo), franz-go's pkg/sr (the schema
// registry client) and github.com/linkedin/goavro/v2 (Avro). goavro was
// chosen over github.com/hamba/avro, which is faster, because hamba/avro
// was archived in January 2026 with open decoder advisories; goavro is
// maintained and needs only golang/snappy.
//
// # Emitting
//
// [New] takes the brokers and the schema registry URL:
//
//	em, err := kafka.New([]string{"broker:9092"}, "http://registry:8081",
//		kafka.WithKgoOptions(kgo.DialTLSConfig(tlsCfg), kgo.SASL(plain.Auth{User: u, Pass: p}.AsMechanism())))
//	defer em.Close(ctx)
//	err = em.Emit(ctx, proposals...)
//
// It takes the same [emitter.Proposal] values as the REST emitter and
// encodes them the same way: the aspect's JSON
// text as DataHub's Python SDK writes it, system metadata filled alike.
// [Emitter.Emit] returns once the brokers acknowledged every proposal, or
// an *emitter.BatchError with the outcome of each; [Emitter.EmitAsync]
// returns at once and reports to a callback, [Emitter.Flush] waits for
// what was handed over and [Emitter.Close] flushes before closing.
//
// The producer is idempotent and waits for all in-sync replicas
// (franz-go's defaults, kept): a produce request retried after a lost
// answer is written once, and the proposals of one entity keep their order
// in its partition. TLS, SASL, batching and timeouts are franz-go options
// passed through [WithKgoOptions]; registry credentials go through
// [WithRegistryOptions].
//
// # Schema
//
// The value schema is [MCPSchema], DataHub's current MetadataChangeProposal
// record translated to Avro by DataHub's Pegasus-to-Avro rules (see its
// documentation). By default it is registered on first use under the
// subject "<topic>-value"; with [WithAutoRegister](false) the subject's
// latest schema is used, or with [WithSchemaID] a given registered schema.
// Messages are encoded with the schema their id names: MCPSchema by a
// hand-written encoder (deterministic: map entries in key order, and about
// 5 µs a proposal), cross-checked against goavro in the tests; any other
// version of the record by goavro.
//
// # Testing without containers
//
// [Bridge] consumes the topic and applies each proposal to a GMS over its
// REST ingest path, as GMS's own consumer applies them. With franz-go's
// in-process fake cluster (pkg/kfake), its fake registry (pkg/sr/srfake)
// and the SDK's mock GMS (mockserver), a test emits through Kafka and reads
// the result back from the mock; see the package example and
// examples/mlcatalog.
//
// # Differences from DataHub's Python Kafka emitter
//
//   - Metadata change events (MCEs, snapshots) are not emitted; the MCE
//     topic name is configurable ([WithMCETopic]) for configuration parity
//     only.
//   - Emit waits for acknowledgements and reports per proposal; Python's
//     emit is asynchronous with a callback, which [Emitter.EmitAsync] is.
//   - A Delete must be of the entity's key aspect, as over REST.
package kafka
