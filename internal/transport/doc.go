// Package transport is the HTTP layer shared by the SDK's REST callers (the
// emitter today, the aspect-read and GraphQL client later).
//
// A [Client] sends requests to one DataHub GMS through go-retryablehttp:
//
//   - the base URL may be a GMS root (http://gms:8080) or a front end's proxy
//     path ({base}/api/gms); [NormalizeBaseURL] checks it and strips trailing
//     slashes;
//   - every request carries the standard headers (see [Client.Header]):
//     X-RestLi-Protocol-Version 2.0.0, Content-Type and Accept
//     application/json, Authorization Bearer when a token is set, a
//     User-Agent naming this SDK ([UserAgent]), then the caller's extra
//     headers, which override the others;
//   - failed attempts are retried by [CheckRetry] (429, 500, 502, 503, 504
//     and network errors, POST included, never another 4xx) after a capped,
//     jittered exponential wait ([RetryPolicy.Wait]) that honours
//     Retry-After up to a cap; waits end as soon as the context is done;
//   - an answer that is not 2xx becomes a [*datahub.Error] filled from the
//     Rest.li error body ([DecodeError]); the stack trace is dropped, the body
//     is read through an [io.LimitReader] and URLs are redacted.
//
// [Client.Do] is the REST call; [Client.StandardClient] wraps the same
// headers and retries in an *http.Client for libraries that take one.
//
// Bodies are []byte so that a retry replays them without copying or
// re-encoding. Nothing is logged unless a [*slog.Logger] is configured, and
// headers (so the token) are never logged.
package transport
