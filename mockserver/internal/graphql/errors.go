package graphql

import (
	"encoding/json"
	"net/http"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// gqlError is a resolver error in DataHub's shape
// (DataHubGraphQLError: extensions code, type and classification); its type
// is errorTypes[code].
type gqlError struct {
	msg  string
	code int
}

func (e *gqlError) Error() string { return e.msg }

// Extensions are the error's extensions as DataHub sends them.
func (e *gqlError) Extensions() map[string]any {
	return map[string]any{"code": e.code, "type": errorTypes[e.code], "classification": "DataFetchingException"}
}

// DataHub's error codes (DataHubGraphQLErrorCode).
func badRequest(msg string) *gqlError  { return &gqlError{msg, 400} }
func serverError(msg string) *gqlError { return &gqlError{msg, 500} }

// fromCore maps a core error to DataHub's GraphQL error: an argument or
// validation refusal is DataHub's IllegalArgumentException (400), a missing
// thing 404, anything else (an unsupported resource, a failure) 500.
func fromCore(err error) *gqlError {
	e := gms.AsError(err)
	msg := e.Message
	if msg == "" {
		msg = "An unknown error occurred."
	}
	switch e.Kind {
	case gms.Invalid, gms.BadArgument, gms.UnknownEntity, gms.UnknownAspect, gms.PreconditionFailed, gms.TooLarge:
		return badRequest(msg)
	case gms.NotFound:
		return &gqlError{msg, 404}
	case gms.Conflict:
		return &gqlError{msg, 409}
	case gms.Unauthorized:
		return &gqlError{msg, 403}
	}
	return serverError(msg)
}

// The mock's texts of the GraphQL reads (updateDescription's are the
// core's).
const (
	msgWrongEntityType = "Failed to load %s: %s is not a %s urn (datahub-mock)"
	msgMapAspect       = gms.MsgMapAspect
)

// The texts of the request limits (see MaxDepth): graphql-java's for depth
// and complexity, the mock's own for the limits DataHub does not have.
const (
	msgDepthLimit      = "maximum query depth exceeded: deeper than %d"
	msgComplexityLimit = "maximum query complexity exceeded: more than %d fields"
	msgSearchLimit     = "query too expensive: more than %d search or lineage fields (datahub-mock)"
	msgOverlapLimit    = "query too complex: validating its repeated fields takes more than %d comparisons (datahub-mock)"
	msgLengthLimit     = "query length %d exceeds the maximum of %d bytes (datahub-mock)"
)

// ErrorCodes are DataHub's GraphQL error codes (DataHubGraphQLErrorCode).
var ErrorCodes = []int{400, 403, 404, 409, 500}

// errorTypes are the types of ErrorCodes.
var errorTypes = map[int]string{400: "BAD_REQUEST", 403: "UNAUTHORIZED", 404: "NOT_FOUND", 409: "CONFLICT", 500: "SERVER_ERROR"}

// WriteError answers HTTP 200 with one GraphQL error of message and code
// (one of ErrorCodes) in DataHub's shape, and data null, as a request that
// failed before any field was resolved.
func WriteError(w http.ResponseWriter, code int, message string) {
	body, _ := json.Marshal(map[string]any{
		"errors": []any{map[string]any{"message": message, "extensions": (&gqlError{message, code}).Extensions()}},
		"data":   nil, "extensions": map[string]any{},
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
