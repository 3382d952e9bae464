package client

import (
	"context"
	"fmt"
	"slices"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/propvalue"
	"github.com/catalogkit/datahub-go/urn"
)

// PropertyType is the type of a structured property's values.
type PropertyType string

// The value types DataHub's structured properties take (Python's
// AllowedTypes).
const (
	PropertyString   PropertyType = "string"
	PropertyRichText PropertyType = "rich_text"
	PropertyNumber   PropertyType = "number"
	PropertyDate     PropertyType = "date" // a "YYYY-MM-DD" string
	PropertyURN      PropertyType = "urn"
)

// propertyTypes are the valid PropertyTypes, in Python's order.
var propertyTypes = []PropertyType{PropertyString, PropertyRichText, PropertyNumber, PropertyDate, PropertyURN}

// AllowedValue is one value a structured property allows.
type AllowedValue struct {
	// Value is a string or a number (any Go integer or float type).
	Value any
	// Description says what the value means ("": none).
	Description string
}

// PropertyDefinition is a structured property: what its values are and
// which entities take them (DataHub's propertyDefinition aspect of a
// structuredProperty entity, as Python's StructuredProperties YAML
// describes it).
type PropertyDefinition struct {
	// QualifiedName is the property's fully qualified name, such as
	// "io.acryl.privacy.retentionTime", and its URN's id. It has no
	// spaces.
	QualifiedName string
	// Type is the type of its values.
	Type PropertyType
	// DisplayName is the name DataHub's UI shows ("": the qualified name).
	DisplayName string
	// Description says what it records.
	Description string
	// Multiple lets an entity hold several values (cardinality MULTIPLE);
	// false is SINGLE, DataHub's default.
	Multiple bool
	// EntityTypes are the entity types that take it, by name ("dataset",
	// "mlModel") or URN (urn:li:entityType:datahub.dataset).
	EntityTypes []string
	// AllowedValues, when not empty, are the only values it takes.
	AllowedValues []AllowedValue
	// AllowedURNTypes, for a PropertyURN, are the entity types of the URNs
	// it takes (DataHub's typeQualifier allowedTypes), by name or URN.
	AllowedURNTypes []string
	// Immutable forbids changing a value once set.
	Immutable bool
	// Version, when set, is 14 digits (such as "20250131120000"); a
	// definition whose version grows may make changes DataHub otherwise
	// refuses (another value type, MULTIPLE to SINGLE, fewer allowed
	// values).
	Version string
}

// URN returns the URN of the property, urn:li:structuredProperty:
// followed by its qualified name.
func (d PropertyDefinition) URN() (urn.StructuredProperty, error) {
	return urn.NewStructuredProperty(d.QualifiedName)
}

// aspect checks d as Python's StructuredProperties does and returns it as
// the propertyDefinition aspect.
func (d PropertyDefinition) aspect() (aspects.StructuredPropertyDefinition, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("client: structured property %q: %s: %w", d.QualifiedName, fmt.Sprintf(format, args...), datahub.ErrValidation)
	}
	if d.QualifiedName == "" {
		return aspects.StructuredPropertyDefinition{}, bad("no qualified name")
	}
	if strings.Contains(d.QualifiedName, " ") {
		return aspects.StructuredPropertyDefinition{}, bad("the qualified name has a space")
	}
	if !slices.Contains(propertyTypes, d.Type) {
		return aspects.StructuredPropertyDefinition{}, bad("type %q is not one of %v", d.Type, propertyTypes)
	}
	a := aspects.StructuredPropertyDefinition{
		QualifiedName: d.QualifiedName,
		ValueType:     "urn:li:dataType:datahub." + string(d.Type),
		Cardinality:   aspects.Ptr(aspects.PropertyCardinalitySingle),
		EntityTypes:   []string{},
		Immutable:     d.Immutable,
	}
	if d.Multiple {
		a.Cardinality = aspects.Ptr(aspects.PropertyCardinalityMultiple)
	}
	if d.DisplayName != "" {
		a.DisplayName = aspects.Ptr(d.DisplayName)
	}
	if d.Description != "" {
		a.Description = aspects.Ptr(d.Description)
	}
	if d.Version != "" {
		a.Version = aspects.Ptr(d.Version)
	}
	var err error
	if a.EntityTypes, err = entityTypeURNs(d.EntityTypes); err != nil {
		return aspects.StructuredPropertyDefinition{}, bad("%v", err)
	}
	if len(d.AllowedURNTypes) > 0 {
		if d.Type != PropertyURN {
			return aspects.StructuredPropertyDefinition{}, bad("allowed URN types given for a %s property", d.Type)
		}
		types, err := entityTypeURNs(d.AllowedURNTypes)
		if err != nil {
			return aspects.StructuredPropertyDefinition{}, bad("%v", err)
		}
		a.TypeQualifier = map[string][]string{"allowedTypes": types}
	}
	for i, v := range d.AllowedValues {
		pv, err := propvalue.Of(v.Value)
		if err != nil {
			return aspects.StructuredPropertyDefinition{}, bad("allowed value %d: %v", i, err)
		}
		av := aspects.PropertyValue{Value: pv}
		if v.Description != "" {
			av.Description = aspects.Ptr(v.Description)
		}
		a.AllowedValues = append(a.AllowedValues, av)
	}
	return a, nil
}

