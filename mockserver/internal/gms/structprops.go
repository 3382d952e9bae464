package gms

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// DataHub's texts of the checks of structured property values
// (StructuredPropertiesValidator), and the mock's wrapper of them.
const (
	MsgPropNotProperty  = "Unexpected entity type. Expected: structuredProperty Found: %s"
	MsgPropTwice        = "Property: %s has multiple entries: %s"
	MsgPropSoftDeleted  = "Cannot apply a soft deleted Structured Property value"
	MsgPropNoDefinition = "Unexpected null value found for %s Structured Property Definition."
	MsgPropCardinality  = "Property: %s has cardinality 1, but multiple values were assigned: %s"
	MsgPropNotAllowed   = "Property: %s, value: %s should be one of %s"
	MsgPropTooLong      = "Property: %s, value is %d bytes which exceeds the maximum of %d UTF-8 bytes for structured property values indexed as Elasticsearch keywords (structuredProperties.keywordMaxLength)"
	MsgPropNotString    = "Property: %s, value: %s should be a string"
	MsgPropNotDate      = "Property: %s, value: %s should be a date with format YYYY-MM-DD"
	MsgPropNotURN       = "Property: %s, value: %s should be an urn"
	MsgPropURNType      = "Property: %s, value: %s is not of any supported urn types:%s"
	MsgPropNotNumber    = "Property: %s, value: %s should be a number"
	MsgPropTypeUnknown  = "Validation support for type %s is not yet implemented."
	MsgPropNoPlatform   = "Property: %s is restricted to specific data platforms %s, but the entity %s does not have a data platform."
	MsgPropPlatform     = "Property: %s is restricted to data platforms %s, but the entity %s belongs to platform %s."
	MsgPropImmutable    = "Cannot mutate an immutable property: %s"
	MsgPropImmutableDel = "Cannot delete an immutable property %s"
	// MsgPropInvalid wraps the failures of one write as DataHub's
	// ValidationExceptionCollection prints them (approximately: the mock
	// lists the messages only).
	MsgPropInvalid = "ValidationExceptionCollection{EntityAspect:(%s, structuredProperties) Exceptions: [%s]}"
)

// keywordMaxLength is the longest string value (UTF-8 bytes) a
// structured property takes (DataHub's ESUtils.KEYWORD_MAXLENGTH).
const keywordMaxLength = 32766

// The names of the structured property aspects.
const (
	aspectStructuredProperties = "structuredProperties"
	aspectPropertyDefinition   = "propertyDefinition"
)

// propValue is a PrimitivePropertyValue: a string or a double.
type propValue struct {
	Str    *string  `json:"string,omitempty"`
	Double *float64 `json:"double,omitempty"`
}

// String prints the value as Java prints the union ({string=x}).
func (v propValue) String() string {
	switch {
	case v.Str != nil:
		return "{string=" + *v.Str + "}"
	case v.Double != nil:
		return "{double=" + strconv.FormatFloat(*v.Double, 'f', -1, 64) + "}"
	}
	return "{}"
}

func (v propValue) equal(w propValue) bool {
	switch {
	case v.Str != nil:
		return w.Str != nil && *v.Str == *w.Str
	case v.Double != nil:
		return w.Double != nil && *v.Double == *w.Double
	}
	return w.Str == nil && w.Double == nil
}

// assignment is a StructuredPropertyValueAssignment.
type assignment struct {
	PropertyURN string      `json:"propertyUrn"`
	Values      []propValue `json:"values"`
}

// propDefinition is the part of a propertyDefinition the value checks read.
type propDefinition struct {
	ValueType     string              `json:"valueType"`
	TypeQualifier map[string][]string `json:"typeQualifier"`
	AllowedValues []struct {
		Value propValue `json:"value"`
	} `json:"allowedValues"`
	Cardinality      string   `json:"cardinality"`
	EntityTypes      []string `json:"entityTypes"`
	AllowedPlatforms []string `json:"allowedPlatforms"`
	Immutable        bool     `json:"immutable"`
	// removed is the definition's status.removed.
	removed bool
}

// logicalType is the logical type of a valueType URN
// (urn:li:dataType:datahub.string: STRING).
func logicalType(valueType string) string {
	id := valueType[strings.LastIndexByte(valueType, ':')+1:]
	return strings.ToUpper(strings.TrimPrefix(id, "datahub."))
}

// printValues prints values as Java prints a list of unions.
func printValues(vs []propValue) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = v.String()
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// propertyDefinitions reads the definitions (and soft-deletion) of the
// structured properties urns from the store, nil for those without one.
func (c *Core) propertyDefinitions(urns []string) map[string]*propDefinition {
	defs := make(map[string]*propDefinition, len(urns))
	for _, u := range urns {
		if _, done := defs[u]; done {
			continue
		}
		defs[u] = nil
		a, err := c.st.Get(u, aspectPropertyDefinition, 0)
		if err != nil {
			continue
		}
		var d propDefinition
		if json.Unmarshal(a.Value, &d) != nil {
			continue
		}
		if s, err := c.st.Get(u, "status", 0); err == nil {
			d.removed = Removed(s.Value)
		}
		defs[u] = &d
	}
	return defs
}

