package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// This file holds every error text the mock answers with, in one place, as
// miniredis keeps Redis's. The texts marked "DataHub" are the ones GMS
// (datahub-project/datahub) or Rest.li send;
// the texts marked "mock" exist only here and say so.

// Exception classes named in Rest.li error bodies.
const (
	classServiceException = "com.linkedin.restli.server.RestLiServiceException"
	classRouting          = "com.linkedin.restli.server.RoutingException"
	classNotFound         = "com.linkedin.metadata.restli.NonExceptionHttpErrorResponse"
)

// DataHub's own texts (validation, conditional writes, ...) live in the
// core: mockserver/internal/gms/messages.go.

// Rest.li: routing and parameter decoding (RestLiRouter, data validation).
const (
	msgNoRootResource     = "No root resource defined for path '%s'"
	msgActionNotSupported = "%s operation named %s not supported on resource '%s' URI: '%s'"
	msgActionNotPost      = "All action methods (specified via 'action' in URI) must be submitted as a POST (was %s)"
	msgMethodNotSupported = "%s operation not supported for URI: '%s' with X-RestLi-Method: '%s'"
	msgParamsInvalid      = "Parameters of method '%s' failed validation with error '%s'"
	msgParamRequired      = "ERROR :: %s :: field is required but not found and has no default value"
	msgParamUnknown       = "ERROR :: %s :: unrecognized field found but not allowed"
	msgParamType          = "ERROR :: %s :: %s cannot be coerced to %s"
	msgParamEnum          = "ERROR :: %s :: \"%s\" is not an enum symbol"
	msgParamBytes         = "ERROR :: %s :: \"%s\" is not a valid string representation of bytes"
	msgBadBody            = wire.MsgBadBody
)

// DataHub's authentication filter (AuthenticationEnforcementFilter) calls
// response.sendError(401, "Unauthorized to perform this action."); GMS does
// not include error messages in servlet error bodies, so the text never
// reaches the client and the mock's 401 body (writeUnauthorized) has none.

// Mock: behaviour this mock does not have, or limits it adds.
const (
	msgActionUnsupported = "%s /%s?action=%s is a DataHub action that this mock (datahub-mock) does not implement yet"
	msgMethodUnsupported = "%s %s is a DataHub method that this mock (datahub-mock) does not implement yet"
	msgBodyTooLarge      = wire.MsgBodyTooLarge
	msgAspectParam       = "The aspect query parameter is required (datahub-mock)"
	msgVersionParam      = "ERROR :: /version :: %q cannot be coerced to Long"
	msgClosed            = "The mock server is closed (datahub-mock)"
	msgStore             = "datahub-mock store: %v"
	msgControlRoute      = "No control route %s %s (datahub-mock)"
	msgTimeseriesFilter  = "Filters with criteria and sort orders of getTimeseriesAspectValues are not supported by this mock (datahub-mock)"
	msgEncode            = "datahub-mock: encoding the answer: %v"
	msgConfigMethod      = "Method %s is not allowed on /config"
	msgBadKey            = "Invalid key %q: %v"
	msgInjected          = "Injected fault (datahub-mock): %d %s"
)

// restliError is an error answered with Rest.li's error body.
type restliError struct {
	status int
	// message is the exception message; "" omits the field, as Rest.li does
	// for exceptions without one.
	message string
	class   string
}

// Error returns the message, for logs.
func (e *restliError) Error() string {
	return fmt.Sprintf("%d %s", e.status, e.message)
}

// errorf returns a RestLiServiceException with the formatted message.
func errorf(status int, format string, args ...any) *restliError {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &restliError{status: status, message: msg, class: classServiceException}
}

// routingError returns a RoutingException with the formatted message.
func routingError(status int, format string, args ...any) *restliError {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = abbreviate(s)
		}
	}
	return &restliError{status: status, message: fmt.Sprintf(format, args...), class: classRouting}
}

// notFound is GMS's answer for a missing aspect or entity: a 404 without a
// message (RestliUtils.nonExceptionResourceNotFound).
func notFound() *restliError {
	return &restliError{status: http.StatusNotFound, class: classNotFound}
}

// restliErrorBody is the JSON body of a Rest.li error (ErrorResponse.pdl).
type restliErrorBody struct {
	ExceptionClass string `json:"exceptionClass"`
	StackTrace     string `json:"stackTrace"`
	Message        string `json:"message,omitempty"`
	Status         int    `json:"status"`
}

// writeRestliError answers e as Rest.li does: header
// X-RestLi-Error-Response: true and a JSON body whose stack trace starts with
// the exception's toString.
func writeRestliError(w http.ResponseWriter, e *restliError, retryAfter string) {
	trace := e.class + " [HTTP Status:" + strconv.Itoa(e.status) + "]"
	if e.message != "" {
		trace += ": " + e.message
	}
	trace += "\n\tat datahub-mock"
	body, _ := json.Marshal(restliErrorBody{
		ExceptionClass: e.class,
		StackTrace:     trace,
		Message:        e.message,
		Status:         e.status,
	})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-RestLi-Error-Response", "true")
	h.Set("X-RestLi-Protocol-Version", "2.0.0")
	if retryAfter != "" {
		h.Set("Retry-After", retryAfter)
	}
	w.WriteHeader(e.status)
	_, _ = w.Write(body)
}

// servletErrorBody is what GMS's servlet container (Spring Boot) answers for
// response.sendError when messages are not included: no Rest.li header.
type servletErrorBody struct {
	Timestamp string `json:"timestamp"`
	Status    int    `json:"status"`
	Error     string `json:"error"`
	Path      string `json:"path"`
}

// readOps are the operations served by GMS's read resources, which refuse
// unknown entity and aspect names with an IllegalArgumentException (400)
// where the write path's validation answers 422.
var readOps = map[Op]bool{OpGetAspect: true, OpGetEntity: true, OpGetTimeseries: true, OpGetCount: true}

// restliStatus is the Rest.li status of a core error kind for op.
func restliStatus(k gms.Kind, op Op) int {
	switch k {
	case gms.BadArgument:
		return http.StatusBadRequest
	case gms.UnknownEntity, gms.UnknownAspect:
		if readOps[op] {
			return http.StatusBadRequest
		}
		return http.StatusUnprocessableEntity
	case gms.NotFound:
		return http.StatusNotFound
	case gms.PreconditionFailed:
		return http.StatusPreconditionFailed
	case gms.Invalid, gms.Conflict:
		return http.StatusUnprocessableEntity
	case gms.TooLarge:
		return http.StatusRequestEntityTooLarge
	case gms.Unauthorized:
		return http.StatusUnauthorized
	case gms.Unsupported:
		return http.StatusNotImplemented
	}
	return http.StatusInternalServerError
}

// fromCore maps an error of the core to its Rest.li answer for op: a
// message-less NotFound is GMS's NonExceptionHttpErrorResponse 404.
func fromCore(err error, op Op) *restliError {
	var re *restliError
	if errors.As(err, &re) {
		return re
	}
	e := gms.AsError(err)
	if e.Kind == gms.NotFound && e.Message == "" {
		return notFound()
	}
	return &restliError{status: restliStatus(e.Kind, op), message: e.Message, class: classServiceException}
}

// apiError turns a refusal into the error type SDK callers match.
func apiError(e *restliError) error {
	return &datahub.Error{StatusCode: e.status, Message: e.message, ExceptionClass: e.class}
}
