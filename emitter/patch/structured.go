package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/javanum"
	"github.com/catalogkit/datahub-go/urn"
)

const propertyDefinition = "propertyDefinition"

// StructuredProperty builds the patches of a structured property's
// definition (the propertyDefinition aspect), as DataHub's Python
// StructuredPropertyPatchBuilder does.
type StructuredProperty struct {
	*Builder
}

// NewStructuredProperty returns a patch builder for structured property u.
func NewStructuredProperty(u urn.StructuredProperty) *StructuredProperty {
	return &StructuredProperty{New(u)}
}

// SetQualifiedName sets propertyDefinition.qualifiedName.
func (p *StructuredProperty) SetQualifiedName(name string) {
	p.Add(propertyDefinition, "/qualifiedName", name)
}

// SetDisplayName sets propertyDefinition.displayName.
func (p *StructuredProperty) SetDisplayName(name string) {
	p.Add(propertyDefinition, "/displayName", name)
}

// SetValueType sets propertyDefinition.valueType, a data type URN
// ("urn:li:dataType:datahub.string", "urn:li:dataType:datahub.number", ...).
func (p *StructuredProperty) SetValueType(dataType string) {
	p.Add(propertyDefinition, "/valueType", dataType)
}

// SetTypeQualifier sets propertyDefinition.typeQualifier.
func (p *StructuredProperty) SetTypeQualifier(q map[string][]string) {
	p.Add(propertyDefinition, "/typeQualifier", q)
}

// SetCardinality sets propertyDefinition.cardinality.
func (p *StructuredProperty) SetCardinality(c aspects.PropertyCardinality) {
	p.Add(propertyDefinition, "/cardinality", c)
}

// SetDescription sets propertyDefinition.description.
func (p *StructuredProperty) SetDescription(description string) {
	p.Add(propertyDefinition, "/description", description)
}

// SetImmutable sets propertyDefinition.immutable.
func (p *StructuredProperty) SetImmutable(immutable bool) {
	p.Add(propertyDefinition, "/immutable", immutable)
}

// SetVersion sets propertyDefinition.version.
func (p *StructuredProperty) SetVersion(version string) {
	p.Add(propertyDefinition, "/version", version)
}

// AddEntityType adds an entity type URN ("urn:li:entityType:datahub.dataset")
// the property applies to: add /entityTypes/<urn>.
func (p *StructuredProperty) AddEntityType(entityType string) {
	p.Add(propertyDefinition, Path("entityTypes", entityType), entityType)
}

// RemoveEntityType removes an entity type URN.
func (p *StructuredProperty) RemoveEntityType(entityType string) {
	p.Remove(propertyDefinition, Path("entityTypes", entityType))
}

// AddAllowedValue adds an allowed value: add /allowedValues/<value> with
// v, keyed as the server keys allowed values (a string as it is, a number
// as Java prints a double: 90.0, 0.5, 1.0E7).
func (p *StructuredProperty) AddAllowedValue(v aspects.PropertyValue) {
	p.Add(propertyDefinition, Path("allowedValues", allowedValueKey(v.Value)), v)
}

// RemoveAllowedValue removes an allowed value.
func (p *StructuredProperty) RemoveAllowedValue(v aspects.PrimitivePropertyValue) {
	p.Remove(propertyDefinition, Path("allowedValues", allowedValueKey(v)))
}

// allowedValueKey is the text of a value as DataHub's template keys it:
// the string, or the number as Java's Double.toString prints it.
func allowedValueKey(v aspects.PrimitivePropertyValue) string {
	switch {
	case v.String != nil:
		return *v.String
	case v.Double != nil:
		return javanum.Double(*v.Double)
	}
	return ""
}
