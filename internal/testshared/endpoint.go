package testshared

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// EnvEndpoint names the endpoint a test process runs its end-to-end suites
// over: "OPENAPI" makes the emitter's and the client's test helpers talk
// OpenAPI v3; unset, Rest.li. [RunOverOpenAPI] sets it for a child
// process, so that one suite runs in both modes without a copy.
const EnvEndpoint = "DATAHUB_GO_TEST_ENDPOINT"

// EndpointOption returns the option of the endpoint EnvEndpoint names (the
// zero Option, which does nothing, for Rest.li), for a test helper to put
// before its caller's.
func EndpointOption() datahub.Option {
	if OverOpenAPI() {
		return datahub.WithEndpoint(datahub.EndpointOpenAPI)
	}
	return datahub.Option{}
}

// OverOpenAPI reports whether this process runs the suites over OpenAPI.
func OverOpenAPI() bool { return strings.EqualFold(os.Getenv(EnvEndpoint), "OPENAPI") }

// RunOverOpenAPI runs the tests of this package matching pattern (but not
// skip, when it is not "") again in a child process of the test binary
// with EnvEndpoint=OPENAPI, and fails tb with the child's output when any
// fails. In the child itself it does nothing (the suite is the child's).
func RunOverOpenAPI(tb testing.TB, pattern, skip string) {
	tb.Helper()
	if OverOpenAPI() {
		return
	}
	args := []string{"-test.run", pattern, "-test.count", "1"}
	if skip != "" {
		args = append(args, "-test.skip", skip)
	}
	if testing.Short() {
		args = append(args, "-test.short")
	}
	cmd := exec.CommandContext(tb.Context(), os.Args[0], args...)
	cmd.Env = append(os.Environ(), EnvEndpoint+"=OPENAPI")
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("the suite over OpenAPI (%s=OPENAPI, -test.run %s) failed: %v\n%s", EnvEndpoint, pattern, err, out)
	}
}
