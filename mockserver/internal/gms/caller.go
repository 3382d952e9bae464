package gms

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Who sends a request and through which API, as GMS's authentication
// filters (AuthenticationExtractionFilter with NoOpAuthenticator or the
// token authenticator, then AuthenticationEnforcementFilter), its
// RequestContext and the OpenTelemetry context of its tracing interceptor
// know them; and what a write stamps with them.

// The request APIs GMS writes as a write's properties.eventSource
// (RequestContext.RequestAPI).
const (
	APIOpenAPI = "OPENAPI"
	APIRestli  = "RESTLI"
	APIGraphQL = "GRAPHQL"
)

// RootActor is the actor of a configured token that names none: DataHub's
// root user, the one a quickstart's first token belongs to.
const RootActor = "urn:li:corpuser:datahub"

// The systemMetadata properties GMS adds from a request's tracing context
// (SystemTelemetryContext).
const (
	PropTelemetryTraceID = "telemetryTraceId"
	PropEventSource      = "eventSource"
	PropSourceIP         = "sourceIP"
)

// Caller is who sends a request: the actor it writes as, and, for a
// request of a route GMS traces (its Spring routes: OpenAPI and GraphQL,
// not the Rest.li servlet), the API, the client address and the trace id
// its writes record in systemMetadata.properties.
type Caller struct {
	// Actor is the URN of the authenticated actor; "" is [DefaultActor].
	Actor string
	// API is [APIOpenAPI], [APIGraphQL] or [APIRestli].
	API string
	// SourceIP is the X-Forwarded-For header, else the client's address.
	SourceIP string
	// TraceID is the request's trace id (32 hex digits), "" for a request
	// without a trace span: its writes then get no telemetry properties.
	TraceID string
}

type callerKey struct{}

// WithCaller returns ctx carrying c, for the core's writes under ctx.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerOf returns the Caller ctx carries (the zero Caller when none: a
// write of the system actor without telemetry).
func CallerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}

// ActorOf is the actor of ctx's caller, [DefaultActor] when none.
func ActorOf(ctx context.Context) string {
	if a := CallerOf(ctx).Actor; a != "" {
		return a
	}
	return DefaultActor
}

// Credentials are what a request brings to GMS's authentication.
type Credentials struct {
	// Tokens are the server's configured tokens; none turns authentication
	// off (METADATA_SERVICE_AUTH_ENABLED=false).
	Tokens []string
	// Authorization is the Authorization header.
	Authorization string
	// ActorHeader is the legacy X-DataHub-Actor header.
	ActorHeader string
}

// Authenticate returns the actor of a request as GMS's authentication
// decides it, and false when GMS answers 401:
//
//   - with authentication on (configured tokens), the request needs
//     "Authorization: Bearer T": for a configured token, the actor its
//     claims name when it is a DataHub token (actorId), else [RootActor];
//     for an access token createAccessToken issued, neither revoked nor
//     expired, its actor; X-DataHub-Actor is ignored;
//   - with authentication off, the Authorization header is ignored and the
//     actor is urn:li:corpuser:<id> for the URN X-DataHub-Actor names (a
//     value that is not a URN is refused as an anonymous request is), or
//     [DefaultActor] without the header.
func (c *Core) Authenticate(ctx context.Context, cr Credentials) (string, bool) {
	if len(cr.Tokens) == 0 {
		if cr.ActorHeader == "" {
			return DefaultActor, true
		}
		id, ok := urnID(cr.ActorHeader)
		if !ok {
			return "", false
		}
		return "urn:li:corpuser:" + id, true
	}
	token, ok := strings.CutPrefix(cr.Authorization, "Bearer ")
	if !ok {
		return "", false
	}
	match := 0
	for _, t := range cr.Tokens {
		match |= subtle.ConstantTimeCompare([]byte(token), []byte(t))
	}
	if match == 1 {
		if a, ok := tokenActor(token); ok {
			return a, true
		}
		return RootActor, true
	}
	if !c.AccessTokenValid(ctx, token) {
		return "", false
	}
	info, err := c.latestObject(ctx, AccessTokenURN(token), "dataHubAccessTokenInfo")
	if a, ok := info["actorUrn"].(string); err == nil && ok && a != "" {
		return a, true
	}
	if a, ok := tokenActor(token); ok {
		return a, true
	}
	return RootActor, true
}

