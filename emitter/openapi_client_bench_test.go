package emitter_test

import (
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// BenchmarkEmitBatchedClientOpenAPI is BenchmarkEmitBatchedClient through
// OpenAPI v3: the emitter's own cost of a batched Emit of 200 proposals
// (one batch POST), its request dropped by the transport without a
// network.
func BenchmarkEmitBatchedClientOpenAPI(b *testing.B) {
	emitBatchedClient(b, datahub.WithEndpoint(datahub.EndpointOpenAPI))
}
