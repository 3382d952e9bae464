package client

import (
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestStructuredPropertyDefinitions creates, reads, updates and deletes
// definitions, and checks DataHub's refusals come back whole.
func TestStructuredPropertyDefinitions(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	sp := c.StructuredProperties()
	def := PropertyDefinition{
		QualifiedName: "io.acryl.privacy.retention",
		Type:          PropertyString,
		DisplayName:   "Retention",
		Description:   "How long rows are kept.",
		Multiple:      true,
		EntityTypes:   []string{"dataset", "urn:li:entityType:datahub.mlModel"},
		AllowedValues: []AllowedValue{{Value: "30d", Description: "a month"}, {Value: "1y"}},
	}
	u, err := sp.Create(ctx, def)
	if err != nil {
		t.Fatal(err)
	}
	if u.String() != "urn:li:structuredProperty:io.acryl.privacy.retention" {
		t.Errorf("URN %s", u)
	}
	raw, err := c.GetAspectJSON(ctx, u, "propertyDefinition")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"valueType":"urn:li:dataType:datahub.string"`, `"cardinality":"MULTIPLE"`,
		`"entityTypes":["urn:li:entityType:datahub.dataset","urn:li:entityType:datahub.mlModel"]`,
		`{"value":{"string":"30d"},"description":"a month"}`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("stored %s lacks %s", raw, want)
		}
	}
	got, err := sp.Get(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	want := def
	want.EntityTypes = []string{"dataset", "mlModel"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Get (-want +got):\n%s", d)
	}
	if _, err := sp.Create(ctx, def); !errors.Is(err, datahub.ErrAlreadyExists) {
		t.Errorf("Create again: %v", err)
	}

	// An added allowed value is fine; a removed one is refused unless the
	// version grows.
	def.AllowedValues = append(def.AllowedValues, AllowedValue{Value: "7d"})
	if err := sp.Update(ctx, def); err != nil {
		t.Fatal(err)
	}
	narrower := def
	narrower.AllowedValues = def.AllowedValues[:1]
	err = sp.Update(ctx, narrower)
	if !errors.Is(err, datahub.ErrValidation) || !strings.Contains(err.Error(), "Cannot restrict values that were previously allowed") {
		t.Errorf("Update removing allowed values: %v", err)
	}
	narrower.Version = "20250101000000"
	if err := sp.Update(ctx, narrower); err != nil {
		t.Fatal(err)
	}
	if got, err := sp.Get(ctx, u); err != nil || len(got.AllowedValues) != 1 || got.Version != "20250101000000" {
		t.Errorf("after a versioned update: %+v %v", got, err)
	}
	missing := PropertyDefinition{QualifiedName: "nope", Type: PropertyNumber}
	if err := sp.Update(ctx, missing); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("Update of a missing property: %v", err)
	}

	for _, bad := range []PropertyDefinition{
		{Type: PropertyString},
		{QualifiedName: "a b", Type: PropertyString},
		{QualifiedName: "x", Type: "boolean"},
		{QualifiedName: "x", Type: PropertyString, EntityTypes: []string{"table"}},
		{QualifiedName: "x", Type: PropertyString, AllowedURNTypes: []string{"dataset"}},
		{QualifiedName: "x", Type: PropertyString, AllowedValues: []AllowedValue{{Value: true}}},
	} {
		if _, err := sp.Create(ctx, bad); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("Create(%+v): %v", bad, err)
		}
	}

	if err := sp.Delete(ctx, u, false); err != nil {
		t.Fatal(err)
	}
	if err := sp.Update(ctx, def); !errors.Is(err, datahub.ErrValidation) || !strings.Contains(err.Error(), "Cannot mutate a soft deleted Structured Property Definition") {
		t.Errorf("Update of a deleted property: %v", err)
	}
}

// TestStructuredPropertyValues sets and removes values on a model and a
// dataset, and checks DataHub's refusals of bad values come back whole.
func TestStructuredPropertyValues(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	sp := c.StructuredProperties()
	days, err := sp.Create(ctx, PropertyDefinition{QualifiedName: "retention.days", Type: PropertyNumber, EntityTypes: []string{"mlModel"}})
	if err != nil {
		t.Fatal(err)
	}
	tier, err := sp.Create(ctx, PropertyDefinition{QualifiedName: "tier", Type: PropertyString, EntityTypes: []string{"mlModel", "dataset"},
		AllowedValues: []AllowedValue{{Value: "gold"}, {Value: "silver"}}, Immutable: true})
	if err != nil {
		t.Fatal(err)
	}
	m := modelURN(t, "churn")
	putModel(t, s, m)
	if err := sp.Set(ctx, m, days, 90); err != nil {
		t.Fatal(err)
	}
	if err := sp.Set(ctx, m, tier, "gold"); err != nil {
		t.Fatal(err)
	}
	if err := sp.Set(ctx, m, days, 30); err != nil {
		t.Fatal(err)
	}
	got, err := GetAspect[aspects.StructuredProperties](ctx, c, m)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]string{}
	for _, p := range got.Properties {
		var vs []string
		for _, v := range p.Values {
			if v.String != nil {
				vs = append(vs, *v.String)
			} else {
				vs = append(vs, strconv.FormatFloat(*v.Double, 'g', -1, 64))
			}
		}
		values[p.PropertyURN] = strings.Join(vs, ",")
	}
	if d := cmp.Diff(map[string]string{days.String(): "30", tier.String(): "gold"}, values); d != "" {
		t.Errorf("values (-want +got):\n%s", d)
	}

	for _, tc := range []struct {
		name   string
		u      urn.URN
		prop   urn.StructuredProperty
		values []any
		msg    string
	}{
		{"two values of a single one", m, days, []any{1, 2}, "has cardinality 1, but multiple values were assigned"},
		{"a string for a number", m, days, []any{"ten"}, "should be a number"},
		{"a value not allowed", m, tier, []any{"bronze"}, "should be one of"},
		{"an immutable value changed", m, tier, []any{"silver"}, "Cannot mutate an immutable property"},
		{"no definition", m, urn.MustParse("urn:li:structuredProperty:ghost").(urn.StructuredProperty), []any{"x"}, "Unexpected null value found"},
	} {
		err := sp.Set(ctx, tc.u, tc.prop, tc.values...)
		if !errors.Is(err, datahub.ErrValidation) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if err := sp.Set(ctx, m, days, true); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("a bool: %v", err)
	}
	if err := sp.Remove(ctx, m, tier); !errors.Is(err, datahub.ErrValidation) || !strings.Contains(err.Error(), "Cannot delete an immutable property") {
		t.Errorf("remove an immutable property: %v", err)
	}
	if err := sp.Remove(ctx, m, days); err != nil {
		t.Fatal(err)
	}
	if err := sp.Remove(ctx, m, days); err != nil {
		t.Fatal(err)
	}
	if got, err := GetAspect[aspects.StructuredProperties](ctx, c, m); err != nil || len(got.Properties) != 1 || got.Properties[0].PropertyURN != tier.String() {
		t.Errorf("after Remove: %+v %v", got, err)
	}
	if err := sp.Set(ctx, modelURN(t, "ghost"), days, 1); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("Set on a missing entity: %v", err)
	}
}

// TestStructuredPropertySetConcurrent: 16 writers, each with its own
// client, set a property of their own on one model at once; every value
// is there afterwards.
func TestStructuredPropertySetConcurrent(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	ctx := t.Context()
	m := modelURN(t, "churn")
	putModel(t, s, m)
	const writers = 16
	props := make([]urn.StructuredProperty, writers)
	for i := range writers {
		var err error
		props[i], err = newTestClient(t, s).StructuredProperties().Create(ctx, PropertyDefinition{
			QualifiedName: "p" + strconv.Itoa(i), Type: PropertyNumber, EntityTypes: []string{"mlModel"}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		c := newTestClient(t, s)
		wg.Go(func() { errs[i] = c.StructuredProperties().Set(ctx, m, props[i], i) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	got, err := GetAspect[aspects.StructuredProperties](ctx, newTestClient(t, s), m)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]float64{}
	for _, p := range got.Properties {
		values[p.PropertyURN] = *p.Values[0].Double
	}
	want := map[string]float64{}
	for i, p := range props {
		want[p.String()] = float64(i)
	}
	if d := cmp.Diff(want, values); d != "" {
		t.Errorf("values (-want +got):\n%s", d)
	}
}
