package emitter_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/internal/testshared"
)

// restliOnly are the tests about Rest.li's own requests, left out of the
// run over OpenAPI: proposals named by key aspect alone (OpenAPI names
// entities by URN and refuses them, see TestOpenAPIKeepsMeaning), the
// /entities?action=delete request, ingestProposal and ingestProposalBatch
// counts, and CREATE in a batch (OpenAPI sends a CREATE alone).
const restliOnly = `^(TestKeyAspectProposal|TestDeleteEntity|TestBatchSplitting|TestNoReplayOfAppliedConditionalWrite)$`

// TestSuiteOverOpenAPI runs this package's tests again with the emitter
// writing through OpenAPI v3 to the mock (datahub.WithEndpoint in
// newREST): the same end-to-end suite in both modes, the requests counted
// and failed under each mode's operations (opWrite, opBatchWrite).
//
// It is not parallel: the child runs before this process's parallel tests,
// so that the two runs do not load the machine at once.
func TestSuiteOverOpenAPI(t *testing.T) {
	testshared.RunOverOpenAPI(t, ".", restliOnly)
}
