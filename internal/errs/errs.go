// Package errs holds the SDK's sentinel errors in a package that imports
// nothing but the standard library's errors, so that the model packages
// (urn, aspects, entity, fieldpath) can wrap them without pulling in the
// HTTP client. Package datahub re-exports each one under the same name;
// errors.Is matches either, since they are the same values.
package errs

import "errors"

// Sentinel errors that callers match with errors.Is. A datahub.Error matches the
// sentinel of its status code; code in this module that fails before a request
// is sent (a bad URN, an aspect the entity does not allow) wraps
// [ErrValidation] so that both cases read the same.
var (
	// ErrNotFound reports HTTP 404: the entity, aspect or version does not exist.
	ErrNotFound = errors.New("datahub: not found")
	// ErrUnauthorized reports HTTP 401 (no or bad token) or 403 (the token's
	// actor lacks a privilege).
	ErrUnauthorized = errors.New("datahub: unauthorized")
	// ErrPreconditionFailed reports a conditional write (If-Version-Match)
	// that found another version than it expected: HTTP 412, or the 422
	// that DataHub's Rest.li path answers for the same failure, recognised
	// by its message "Expected version X, actual version Y".
	ErrPreconditionFailed = errors.New("datahub: precondition failed")
	// ErrPayloadTooLarge reports HTTP 413, or a request this SDK refused to
	// send because it is larger than the configured limit.
	ErrPayloadTooLarge = errors.New("datahub: payload too large")
	// ErrValidation reports HTTP 400 or 422: the server refused the input
	// (bad URN, unknown aspect, aspect JSON that does not match its schema).
	ErrValidation = errors.New("datahub: validation failed")
	// ErrOutcomeUnknown reports a write (POST, PUT, DELETE, PATCH) that may
	// or may not have been applied: its request headers went out but its
	// answer was lost (the connection dropped, an attempt timed out, the
	// context ended while it was in flight, a 500, 502 or 504) and it was
	// not, or could not be, sent again. A read, or a request that was never
	// sent (its context done before, a connection that could not be made),
	// never matches it. A conditional write (If-Version-Match,
	// If-None-Match, If-Modified-Since, If-Unmodified-Since) or a CREATE is
	// never replayed after such a failure, since a replay of an applied
	// write would fail its own condition; read the aspect to learn what
	// happened.
	//
	// Two causes are told apart: an answer lost (the server, the network or
	// an attempt's own timeout) matches ErrOutcomeUnknown alone; a write
	// stopped by its caller matches ErrStopped as well.
	ErrOutcomeUnknown = errors.New("datahub: outcome unknown")
	// ErrStopped reports a write stopped by its caller: the context given to
	// the call was cancelled or passed its deadline after the write was sent
	// and before its outcome was known. It matches ErrOutcomeUnknown and the
	// context's error too (see datahub.ErrStopped).
	ErrStopped = errors.New("datahub: stopped by its caller")
	// ErrAlreadyExists reports a create that found what it would create:
	// HTTP 409, or DataHub's refusal of changeType CREATE ("Cannot perform
	// CREATE since the aspect already exists.") or CREATE_ENTITY ("Cannot
	// perform CREATE_ENTITY if not exists since the entity key already
	// exists."), a 422 over Rest.li or a 400 over OpenAPI, which also match
	// ErrValidation.
	ErrAlreadyExists = errors.New("datahub: already exists")
)
