package gms_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestPropertyDefinitionChecks: DataHub's PropertyDefinitionValidator
// refuses breaking changes of a structured property definition unless its
// version grows, renames, spaces, a bad version and changes to a
// soft-deleted property (failed before: every definition was stored).
func TestPropertyDefinitionChecks(t *testing.T) {
	t.Parallel()
	const prop = "urn:li:structuredProperty:retention"
	c := mutCore(t)
	write := func(u, aspect, value string) error {
		return c.Ingest(t.Context(), []gms.Proposal{{EntityType: gms.EntityTypeOf(u), EntityURN: u, ChangeType: "UPSERT",
			AspectName: aspect, Aspect: json.RawMessage(value), ContentType: "application/json"}}, gms.IngestOptions{})
	}
	def := func(extra string) string {
		return `{"qualifiedName":"retention","valueType":"urn:li:dataType:datahub.string","entityTypes":["urn:li:entityType:datahub.dataset"]` + extra + `}`
	}
	invalid := func(msgs string) string {
		return "ValidationExceptionCollection{EntityAspect:(" + prop + ", propertyDefinition) Exceptions: [" + msgs + "]}"
	}
	if err := write(prop, "propertyDefinition", def(`,"cardinality":"MULTIPLE","allowedValues":[{"value":{"string":"30d"}},{"value":{"string":"90d"}}]`)); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, value, want string }{
		{"value type", def(`,"valueType":"urn:li:dataType:datahub.number","cardinality":"MULTIPLE","allowedValues":[{"value":{"string":"30d"}},{"value":{"string":"90d"}}]`), invalid(gms.MsgDefValueType)},
		{"to single", def(`,"allowedValues":[{"value":{"string":"30d"}},{"value":{"string":"90d"}}]`), invalid(gms.MsgDefCardinality)},
		{"restrict", def(`,"cardinality":"MULTIPLE","allowedValues":[{"value":{"string":"30d"}}]`), invalid(gms.MsgDefRestrict)},
		{"rename", `{"qualifiedName":"keep","valueType":"urn:li:dataType:datahub.string","entityTypes":[],"cardinality":"MULTIPLE"}`, invalid(gms.MsgDefRename)},
		{"bad version", def(`,"version":"1","cardinality":"MULTIPLE"`), invalid(gms.MsgDefVersionFormat)},
		{"allowed types", def(`,"cardinality":"MULTIPLE","typeQualifier":{"allowedTypes":["urn:li:corpuser:x"]}`), invalid("Provided allowedType that is not an entityType entity. List of allowedTypes: [urn:li:corpuser:x]")},
	} {
		refused(t, write(prop, "propertyDefinition", tc.value), gms.Invalid, tc.want)
	}
	// More allowed values, and a breaking change with a growing version, pass.
	if err := write(prop, "propertyDefinition", def(`,"cardinality":"MULTIPLE","allowedValues":[{"value":{"string":"30d"}},{"value":{"string":"90d"}},{"value":{"string":"1y"}}]`)); err != nil {
		t.Fatal(err)
	}
	if err := write(prop, "propertyDefinition", def(`,"version":"20250101000000","allowedValues":[{"value":{"string":"1y"}}]`)); err != nil {
		t.Fatal(err)
	}
	refused(t, write(prop, "propertyDefinition", def(`,"version":"20240101000000","valueType":"urn:li:dataType:datahub.number"`)), gms.Invalid, invalid(gms.MsgDefValueType))
	refused(t, write("urn:li:structuredProperty:a b", "propertyDefinition", `{"qualifiedName":"a b","valueType":"urn:li:dataType:datahub.string","entityTypes":[]}`),
		gms.Invalid, "ValidationExceptionCollection{EntityAspect:(urn:li:structuredProperty:a b, propertyDefinition) Exceptions: ["+gms.MsgDefURNSpaces+", "+gms.MsgDefNameSpaces+"]}")
	if err := write(prop, "status", `{"removed":true}`); err != nil {
		t.Fatal(err)
	}
	refused(t, write(prop, "propertyDefinition", def(`,"version":"20250101000000","allowedValues":[{"value":{"string":"1y"}}]`)), gms.Invalid, invalid(gms.MsgDefSoftDeleted))
}