// entityTypeURNs returns the entity type URNs of types given by name or URN.
func entityTypeURNs(types []string) ([]string, error) {
	out := make([]string, 0, len(types))
	known := entity.Types()
	for _, t := range types {
		name := strings.TrimPrefix(strings.TrimPrefix(t, "urn:li:entityType:"), "datahub.")
		if _, ok := slices.BinarySearch(known, name); !ok {
			return nil, fmt.Errorf("%q is not an entity type", t)
		}
		out = append(out, "urn:li:entityType:datahub."+name)
	}
	return out, nil
}

// definitionOf is the PropertyDefinition of a propertyDefinition aspect.
func definitionOf(a aspects.StructuredPropertyDefinition) PropertyDefinition {
	d := PropertyDefinition{
		QualifiedName: a.QualifiedName,
		Type:          PropertyType(strings.TrimPrefix(strings.TrimPrefix(a.ValueType, "urn:li:dataType:"), "datahub.")),
		Multiple:      a.Cardinality != nil && *a.Cardinality == aspects.PropertyCardinalityMultiple,
		Immutable:     a.Immutable,
	}
	if a.DisplayName != nil {
		d.DisplayName = *a.DisplayName
	}
	if a.Description != nil {
		d.Description = *a.Description
	}
	if a.Version != nil {
		d.Version = *a.Version
	}
	short := func(t string) string {
		return strings.TrimPrefix(strings.TrimPrefix(t, "urn:li:entityType:"), "datahub.")
	}
	for _, t := range a.EntityTypes {
		d.EntityTypes = append(d.EntityTypes, short(t))
	}
	for _, t := range a.TypeQualifier["allowedTypes"] {
		d.AllowedURNTypes = append(d.AllowedURNTypes, short(t))
	}
	for _, v := range a.AllowedValues {
		av := AllowedValue{}
		switch {
		case v.Value.String != nil:
			av.Value = *v.Value.String
		case v.Value.Double != nil:
			av.Value = *v.Value.Double
		}
		if v.Description != nil {
			av.Description = *v.Description
		}
		d.AllowedValues = append(d.AllowedValues, av)
	}
	return d
}

// Properties defines DataHub's structured properties and sets their
// values on entities. A definition is the propertyDefinition aspect of a
// structuredProperty entity, written as DataHub's Python client writes it
// (StructuredProperties.generate_mcps), and DataHub checks it: it
// refuses, unless the definition's version grows, another value type, a
// change from several values to one and removing allowed values; and
// always a new qualified name and changes to a deleted property. Values
// are an entity's structuredProperties aspect, which DataHub checks
// against the definitions (type, cardinality, allowed values, the types
// of URN values, platforms, immutability; not the entity's type:
// EntityTypes offers the property for those types in DataHub's UI).
// DataHub's refusals come back as a *datahub.Error matching
// datahub.ErrValidation with DataHub's message. Get it with
// [Client.StructuredProperties].
type Properties struct {
	c *Client
}

// StructuredProperties returns the structured property operations of c.
func (c *Client) StructuredProperties() *Properties { return &Properties{c: c} }

// Create defines a new structured property and returns its URN; one that
// exists is refused with an error matching datahub.ErrAlreadyExists.
// A definition that is not valid (no qualified name or one with a space,
// an unknown type or entity type, an allowed value that is not a string
// or a number) fails with an error matching datahub.ErrValidation before
// anything is sent.
func (sp *Properties) Create(ctx context.Context, d PropertyDefinition) (urn.StructuredProperty, error) {
	a, err := d.aspect()
	if err != nil {
		return urn.StructuredProperty{}, err
	}
	u, err := d.URN()
	if err != nil {
		return urn.StructuredProperty{}, fmt.Errorf("client: structured property %q: %w", d.QualifiedName, err)
	}
	if err := sp.c.Entities().Create(ctx, &entity.StructuredProperty{URN: u, Definition: &a}); err != nil {
		return urn.StructuredProperty{}, fmt.Errorf("client: create structured property %s: %w", u, err)
	}
	return u, nil
}

