package mockserver

import (
	"net/url"
	"strings"
	"testing"
)

// TestV3WriteSystemMetadataSpelling: an OpenAPI write's systemMetadata
// means the same however it is spelt: with white space, or with a repeated
// member (the last wins), it is stored as its compact form is, through the
// batch and the single-aspect routes alike; one that is no object is
// refused with the same answer.
func TestV3WriteSystemMetadataSpelling(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, compact, spelt string }{
		{"white space", `{"runId":"r1","lastObserved":5,"properties":{"a":"b c"}}`,
			" {\n\t\"runId\" : \"r1\" ,\r\n \"lastObserved\": 5, \"properties\" : { \"a\" : \"b c\" } } "},
		{"repeated member", `{"runId":"r2","lastObserved":6}`,
			`{"runId":"r1", "lastObserved":6,"runId":"r2"}`},
		{"escaped key", `{"runId":"r1","lastObserved":7}`,
			`{"run\u0049d":"r1", "lastObserved":7}`},
		{"not an object", `[1]`, `[ 1 ]`},
		{"string", `"x"`, ` "x" `},
		{"bad lastObserved", `{"lastObserved":"x"}`, `{ "lastObserved" : "x" }`},
	}
	routes := []struct {
		name string
		body func(urn, sm string) (method, path, body string)
	}{
		{"batch", func(urn, sm string) (string, string, string) {
			return "POST", "/openapi/v3/entity/dataset?async=false",
				`[{"urn":"` + urn + `","status":{"value":{"removed":false},"systemMetadata":` + sm + `}}]`
		}},
		{"single aspect", func(urn, sm string) (string, string, string) {
			return "POST", "/openapi/v3/entity/dataset/" + url.PathEscape(urn) + "/status?async=false&createIfNotExists=false",
				`{"value":{"removed":false},"systemMetadata":` + sm + `}`
		}},
	}
	for _, tc := range tests {
		for _, rt := range routes {
			t.Run(tc.name+"/"+rt.name, func(t *testing.T) {
				t.Parallel()
				clock := newFakeClock()
				s := newServer(t, WithClock(clock.Now))
				answer := func(urn, sm string) string {
					method, path, body := rt.body(urn, sm)
					r := serve(t, s, method, path, body)
					got := r.Body
					if r.Status < 300 {
						g := serve(t, s, "GET", "/openapi/v3/entity/dataset/"+url.PathEscape(urn)+"/status?systemMetadata=true", "")
						got = g.Body
					}
					return strings.ReplaceAll(got, urn, "<urn>")
				}
				want := answer(v3DS, tc.compact)
				if got := answer(v3DS2, tc.spelt); got != want {
					t.Errorf("systemMetadata %s:\n got %s\nwant %s (as %s)", tc.spelt, got, want, tc.compact)
				}
			})
		}
	}
}
