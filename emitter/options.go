package emitter

import (
	"github.com/catalogkit/datahub-go/internal/config"
)

// Defaults of a REST emitter, as DataHub's Python emitter has them.
const (
	// DefaultMaxBatchSize is the most proposals one ingestProposalBatch
	// request carries (DataHub's BATCH_INGEST_MAX_PAYLOAD_LENGTH).
	DefaultMaxBatchSize = 200
	// DefaultMaxBatchBytes is the largest request body sent, 15 MiB
	// (DataHub's INGEST_MAX_PAYLOAD_BYTES; GMS refuses bodies over
	// 16,000,000 bytes).
	DefaultMaxBatchBytes = 15 << 20
)

// Option configures a [REST] emitter; [NewREST] takes them. The options of
// this package (WithEmitMode, WithMaxBatchSize,
// WithMaxBatchBytes, WithIsolateRejected) are Options, and so is every
// shared datahub.Option (token, headers, HTTP client, timeout, retry
// policy, logger, endpoint), so one list mixes both. An option of package
// client is not an Option: giving one to NewREST does not compile, nor
// does giving an emitter option to client.New. A nil Option is ignored.
type Option interface{ emitterOption }

// emitterOption is unexported so that only this module's options satisfy
// Option.
type emitterOption = config.EmitterOption

// WithMaxBatchSize sets the most proposals one ingestProposalBatch request
// carries (default DefaultMaxBatchSize; values below 1 mean 1).
func WithMaxBatchSize(n int) Option {
	return config.EmitterOnly(func(s *config.Settings) {
		s.Emitter.MaxBatchSize = max(n, 1)
	})
}

// WithMaxBatchBytes sets the largest request body the emitter sends
// (default DefaultMaxBatchBytes; 0 or less restores it). Lower it when a
// proxy in front of GMS limits bodies further (nginx defaults to 1 MiB). A
// proposal that does not fit alone is refused with a *TooLargeError before
// anything is sent.
func WithMaxBatchBytes(n int) Option {
	return config.EmitterOnly(func(s *config.Settings) {
		s.Emitter.MaxBatchBytes = max(n, 0)
	})
}

// WithIsolateRejected sets what Emit does when the server refuses a batch
// request as a whole with 400, 412, 413 or 422, which in DataHub means one
// of its proposals (or its size) is at fault and none was written. With
// true (the default) Emit splits the request in halves and sends them
// again, down to single proposals, so that the proposals at fault are
// reported with the server's own error and the others are written. With
// false every proposal of the request is reported Rejected with the
// batch's error. Either way Emit goes on with the next request.
func WithIsolateRejected(isolate bool) Option {
	return config.EmitterOnly(func(s *config.Settings) {
		s.Emitter.IsolateRejected = &isolate
	})
}