// urnID is Urn.createFromString(s).getId(): the text after "urn:", a
// namespace and an entity type, each non-empty.
func urnID(s string) (string, bool) {
	rest, ok := strings.CutPrefix(s, "urn:")
	if !ok {
		return "", false
	}
	parts := strings.SplitN(rest, ":", 3)
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", false
	}
	return parts[2], true
}

// tokenActor is the actor a DataHub token's claims name (a JWT whose
// claims carry actorId), as DataHub's token authenticator reads it; the
// signature is not checked.
func tokenActor(token string) (string, bool) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return "", false
	}
	body, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return "", false
	}
	var claims struct {
		ActorID string `json:"actorId"`
	}
	if json.Unmarshal(body, &claims) != nil || claims.ActorID == "" {
		return "", false
	}
	return "urn:li:corpuser:" + claims.ActorID, true
}

// telemetry returns sm, a write's systemMetadata (nil or a JSON object),
// with what GMS's SystemTelemetryContext.withTraceId adds to a write
// received in a traced request: properties telemetryTraceId, eventSource
// and sourceIP, unless its properties already have a telemetryTraceId. A
// write outside a traced request, or whose systemMetadata or properties
// is no object (refused later), is returned as it is. The members are
// split without decoding their values (the properties written with their
// keys sorted), and the result is compact when sm is.
func (k Caller) telemetry(sm json.RawMessage) json.RawMessage {
	if k.TraceID == "" {
		return sm
	}
	return newTelemetryText(k).stamp(sm)
}

// telemetryGeneral is telemetry for any sm (of a traced caller): each
// object split into its members.
func (k Caller) telemetryGeneral(sm json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(sm)
	var ms, props []jsonx.Member
	if len(t) != 0 && string(t) != "null" {
		var ok bool
		if ms, ok = jsonx.ObjectMembers(t); !ok {
			return sm
		}
	}
	for _, m := range ms { // the last properties member wins, as in a DataMap
		if m.Key != "properties" {
			continue
		}
		props = nil
		if v := bytes.TrimSpace(m.Value); string(v) != "null" {
			var ok bool
			if props, ok = jsonx.ObjectMembers(v); !ok {
				return sm
			}
		}
	}
	for _, m := range props {
		if m.Key == PropTelemetryTraceID {
			return sm
		}
	}
	props = append(props, jsonx.Member{Key: PropTelemetryTraceID, Value: appendString(nil, k.TraceID)},
		jsonx.Member{Key: PropSourceIP, Value: appendString(nil, k.SourceIP)})
	if k.API != "" {
		props = append(props, jsonx.Member{Key: PropEventSource, Value: appendString(nil, k.API)})
	}
	slices.SortStableFunc(props, func(a, b jsonx.Member) int { return strings.Compare(a.Key, b.Key) })
	b := make([]byte, 0, len(t)+160)
	b = append(b, '{')
	for _, m := range ms {
		if m.Key != "properties" {
			b = appendMember(b, m)
			b = append(b, ',')
		}
	}
	b = append(b, `"properties":{`...)
	for i, m := range props {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendMember(b, m)
	}
	return append(b, "}}"...)
}

// appendMember appends m as "key":value to b.
func appendMember(b []byte, m jsonx.Member) []byte {
	b = appendString(b, m.Key)
	b = append(b, ':')
	return append(b, bytes.TrimSpace(m.Value)...)
}

// appendString appends s as a JSON string to b, as Jackson writes the
// stored properties: HTML characters as they are.
func appendString(b []byte, s string) []byte { return jsonesc.AppendString(b, s) }

