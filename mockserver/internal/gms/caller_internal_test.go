package gms

import (
	"encoding/json"
	"testing"
)

// BenchmarkCallerTelemetry is the telemetry a traced request's write gets
// added to its systemMetadata, as the Python emitter spells one.
func BenchmarkCallerTelemetry(b *testing.B) {
	k := Caller{Actor: "urn:li:corpuser:datahub", API: APIOpenAPI, SourceIP: "10.0.0.1", TraceID: "0006475ef64cf3405c5cd84938252c43"}
	sm := json.RawMessage(`{"lastObserved":1618987484580,"runId":"no-run-id-provided","properties":{"clientId":"acryl-datahub","clientVersion":"1!0.0.0.dev0"}}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = k.telemetry(sm)
	}
}

// TestCallerTelemetry: the properties a traced request's write gets, as
// withTraceId adds them: kept when the write brings a telemetryTraceId,
// nothing for an untraced request or a systemMetadata that is no object.
func TestCallerTelemetry(t *testing.T) {
	t.Parallel()
	k := Caller{API: APIOpenAPI, SourceIP: "10.0.0.1, \"x\"", TraceID: "abc"}
	props := `"eventSource":"OPENAPI","sourceIP":"10.0.0.1, \"x\"","telemetryTraceId":"abc"`
	tests := []struct{ name, in, want string }{
		{"none", ``, `{"properties":{` + props + `}}`},
		{"null", `null`, `{"properties":{` + props + `}}`},
		{"no properties", `{"runId":"r", "lastObserved": 5}`, `{"runId":"r","lastObserved":5,"properties":{` + props + `}}`},
		{"properties", `{"properties":{"clientId":"c"},"runId":"r"}`, `{"runId":"r","properties":{"clientId":"c",` + props + `}}`},
		{"null properties", `{"properties":null}`, `{"properties":{` + props + `}}`},
		{"repeated properties: the last", `{"properties":{"a":"1"},"properties":{"b":"2"}}`, `{"properties":{"b":"2",` + props + `}}`},
		{"escaped key", `{"run\u0049d":"r","properties":{"k\"ey":"v"}}`, `{"runId":"r","properties":{"eventSource":"OPENAPI","k\"ey":"v","sourceIP":"10.0.0.1, \"x\"","telemetryTraceId":"abc"}}`},
		{"own trace id kept", `{"properties":{"telemetryTraceId":"mine"}}`, `{"properties":{"telemetryTraceId":"mine"}}`},
		{"not an object", `[1]`, `[1]`},
		{"properties not an object", `{"properties":[1]}`, `{"properties":[1]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := k.telemetry(json.RawMessage(tc.in))
			if string(got) != tc.want {
				t.Errorf("telemetry(%s) = %s, want %s", tc.in, got, tc.want)
			}
			if len(got) > 0 && !json.Valid(got) {
				t.Errorf("not JSON: %s", got)
			}
		})
	}
	if got := (Caller{Actor: "urn:li:corpuser:x"}).telemetry(json.RawMessage(`{"a":1}`)); string(got) != `{"a":1}` {
		t.Errorf("untraced: %s", got)
	}
}

// TestAppendStringNoHTML pins the stored properties' strings to Jackson's
// way: HTML characters as they are, also beside non-ASCII text (the
// properties once went through json.Marshal then, which escapes them).
func TestAppendStringNoHTML(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]string{"<a&b>": `"<a&b>"`, "<é>": `"<é>"`, "q\"\n": `"q\"\n"`} {
		if got := string(appendString(nil, s)); got != want {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}
