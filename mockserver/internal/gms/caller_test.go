package gms_test

import (
	"encoding/base64"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// dataHubToken is a token of the shape of DataHub's, whose claims name
// actorID (its signature is not one).
func dataHubToken(actorID string) string {
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(`{"alg":"HS256"}`)) + "." +
		enc.EncodeToString([]byte(`{"actorType":"USER","actorId":"`+actorID+`","type":"PERSONAL","version":"2"}`)) + ".c2ln"
}

// TestAuthenticate: the actor of a request as GMS's authentication gives
// it, with authentication on (configured tokens) and off.
func TestAuthenticate(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	issued, err := c.CreateAccessToken(t.Context(), gms.AccessTokenRequest{Type: "PERSONAL", ActorURN: "urn:li:corpuser:alice",
		Duration: "ONE_HOUR", Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	jwt := dataHubToken("bob")
	on := []string{"plain", jwt}
	tests := []struct {
		name  string
		cr    gms.Credentials
		actor string // "": refused
	}{
		{"off: no header", gms.Credentials{}, gms.DefaultActor},
		{"off: bearer ignored", gms.Credentials{Authorization: "Bearer " + jwt}, gms.DefaultActor},
		{"off: actor header", gms.Credentials{ActorHeader: "urn:li:corpuser:jdoe"}, "urn:li:corpuser:jdoe"},
		{"off: actor header of another type names a user", gms.Credentials{ActorHeader: "urn:li:corpGroup:eng"}, "urn:li:corpuser:eng"},
		{"off: actor header not a URN", gms.Credentials{ActorHeader: "jdoe"}, ""},
		{"off: actor header without id", gms.Credentials{ActorHeader: "urn:li:corpuser:"}, ""},
		{"on: plain configured token", gms.Credentials{Tokens: on, Authorization: "Bearer plain"}, gms.RootActor},
		{"on: DataHub token configured", gms.Credentials{Tokens: on, Authorization: "Bearer " + jwt}, "urn:li:corpuser:bob"},
		{"on: issued token", gms.Credentials{Tokens: on, Authorization: "Bearer " + issued.Token}, "urn:li:corpuser:alice"},
		{"on: DataHub token not configured nor issued", gms.Credentials{Tokens: on, Authorization: "Bearer " + dataHubToken("eve")}, ""},
		{"on: no token", gms.Credentials{Tokens: on}, ""},
		{"on: actor header is no credential", gms.Credentials{Tokens: on, ActorHeader: "urn:li:corpuser:jdoe"}, ""},
		{"on: basic", gms.Credentials{Tokens: on, Authorization: "Basic plain"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			actor, ok := c.Authenticate(t.Context(), tc.cr)
			if ok != (tc.actor != "") || actor != tc.actor {
				t.Errorf("Authenticate = %q, %v; want %q, %v", actor, ok, tc.actor, tc.actor != "")
			}
		})
	}
}

// TestCaller: a context carries its caller; none is the system actor's.
func TestCaller(t *testing.T) {
	t.Parallel()
	if got := gms.ActorOf(t.Context()); got != gms.DefaultActor {
		t.Errorf("ActorOf(no caller) = %q", got)
	}
	k := gms.Caller{Actor: "urn:li:corpuser:jdoe", API: gms.APIOpenAPI, SourceIP: "::1", TraceID: "abc"}
	ctx := gms.WithCaller(t.Context(), k)
	if got := gms.CallerOf(ctx); got != k {
		t.Errorf("CallerOf = %+v", got)
	}
	if got := gms.ActorOf(ctx); got != k.Actor {
		t.Errorf("ActorOf = %q", got)
	}
}