// telemetryKeys are the properties an update takes from the write
// (withTraceId forced on the stored systemMetadata).
var telemetryKeys = []string{PropTelemetryTraceID, PropEventSource, PropSourceIP}

// updateTelemetry returns prev, the properties of the stored
// systemMetadata (nil when none), with the telemetry properties of props,
// the write's, when these have a telemetryTraceId, as GMS's AspectDao
// forces them on the latest row of an update (the write's other
// properties are not taken over); false when props has none.
func updateTelemetry(prev, props []byte) ([]byte, bool) {
	// The memo first: it only holds texts with a telemetryTraceId, and
	// comparing the write's properties with them is cheaper than looking
	// for the key in them.
	if m := lastTelemetryUpdate.Load(); m != nil && bytes.Equal(m.props, props) && bytes.Equal(m.prev, prev) {
		return m.out, true
	}
	if !bytes.Contains(props, []byte(PropTelemetryTraceID)) {
		return nil, false
	}
	out, traced, ok := updateTelemetryQuick(prev, props)
	if !ok {
		return updateTelemetryGeneral(prev, props)
	}
	if traced {
		lastTelemetryUpdate.Store(newTelemetryMemo(prev, props, out))
		out = out[:len(out):len(out)]
	}
	return out, traced
}

// updateTelemetryGeneral is updateTelemetry for any texts: each object
// split into its members.
func updateTelemetryGeneral(prev, props []byte) ([]byte, bool) {
	if !bytes.Contains(props, []byte(PropTelemetryTraceID)) {
		return nil, false
	}
	in, ok := jsonx.ObjectMembers(bytes.TrimSpace(props))
	if !ok {
		return nil, false
	}
	var out []jsonx.Member
	if p := bytes.TrimSpace(prev); len(p) != 0 && string(p) != "null" {
		ms, ok := jsonx.ObjectMembers(p)
		if !ok {
			return nil, false
		}
		out = make([]jsonx.Member, 0, len(ms)+len(telemetryKeys))
		for _, m := range ms {
			out = putMember(out, m) // the last of a repeated key wins, as in a DataMap
		}
	}
	traced := false
	for _, m := range in {
		if slices.Contains(telemetryKeys, m.Key) {
			traced = traced || m.Key == PropTelemetryTraceID
			out = putMember(out, m)
		}
	}
	if !traced {
		return nil, false
	}
	slices.SortFunc(out, func(a, b jsonx.Member) int { return strings.Compare(a.Key, b.Key) })
	b := append(make([]byte, 0, len(prev)+len(props)), '{')
	for i, m := range out {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, m.Key)
		b = append(b, ':')
		b = append(b, jsonx.CompactShared(bytes.TrimSpace(m.Value))...)
	}
	return append(b, '}'), true
}

// putMember sets m in ms: it replaces the member of the same key, else it
// is appended.
func putMember(ms []jsonx.Member, m jsonx.Member) []jsonx.Member {
	for i := range ms {
		if ms[i].Key == m.Key {
			ms[i].Value = m.Value
			return ms
		}
	}
	return append(ms, m)
}

// stampCaller gives each write of a request its caller: the actor (kept
// when the write names one), and for a versioned aspect of a traced
// request the telemetry properties (see Caller.telemetry). What GMS then
// stamps with the actor, aspectModified and aspectCreated, and the rows'
// createdBy, is Rules.Received's and Rules.First's.
func stampCaller(k Caller, ws []store.Write) {
	if k.Actor == "" && k.TraceID == "" {
		return
	}
	var t *telemetryText // the caller's properties, written once for ws
	if k.TraceID != "" {
		t = newTelemetryText(k)
	}
	for i := range ws {
		w := &ws[i]
		if w.Actor == "" {
			w.Actor = k.Actor
		}
		if t != nil && !w.Timeseries && !w.DeleteEntity {
			w.SystemMetadata = t.stamp(w.SystemMetadata)
		}
	}
}