// platformOf is the data platform of entity u: a schema field's dataset's,
// else its dataPlatformInstance.platform ("" when it has none).
func (c *Core) platformOf(u string) string {
	if EntityTypeOf(u) == "schemaField" {
		if i := strings.Index(u, "urn:li:dataPlatform:"); i >= 0 {
			p := u[i:]
			if j := strings.IndexByte(p, ','); j >= 0 {
				return p[:j]
			}
		}
		return ""
	}
	a, err := c.st.Get(u, "dataPlatformInstance", 0)
	if err != nil {
		return ""
	}
	var v struct {
		Platform string `json:"platform"`
	}
	_ = json.Unmarshal(a.Value, &v)
	return v.Platform
}

// propertyURNs are the property URNs of structuredProperties values.
func propertyURNs(values ...json.RawMessage) []string {
	var urns []string
	for _, v := range values {
		var sp struct {
			Properties []assignment `json:"properties"`
		}
		if v == nil || json.Unmarshal(v, &sp) != nil {
			continue
		}
		for _, a := range sp.Properties {
			urns = append(urns, a.PropertyURN)
		}
	}
	return urns
}

// propFacts are what the checks of a structuredProperties value read from
// other entities: the definitions of its properties and the entity's
// platform.
type propFacts struct {
	defs     map[string]*propDefinition
	platform string
}

// has reports whether the facts cover every property of values.
func (f propFacts) has(values ...json.RawMessage) bool {
	for _, u := range propertyURNs(values...) {
		if _, ok := f.defs[u]; !ok {
			return false
		}
	}
	return true
}

// propFactsOf reads the facts the checks of entity u's values need.
func (c *Core) propFactsOf(u string, values ...json.RawMessage) propFacts {
	f := propFacts{defs: c.propertyDefinitions(propertyURNs(values...))}
	for _, d := range f.defs {
		if d != nil && len(d.AllowedPlatforms) > 0 {
			f.platform = c.platformOf(u)
			break
		}
	}
	return f
}

