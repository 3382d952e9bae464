package gms_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

func str(s string) gms.PropertyValue    { return gms.PropertyValue{String: &s} }
func num(f float64) gms.PropertyValue   { return gms.PropertyValue{Number: &f} }
func allowed(s string) gms.AllowedValue { return gms.AllowedValue{PropertyValue: str(s)} }

// propCore is mutCore with structured properties: tier (string, allowed
// gold and silver, single), score (number, multiple), owner (urn of a
// corpuser), frozen (immutable string), hive (string, hive datasets only).
func propCore(t *testing.T) *gms.Core {
	t.Helper()
	c := mutCore(t, ds, "dataPlatformInstance", `{"platform":"urn:li:dataPlatform:hive"}`)
	for _, in := range []gms.StructuredPropertyInput{
		{QualifiedName: ptr("tier"), ValueType: "urn:li:dataType:datahub.string", EntityTypes: []string{"urn:li:entityType:datahub.dataset"},
			AllowedValues: []gms.AllowedValue{allowed("gold"), allowed("silver")}},
		{ID: ptr("score"), ValueType: "urn:li:dataType:datahub.number", Cardinality: "MULTIPLE"},
		{ID: ptr("owner"), ValueType: "urn:li:dataType:datahub.urn", AllowedTypes: []string{"urn:li:entityType:datahub.corpuser"}},
		{ID: ptr("frozen"), ValueType: "urn:li:dataType:datahub.string", Immutable: new(true)},
		{ID: ptr("hive"), ValueType: "urn:li:dataType:datahub.string", AllowedPlatforms: []string{"urn:li:dataPlatform:hive"}},
		{ID: ptr("day"), ValueType: "urn:li:dataType:datahub.date"},
	} {
		if _, err := c.CreateStructuredProperty(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestStructuredPropertyDefinitions checks create, update and delete of
// structured property definitions.
func TestStructuredPropertyDefinitions(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	c := propCore(t)
	const tier = "urn:li:structuredProperty:tier"
	sameJSON(t, latest(t, c, tier, "propertyDefinition"), `{"qualifiedName":"tier","valueType":"urn:li:dataType:datahub.string",
		"entityTypes":["urn:li:entityType:datahub.dataset"],"allowedValues":[{"value":{"string":"gold"}},{"value":{"string":"silver"}}],
		"created":`+mutStamp+`,"lastModified":`+mutStamp+`}`)
	_, err := c.CreateStructuredProperty(ctx, gms.StructuredPropertyInput{ID: ptr("tier"), ValueType: "urn:li:dataType:datahub.string"})
	refused(t, err, gms.BadArgument, "A structured property already exists with this urn")
	_, err = c.CreateStructuredProperty(ctx, gms.StructuredPropertyInput{ID: ptr("a"), QualifiedName: ptr("b"), ValueType: "urn:li:dataType:datahub.string"})
	refused(t, err, gms.BadArgument, "Qualified name and the ID of a structured property must match")
	if err := c.UpdateStructuredProperty(ctx, tier, gms.StructuredPropertyUpdate{DisplayName: ptr("Tier"), SetCardinalityAsMultiple: true,
		NewAllowedValues: []gms.AllowedValue{allowed("bronze")}, NewEntityTypes: []string{"urn:li:entityType:datahub.dataset", "urn:li:entityType:datahub.chart"},
		Settings: map[string]any{"showInAssetSummary": false}}); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, tier, "propertyDefinition"), `{"qualifiedName":"tier","displayName":"Tier","valueType":"urn:li:dataType:datahub.string",
		"entityTypes":["urn:li:entityType:datahub.dataset","urn:li:entityType:datahub.chart"],"cardinality":"MULTIPLE",
		"allowedValues":[{"value":{"string":"gold"}},{"value":{"string":"silver"}},{"value":{"string":"bronze"}}],
		"created":`+mutStamp+`,"lastModified":`+mutStamp+`}`)
	sameJSON(t, latest(t, c, tier, "structuredPropertySettings"), `{"showInAssetSummary":false,"hideInAssetSummaryWhenEmpty":false,"lastModified":`+mutStamp+`}`)
	refused(t, c.UpdateStructuredProperty(ctx, "urn:li:structuredProperty:ghost", gms.StructuredPropertyUpdate{}), gms.BadArgument, "")
	if err := c.DeleteStructuredProperty(ctx, tier); err != nil {
		t.Fatal(err)
	}
	if ok, _ := c.Exists(ctx, tier); ok {
		t.Error("deleted structured property still exists")
	}
}

// TestStructuredPropertyValues checks upsertStructuredProperties and
// removeStructuredProperties, and that every write of structuredProperties
// through the core gets DataHub's value checks.
func TestStructuredPropertyValues(t *testing.T) {
	t.Parallel()
	const p = "urn:li:structuredProperty:"
	tests := []struct {
		name   string
		values map[string][]gms.PropertyValue
		msg    string // "" for success
	}{
		{name: "valid", values: map[string][]gms.PropertyValue{p + "tier": {str("gold")}, p + "score": {num(1), num(2.5)},
			p + "owner": {str(userA)}, p + "hive": {str("x")}, p + "day": {str("2026-01-02")}}},
		{name: "not allowed", values: map[string][]gms.PropertyValue{p + "tier": {str("lead")}},
			msg: "Property: " + p + "tier, value: {string=lead} should be one of [{string=gold}, {string=silver}]"},
		{name: "cardinality", values: map[string][]gms.PropertyValue{p + "tier": {str("gold"), str("silver")}},
			msg: "Property: " + p + "tier has cardinality 1, but multiple values were assigned: [{string=gold}, {string=silver}]"},
		{name: "not a number", values: map[string][]gms.PropertyValue{p + "score": {str("many")}},
			msg: "Property: " + p + "score, value: {string=many} should be a number"},
		{name: "not a string", values: map[string][]gms.PropertyValue{p + "hive": {num(3)}},
			msg: "Property: " + p + "hive, value: {double=3} should be a string"},
		{name: "urn type", values: map[string][]gms.PropertyValue{p + "owner": {str(groupA)}},
			msg: "Property: " + p + "owner, value: {string=" + groupA + "} is not of any supported urn types:[urn:li:entityType:datahub.corpuser]"},
		{name: "date", values: map[string][]gms.PropertyValue{p + "day": {str("02/01/2026")}},
			msg: "Property: " + p + "day, value: {string=02/01/2026} should be a date with format YYYY-MM-DD"},
		{name: "undefined", values: map[string][]gms.PropertyValue{p + "ghost": {str("x")}},
			msg: "Unexpected null value found for " + p + "ghost Structured Property Definition."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := propCore(t)
			var order []string
			for u := range tt.values {
				order = append(order, u)
			}
			got, err := c.UpsertStructuredProperties(t.Context(), ds, tt.values, order)
			if tt.msg != "" {
				refused(t, err, gms.Invalid, "")
				if !strings.Contains(gms.AsError(err).Message, tt.msg) {
					t.Errorf("message %q lacks %q", gms.AsError(err).Message, tt.msg)
				}
				// The same value written by proposal is refused the same way.
				value, _ := json.Marshal(map[string]any{"properties": []any{map[string]any{"propertyUrn": order[0], "values": rawValues(tt.values[order[0]])}}})
				err := c.Put(t.Context(), ds, "structuredProperties", value)
				refused(t, err, gms.Invalid, "")
				if !strings.Contains(gms.AsError(err).Message, tt.msg) {
					t.Errorf("proposal: message %q lacks %q", gms.AsError(err).Message, tt.msg)
				}
				if s := latest(t, c, ds, "structuredProperties"); s != "" {
					t.Errorf("refused values written: %s", s)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != latest(t, c, ds, "structuredProperties") {
				t.Errorf("returned %s, stored %s", got, latest(t, c, ds, "structuredProperties"))
			}
		})
	}
	t.Run("platform", func(t *testing.T) {
		t.Parallel()
		c := propCore(t)
		const chart = "urn:li:chart:(looker,c1)"
		if err := c.Put(t.Context(), chart, "status", json.RawMessage(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
		_, err := c.UpsertStructuredProperties(t.Context(), chart, map[string][]gms.PropertyValue{p + "hive": {str("x")}}, []string{p + "hive"})
		refused(t, err, gms.Invalid, "")
		if want := "Property: " + p + "hive is restricted to specific data platforms [urn:li:dataPlatform:hive], but the entity " + chart + " does not have a data platform."; !strings.Contains(err.Error(), want) {
			t.Errorf("%v lacks %q", err, want)
		}
	})
	t.Run("immutable and remove", func(t *testing.T) {
		t.Parallel()
		ctx := t.Context()
		c := propCore(t)
		if _, err := c.UpsertStructuredProperties(ctx, ds, map[string][]gms.PropertyValue{p + "frozen": {str("a")}, p + "tier": {str("gold")}},
			[]string{p + "frozen", p + "tier"}); err != nil {
			t.Fatal(err)
		}
		got, err := c.UpsertStructuredProperties(ctx, ds, map[string][]gms.PropertyValue{p + "tier": {str("silver")}}, []string{p + "tier"})
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, string(got), `{"properties":[
			{"propertyUrn":"`+p+`frozen","values":[{"string":"a"}],"created":`+mutStamp+`,"lastModified":`+mutStamp+`},
			{"propertyUrn":"`+p+`tier","values":[{"string":"silver"}],"created":`+mutStamp+`,"lastModified":`+mutStamp+`}]}`)
		_, err = c.UpsertStructuredProperties(ctx, ds, map[string][]gms.PropertyValue{p + "frozen": {str("b")}}, []string{p + "frozen"})
		refused(t, err, gms.Invalid, fmt.Sprintf(gms.MsgPropInvalid, ds, "Cannot mutate an immutable property: "+p+"frozen"))
		_, err = c.RemoveStructuredProperties(ctx, ds, []string{p + "frozen"})
		refused(t, err, gms.Invalid, fmt.Sprintf(gms.MsgPropInvalid, ds, "Cannot delete an immutable property "+p+"frozen"))
		err = c.Put(ctx, ds, "structuredProperties", json.RawMessage(`{"properties":[]}`))
		refused(t, err, gms.Invalid, fmt.Sprintf(gms.MsgPropInvalid, ds, "Cannot delete an immutable property "+p+"frozen"))
		got, err = c.RemoveStructuredProperties(ctx, ds, []string{p + "tier"})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(got), "tier") {
			t.Errorf("tier not removed: %s", got)
		}
		_, err = c.UpsertStructuredProperties(ctx, ghostDS, map[string][]gms.PropertyValue{p + "tier": {str("gold")}}, []string{p + "tier"})
		refused(t, err, gms.Internal, "Asset with provided urn "+ghostDS+" does not exist")
	})
	t.Run("concurrent", func(t *testing.T) {
		t.Parallel()
		c := propCore(t)
		for i := range 16 {
			if _, err := c.CreateStructuredProperty(t.Context(), gms.StructuredPropertyInput{ID: ptr(fmt.Sprintf("c%d", i)), ValueType: "urn:li:dataType:datahub.string"}); err != nil {
				t.Fatal(err)
			}
		}
		concurrently(t, func(i int) error {
			u := fmt.Sprintf(p+"c%d", i)
			_, err := c.UpsertStructuredProperties(t.Context(), ds, map[string][]gms.PropertyValue{u: {str("v")}}, []string{u})
			return err
		})
		var v struct{ Properties []any }
		_ = json.Unmarshal([]byte(latest(t, c, ds, "structuredProperties")), &v)
		if len(v.Properties) != 16 {
			t.Errorf("%d properties kept, want 16", len(v.Properties))
		}
	})
}

// rawValues is values as PrimitivePropertyValue JSON.
func rawValues(vs []gms.PropertyValue) []any {
	out := []any{}
	for _, v := range vs {
		if v.String != nil {
			out = append(out, map[string]any{"string": *v.String})
		} else {
			out = append(out, map[string]any{"double": *v.Number})
		}
	}
	return out
}
