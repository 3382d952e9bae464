package client

import (
	"testing"

	"github.com/catalogkit/datahub-go/internal/testshared"
)

// restliOnly are the tests about Rest.li's own requests, left out of the
// run over OpenAPI (none today: TestEntitiesCreateExisting checks each
// path's requests).
const restliOnly = ""

// TestSuiteOverOpenAPI runs this package's tests again with the client
// talking OpenAPI v3 to the mock (datahub.WithEndpoint(EndpointOpenAPI) in
// newTestClient): the same end-to-end suite in both modes, the requests
// counted and failed under each mode's operations (opWrite, ...).
//
// It is not parallel: the child runs before this process's parallel tests,
// so that the two runs do not load the machine at once.
func TestSuiteOverOpenAPI(t *testing.T) {
	testshared.RunOverOpenAPI(t, ".", restliOnly)
}
