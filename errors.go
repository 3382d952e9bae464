package datahub

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/catalogkit/datahub-go/internal/errs"
)

// Sentinel errors that callers match with [errors.Is]. An [*Error] matches the
// sentinel of its status code; code in this module that fails before a request
// is sent (a bad URN, an aspect the entity does not allow) wraps
// [ErrValidation] so that both cases read the same.
var (
	// ErrNotFound reports HTTP 404: the entity, aspect or version does not exist.
	ErrNotFound = errs.ErrNotFound
	// ErrUnauthorized reports HTTP 401 (no or bad token) or 403 (the token's
	// actor lacks a privilege).
	ErrUnauthorized = errs.ErrUnauthorized
	// ErrPreconditionFailed reports a conditional write (If-Version-Match)
	// that found another version than it expected: HTTP 412, or the 422
	// that DataHub's Rest.li path answers for the same failure, recognised
	// by its message "Expected version X, actual version Y".
	ErrPreconditionFailed = errs.ErrPreconditionFailed
	// ErrPayloadTooLarge reports HTTP 413, or a request this SDK refused to
	// send because it is larger than the configured limit.
	ErrPayloadTooLarge = errs.ErrPayloadTooLarge
	// ErrValidation reports HTTP 400 or 422: the server refused the input
	// (bad URN, unknown aspect, aspect JSON that does not match its schema).
	ErrValidation = errs.ErrValidation
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
	// stopped by its caller matches [ErrStopped] as well.
	ErrOutcomeUnknown = errs.ErrOutcomeUnknown
	// ErrStopped reports a write stopped by its caller: the context given to
	// the call was cancelled or passed its deadline after the write was sent
	// and before its outcome was known (while it was in flight, while a
	// retry waited, or while the SDK waited for an accepted write to be
	// applied). The write may or may not have been applied, so the error
	// matches ErrOutcomeUnknown and the context's error too. Unlike an
	// answer lost, nothing went wrong with the server: whoever owns the
	// work (a consumer's uncommitted offset, a queue) keeps it to do again.
	ErrStopped = errs.ErrStopped
	// ErrAlreadyExists reports a create that found what it would create:
	// HTTP 409, or DataHub's refusal of changeType CREATE ("Cannot perform
	// CREATE since the aspect already exists.") or CREATE_ENTITY ("Cannot
	// perform CREATE_ENTITY if not exists since the entity key already
	// exists."), a 422 over Rest.li or a 400 over OpenAPI, which also match
	// ErrValidation.
	ErrAlreadyExists = errs.ErrAlreadyExists
)

// Error is a failed request: the HTTP status and what the server said about it.
// DataHub's Rest.li endpoints answer errors with a JSON body whose message and
// exception class are copied here; the stack trace is dropped.
type Error struct {
	// StatusCode is the HTTP status code of the response.
	StatusCode int
	// Message is the server's message, or the status text when it sent none.
	Message string
	// ExceptionClass is the Java exception class named by a Rest.li error body,
	// such as "com.linkedin.restli.server.RestLiServiceException".
	ExceptionClass string
	// Method is the HTTP method of the request.
	Method string
	// URL is the request URL with user info and query values that may carry
	// secrets removed (see [RedactURL]).
	URL string
	// Header is the response's header: Retry-After, request ids a
	// support case needs, and whatever else the server or a proxy sent.
	Header http.Header
}

// Error formats the failure as "datahub: METHOD URL: STATUS: message".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("datahub: ")
	if e.Method != "" || e.URL != "" {
		b.WriteString(strings.TrimSpace(e.Method + " " + e.URL))
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%d", e.StatusCode)
	if text := http.StatusText(e.StatusCode); text != "" {
		b.WriteString(" " + text)
	}
	if e.Message != "" && e.Message != http.StatusText(e.StatusCode) {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// Is reports whether target is the sentinel error for e's status code, so that
// errors.Is(err, ErrNotFound) holds for a 404.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrNotFound:
		return e.StatusCode == http.StatusNotFound
	case ErrUnauthorized:
		return e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden
	case ErrPreconditionFailed:
		return e.StatusCode == http.StatusPreconditionFailed || e.versionMismatch()
	case ErrPayloadTooLarge:
		return e.StatusCode == http.StatusRequestEntityTooLarge
	case ErrAlreadyExists:
		return e.StatusCode == http.StatusConflict ||
			(e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity) && strings.Contains(e.Message, "Cannot perform CREATE")
	case ErrValidation:
		return (e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity) && !e.versionMismatch()
	}
	return false
}

// versionMismatch reports whether e is DataHub's Rest.li answer to a failed
// If-Version-Match: a 422 whose message carries ConditionalWriteValidator's
// "Expected version X, actual version Y". Over OpenAPI the same failure is a
// 412; callers see ErrPreconditionFailed for both.
func (e *Error) versionMismatch() bool {
	return e.StatusCode == http.StatusUnprocessableEntity && strings.Contains(e.Message, "Expected version ")
}

// secretParams are query parameter names whose values RedactURL hides.
var secretParams = []string{"token", "access_token", "api_key", "apikey", "key", "password", "secret", "signature", "sig"}

// RedactURL returns raw with its user info removed and the values of query
// parameters that commonly carry credentials replaced by "REDACTED", for use in
// errors and logs. A string that does not parse as a URL is returned with
// everything after the first '?' dropped and anything before an '@' in its
// authority (the user info) removed.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexByte(raw, '?'); i >= 0 {
			raw = raw[:i]
		}
		return stripUserInfo(raw)
	}
	if u.Opaque != "" && strings.Contains(u.Opaque, "@") {
		// "user:password@host" without "//" parses with the user name as
		// its scheme and the password in the opaque part.
		return stripUserInfo(strings.SplitN(raw, "?", 2)[0])
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		changed := false
		for name := range q {
			for _, s := range secretParams {
				if strings.EqualFold(name, s) {
					q.Set(name, "REDACTED")
					changed = true
				}
			}
		}
		if changed {
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// stripUserInfo removes "user:password@" from the authority of a URL-like
// string that url.Parse refused: from after "//" (or the start, when there is
// no scheme) up to the last '@' before the path.
func stripUserInfo(raw string) string {
	start := 0
	if i := strings.Index(raw, "//"); i >= 0 {
		start = i + 2
	}
	end := len(raw)
	if i := strings.IndexByte(raw[start:], '/'); i >= 0 {
		end = start + i
	}
	if at := strings.LastIndexByte(raw[start:end], '@'); at >= 0 {
		return raw[:start] + raw[start+at+1:]
	}
	return raw
}
