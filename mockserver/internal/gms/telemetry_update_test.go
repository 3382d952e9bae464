package gms

import "testing"

// TestUpdateTelemetry pins how an update takes the telemetry properties of
// the write onto the stored properties: sorted keys, compact values, the
// last of a repeated key, nothing without a telemetryTraceId.
func TestUpdateTelemetry(t *testing.T) {
	for _, c := range []struct{ prev, props, want string }{
		{"", `{"telemetryTraceId":"t","eventSource":"OPENAPI","sourceIP":"1.2.3.4","clientId":"x"}`,
			`{"eventSource":"OPENAPI","sourceIP":"1.2.3.4","telemetryTraceId":"t"}`},
		{"null", `{"telemetryTraceId":"t"}`, `{"telemetryTraceId":"t"}`},
		{`{"z": 1, "a":"b","telemetryTraceId":"old","sourceIP":"9"}`, ` {"telemetryTraceId": "new"} `,
			`{"a":"b","sourceIP":"9","telemetryTraceId":"new","z":1}`},
		{`{"a":1,"a":[ 2, 3 ]}`, `{"telemetryTraceId":"t","telemetryTraceId":"u"}`, `{"a":[2,3],"telemetryTraceId":"u"}`},
		{`{"a":1}`, `{"clientId":"telemetryTraceId"}`, ""},
		{`{"a":1}`, `{"eventSource":"OPENAPI"}`, ""},
		{`[1]`, `{"telemetryTraceId":"t"}`, ""},
		{`{"a":1}`, `{"telemetryTraceId":`, ""},
	} {
		got, ok := updateTelemetry([]byte(c.prev), []byte(c.props))
		if ok != (c.want != "") || string(got) != c.want {
			t.Errorf("updateTelemetry(%s, %s) = %s, %v; want %s", c.prev, c.props, got, ok, c.want)
		}
	}
}