// Update replaces the definition of an existing structured property
// (datahub.ErrNotFound when there is none), with a conditional write that
// keeps the stored members the client does not know; DataHub refuses the
// changes [Properties] lists.
func (sp *Properties) Update(ctx context.Context, d PropertyDefinition) error {
	a, err := d.aspect()
	if err != nil {
		return err
	}
	u, err := d.URN()
	if err != nil {
		return fmt.Errorf("client: structured property %q: %w", d.QualifiedName, err)
	}
	err = Modify(ctx, sp.c, u, func(cur *aspects.StructuredPropertyDefinition) error {
		if cur.QualifiedName == "" {
			return fmt.Errorf("no definition: %w", datahub.ErrNotFound)
		}
		a.SearchConfiguration, a.AllowedPlatforms, a.Created = cur.SearchConfiguration, cur.AllowedPlatforms, cur.Created
		*cur = a
		return nil
	})
	if err != nil {
		return fmt.Errorf("client: update structured property %s: %w", u, err)
	}
	return nil
}

// Get reads the definition of structured property u (an error matching
// datahub.ErrNotFound when there is none).
func (sp *Properties) Get(ctx context.Context, u urn.StructuredProperty) (PropertyDefinition, error) {
	a, err := GetAspect[aspects.StructuredPropertyDefinition](ctx, sp.c, u)
	if err != nil {
		return PropertyDefinition{}, fmt.Errorf("client: structured property %s: %w", u, err)
	}
	return definitionOf(a), nil
}

// Delete deletes structured property u, softly (DataHub then refuses its
// values and changes to its definition) or, with hard, for good (DataHub
// then removes its values from every entity).
func (sp *Properties) Delete(ctx context.Context, u urn.StructuredProperty, hard bool) error {
	return sp.c.Entities().Delete(ctx, u, hard)
}

// propertyHolder is an entity with structured property values.
type propertyHolder interface {
	SetStructuredProperty(p urn.StructuredProperty, values ...any) error
	RemoveStructuredProperty(p urn.StructuredProperty)
}

// Set sets the values of property prop on entity u (replacing those it
// had), as the entity's SetStructuredProperty helper does, through
// [Entities.Update], so that concurrent writers lose nothing. Values are
// strings or numbers. An entity that does not exist is an error matching
// datahub.ErrNotFound; DataHub's refusal of the values (a wrong type, one
// value too many, a value not allowed, an immutable value changed, a
// property not defined or deleted) one matching datahub.ErrValidation.
func (sp *Properties) Set(ctx context.Context, u urn.URN, prop urn.StructuredProperty, values ...any) error {
	for i, v := range values {
		if _, err := propvalue.Of(v); err != nil {
			return fmt.Errorf("client: set structured property %s on %s: value %d: %v: %w", prop, u, i, err, datahub.ErrValidation)
		}
	}
	return sp.change(ctx, "set", u, prop, func(h propertyHolder) error { return h.SetStructuredProperty(prop, values...) })
}

// Remove removes the values of property prop from entity u; it is no
// error when it has none. DataHub refuses to remove an immutable one.
func (sp *Properties) Remove(ctx context.Context, u urn.URN, prop urn.StructuredProperty) error {
	return sp.change(ctx, "remove", u, prop, func(h propertyHolder) error { h.RemoveStructuredProperty(prop); return nil })
}

func (sp *Properties) change(ctx context.Context, verb string, u urn.URN, prop urn.StructuredProperty, fn func(propertyHolder) error) error {
	if u == nil {
		return fmt.Errorf("client: %s structured property %s: no entity: %w", verb, prop, datahub.ErrValidation)
	}
	e, err := sp.c.Entities().Get(ctx, u, aspects.StructuredProperties{}.AspectName())
	if err != nil {
		return fmt.Errorf("client: %s structured property %s on %s: %w", verb, prop, u, err)
	}
	h, ok := e.(propertyHolder)
	if !ok {
		return fmt.Errorf("client: %s structured property %s: a %s has no structured properties: %w", verb, prop, u.EntityType(), datahub.ErrValidation)
	}
	if _, err := sp.c.Entities().Update(ctx, e, func() error { return fn(h) }); err != nil {
		return fmt.Errorf("client: %s structured property %s on %s: %w", verb, prop, u, err)
	}
	return nil
}