// checkAssignments is DataHub's StructuredPropertiesValidator's check of
// the structuredProperties value of entity u: the failures' texts.
func checkAssignments(u string, value json.RawMessage, f propFacts) []string {
	var sp struct {
		Properties []assignment `json:"properties"`
	}
	if json.Unmarshal(value, &sp) != nil {
		return nil // the record check refuses it
	}
	var msgs []string
	seen := map[string]int{}
	for _, a := range sp.Properties {
		seen[a.PropertyURN]++
		if EntityTypeOf(a.PropertyURN) != "structuredProperty" {
			msgs = append(msgs, fmt.Sprintf(MsgPropNotProperty, EntityTypeOf(a.PropertyURN)))
		}
	}
	for _, a := range sp.Properties {
		if seen[a.PropertyURN] > 1 {
			msgs = append(msgs, fmt.Sprintf(MsgPropTwice, a.PropertyURN, printValues(a.Values)))
		}
	}
	if len(msgs) > 0 {
		return msgs
	}
	for _, a := range sp.Properties {
		d := f.defs[a.PropertyURN]
		if d == nil {
			msgs = append(msgs, fmt.Sprintf(MsgPropNoDefinition, a.PropertyURN))
			continue
		}
		if d.removed {
			msgs = append(msgs, MsgPropSoftDeleted)
		}
		if d.Cardinality != "MULTIPLE" && len(a.Values) > 1 {
			msgs = append(msgs, fmt.Sprintf(MsgPropCardinality, a.PropertyURN, printValues(a.Values)))
		}
		for _, v := range a.Values {
			msgs = append(msgs, checkPropValue(a.PropertyURN, d, v)...)
		}
		if len(d.AllowedPlatforms) > 0 {
			allowed := "[" + strings.Join(d.AllowedPlatforms, ", ") + "]"
			switch {
			case f.platform == "":
				msgs = append(msgs, fmt.Sprintf(MsgPropNoPlatform, a.PropertyURN, allowed, u))
			case !containsString(d.AllowedPlatforms, f.platform):
				msgs = append(msgs, fmt.Sprintf(MsgPropPlatform, a.PropertyURN, allowed, u, f.platform))
			}
		}
	}
	return msgs
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkPropValue checks one value against its definition: its type, the
// allowed values and the keyword length.
func checkPropValue(prop string, d *propDefinition, v propValue) []string {
	var msgs []string
	switch t := logicalType(d.ValueType); t {
	case "STRING", "RICH_TEXT", "DATE", "URN":
		if v.Str == nil {
			msgs = append(msgs, fmt.Sprintf(MsgPropNotString, prop, v))
			break
		}
		switch t {
		case "DATE":
			if _, err := time.Parse("2006-01-02", *v.Str); err != nil {
				msgs = append(msgs, fmt.Sprintf(MsgPropNotDate, prop, v))
			}
		case "URN":
			if _, err := CheckURN(*v.Str); err != nil {
				msgs = append(msgs, fmt.Sprintf(MsgPropNotURN, prop, v))
				break
			}
			if allowed, ok := d.TypeQualifier["allowedTypes"]; ok {
				match := false
				for _, typ := range allowed {
					name := strings.TrimPrefix(typ[strings.LastIndexByte(typ, ':')+1:], "datahub.")
					match = match || strings.EqualFold(EntityTypeOf(*v.Str), name)
				}
				if !match {
					msgs = append(msgs, fmt.Sprintf(MsgPropURNType, prop, v, "["+strings.Join(allowed, ", ")+"]"))
				}
			}
		}
		if v.Str != nil && len(*v.Str) > keywordMaxLength && utf8.ValidString(*v.Str) {
			msgs = append(msgs, fmt.Sprintf(MsgPropTooLong, prop, len(*v.Str), keywordMaxLength))
		}
	case "NUMBER":
		ok := v.Double != nil
		if !ok && v.Str != nil {
			_, err := strconv.ParseFloat(strings.TrimSpace(*v.Str), 64)
			ok = err == nil
		}
		if !ok {
			msgs = append(msgs, fmt.Sprintf(MsgPropNotNumber, prop, v))
		}
	default:
		msgs = append(msgs, fmt.Sprintf(MsgPropTypeUnknown, d.ValueType))
	}
	if d.AllowedValues != nil {
		found := false
		allowed := make([]propValue, len(d.AllowedValues))
		for i, a := range d.AllowedValues {
			allowed[i] = a.Value
			found = found || a.Value.equal(v)
		}
		if !found {
			msgs = append(msgs, fmt.Sprintf(MsgPropNotAllowed, prop, v, printValues(allowed)))
		}
	}
	return msgs
}

// immutableChanges is DataHub's check of immutable properties: an
// assignment of an immutable property that existed in prev may be neither
// changed nor dropped in next.
func immutableChanges(prev, next json.RawMessage, f propFacts) []string {
	if prev == nil {
		return nil
	}
	var p, n struct {
		Properties []assignment `json:"properties"`
	}
	if json.Unmarshal(prev, &p) != nil || json.Unmarshal(next, &n) != nil {
		return nil
	}
	var msgs []string
	for _, old := range p.Properties {
		d := f.defs[old.PropertyURN]
		if d == nil || !d.Immutable {
			continue
		}
		var cur *assignment
		for i := range n.Properties {
			if n.Properties[i].PropertyURN == old.PropertyURN {
				cur = &n.Properties[i]
			}
		}
		switch {
		case cur == nil:
			msgs = append(msgs, fmt.Sprintf(MsgPropImmutableDel, old.PropertyURN))
		case !sameValues(cur.Values, old.Values):
			msgs = append(msgs, fmt.Sprintf(MsgPropImmutable, old.PropertyURN))
		}
	}
	return msgs
}

func sameValues(a, b []propValue) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].equal(b[i]) {
			return false
		}
	}
	return true
}

// checkStructuredProperties applies DataHub's checks of structured property
// values to the structuredProperties values of a batch about to be
// written (UPSERT, CREATE, CREATE_ENTITY): the values against their
// definitions, and immutable properties against the latest value. The
// first failing proposal is refused (Invalid); nil when all pass.
func (c *Core) checkStructuredProperties(ps []Proposal) *Error {
	for i := range ps {
		p := &ps[i]
		if p.AspectName != aspectStructuredProperties || p.Aspect == nil {
			continue
		}
		switch p.ChangeType {
		case "UPSERT", "CREATE", "CREATE_ENTITY":
		default:
			continue
		}
		var prev json.RawMessage
		if a, err := c.st.Get(p.EntityURN, aspectStructuredProperties, 0); err == nil {
			prev = a.Value
		} else if !errors.Is(err, store.ErrNotFound) {
			return errorf(Internal, MsgStore, err)
		}
		f := c.propFactsOf(p.EntityURN, p.Aspect, prev)
		msgs := append(checkAssignments(p.EntityURN, p.Aspect, f), immutableChanges(prev, p.Aspect, f)...)
		if len(msgs) > 0 {
			return errorf(Invalid, MsgPropInvalid, p.EntityURN, JoinMessages(msgs, ", "))
		}
	}
	return nil
}
