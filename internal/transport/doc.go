// Package transport is the HTTP layer shared by the SDK's REST callers (the
// emitter today, the aspect-read and GraphQL client later).
//
// A [Client] sends requests to one DataHub GMS with go-retryablehttp's retry
// loop (run by [Client.Send] itself on plain *http.Request values, through
// go-retryablehttp for [Client.StandardClient]):
//
//   - the base URL may be a GMS root (http://gms:8080) or a front end's proxy
//     path ({base}/api/gms); [NormalizeBaseURL] checks it and strips trailing
//     slashes;
//   - every request carries the standard headers (see [Client.Header]):
//     X-RestLi-Protocol-Version 2.0.0, Content-Type and Accept
//     application/json, Authorization Bearer when a token is set, a
//     User-Agent naming this SDK ([UserAgent]), then the caller's extra
//     headers, which override the others;
//   - failed attempts are retried as the datahub.RetryPolicy of the
//     settings says (default: 429, 500, 502, 503, 504 and network errors,
//     POST included, after capped, jittered exponential waits that honour
//     Retry-After up to a cap); waits end as soon as the context is done;
//     a [Request] marked NoReplay is replayed only after an attempt that
//     provably did not apply it, and a write (POST, PUT, DELETE, PATCH)
//     that may have been applied without an answer (its headers went out,
//     as an httptrace hook tells) fails with an error matching
//     datahub.ErrOutcomeUnknown; a read or a request never sent does not;
//   - each attempt (connect, send, read the answer) is bounded by the
//     settings' timeout with net/http's client timeout's errors, enforced
//     for Send by one timer per Client that cancels the attempts past their
//     deadline rather than by a timer and a context per request; a
//     caller's deadline that comes first wins;
//   - an answer that is not 2xx becomes a [*datahub.Error] filled from the
//     Rest.li error body ([DecodeError]); the stack trace is dropped, the body
//     is read through an [io.LimitReader] and URLs are redacted.
//
// [Settings] turns datahub options into the settings [New] takes.
// [Client.Send] is the REST call ([Client.Do] its short form);
// [Client.StandardClient] wraps the same headers and retries in an
// *http.Client for libraries that take one ([NoReplayContext] marks its
// requests that must not be replayed).
//
// Bodies are []byte so that a retry replays them without copying or
// re-encoding. Nothing is logged unless a [*slog.Logger] is configured, and
// headers (so the token) are never logged.
package transport
