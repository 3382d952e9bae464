package conformance_test

// mockSkips lists the steps of DataHub's fixtures that the mock does not
// pass, each with the reason. TestMock fails when a listed step passes, so
// the list holds only what still differs.
var mockSkips = map[string]string{
	"v3/entities.json[9]": "systemMetadata stamps the mock does not make: GMS sets aspectCreated/aspectModified only for a non-system actor, and DataHub's CI writes with a token of urn:li:corpuser:datahub while the mock attributes no write to a token's actor (it writes as the system actor, as GMS with authentication off does); and GMS adds properties.eventSource (OPENAPI), sourceIP and telemetryTraceId from its OpenTelemetry request context, which the mock does not carry into the core",
}
