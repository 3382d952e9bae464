package client

import (
	"testing"

	"github.com/catalogkit/datahub-go/internal/testshared"
)

// TestSuiteOverOpenAPI runs this package's tests again with the client
// talking OpenAPI v3 to the mock (datahub.WithEndpoint(EndpointOpenAPI) in
// newTestClient): the same end-to-end suite in both modes, the requests
// counted and failed under each mode's operations (opWrite, ...).
func TestSuiteOverOpenAPI(t *testing.T) {
	t.Parallel()
	testshared.RunOverOpenAPI(t, ".", "")
}
