package gms

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// DataHub's texts of its structured property definition checks
// (PropertyDefinitionValidator).
const (
	MsgDefSoftDeleted   = "Cannot mutate a soft deleted Structured Property Definition"
	MsgDefVersionFormat = "Invalid version specified. Must match [0-9]{14}"
	MsgDefVersionDot    = "Invalid version `%s` cannot contain the `.` character."
	MsgDefURNSpaces     = "Urn ID cannot have spaces"
	MsgDefNameSpaces    = "Qualified names cannot have spaces"
	MsgDefAllowedType   = "Provided allowedType that is not an entityType entity. List of allowedTypes: %s"
	MsgDefValueType     = "Value type cannot be changed as this is a backwards incompatible change"
	MsgDefCardinality   = "Property definition cardinality cannot be changed from MULTI to SINGLE"
	MsgDefRename        = "Cannot change the fully qualified name of a Structured Property"
	MsgDefRestrict      = "Cannot restrict values that were previously allowed"
	// MsgDefInvalid wraps the failures of one write as
	// ValidationExceptionCollection prints them (approximately: the mock
	// lists the messages only).
	MsgDefInvalid = "ValidationExceptionCollection{EntityAspect:(%s, propertyDefinition) Exceptions: [%s]}"
)

// defVersion is the format of a definition's version (a timestamp such as
// 20250131120000).
var defVersion = regexp.MustCompile(`^[0-9]{14}$`)

// fullDefinition is what the definition checks read of a propertyDefinition.
type fullDefinition struct {
	QualifiedName string              `json:"qualifiedName"`
	ValueType     string              `json:"valueType"`
	Cardinality   string              `json:"cardinality"`
	Version       *string             `json:"version"`
	TypeQualifier map[string][]string `json:"typeQualifier"`
	AllowedValues []struct {
		Value propValue `json:"value"`
	} `json:"allowedValues"`
}

// cardinality is the definition's cardinality (SINGLE when unset, its
// PDL default).
func (d *fullDefinition) cardinality() string {
	if d.Cardinality == "" {
		return "SINGLE"
	}
	return d.Cardinality
}

// checkPropertyDefinitions applies DataHub's PropertyDefinitionValidator to
// the propertyDefinition values of a batch about to be written (UPSERT,
// CREATE, CREATE_ENTITY): no change to a soft-deleted property; a version,
// when given, of 14 digits; no spaces in the URN's id or the qualified
// name; allowed types that are entity type URNs; and against the stored
// definition, no change of the qualified name, and no change of the value
// type, from MULTIPLE to SINGLE or removal of allowed values unless the
// version grows. The first failing proposal is refused (Invalid). The
// mock does not check Elasticsearch field-name collisions (names that
// differ by "." and "_") or that the allowed entity types exist.
func (c *Core) checkPropertyDefinitions(ps []Proposal) *Error {
	for i := range ps {
		p := &ps[i]
		if p.AspectName != aspectPropertyDefinition || p.Aspect == nil {
			continue
		}
		switch p.ChangeType {
		case "UPSERT", "CREATE", "CREATE_ENTITY":
		default:
			continue
		}
		var next fullDefinition
		if json.Unmarshal(p.Aspect, &next) != nil {
			continue // the schema check refuses it
		}
		var prev *fullDefinition
		if a, err := c.st.Get(p.EntityURN, aspectPropertyDefinition, 0); err == nil {
			prev = new(fullDefinition)
			if json.Unmarshal(a.Value, prev) != nil {
				prev = nil
			}
		} else if !errors.Is(err, store.ErrNotFound) {
			return errorf(Internal, MsgStore, err)
		}
		removed := false
		if s, err := c.st.Get(p.EntityURN, "status", 0); err == nil {
			removed = Removed(s.Value)
		}
		if msgs := definitionChecks(p.EntityURN, removed, prev, &next); len(msgs) > 0 {
			return errorf(Invalid, MsgDefInvalid, p.EntityURN, JoinMessages(msgs, ", "))
		}
	}
	return nil
}

// definitionChecks are the failures of writing next over prev (nil: a new
// property) to property u, in DataHub's order.
func definitionChecks(u string, removed bool, prev, next *fullDefinition) []string {
	var msgs []string
	if removed {
		msgs = append(msgs, MsgDefSoftDeleted)
	}
	if next.Version != nil && !defVersion.MatchString(*next.Version) {
		msgs = append(msgs, MsgDefVersionFormat)
	}
	if strings.Contains(strings.TrimPrefix(u, "urn:li:structuredProperty:"), " ") {
		msgs = append(msgs, MsgDefURNSpaces)
	}
	if strings.Contains(next.QualifiedName, " ") {
		msgs = append(msgs, MsgDefNameSpaces)
	}
	if types, ok := next.TypeQualifier["allowedTypes"]; ok {
		for _, t := range types {
			if !strings.HasPrefix(t, "urn:li:entityType:") {
				msgs = append(msgs, fmt.Sprintf(MsgDefAllowedType, "["+strings.Join(types, ", ")+"]"))
				break
			}
		}
	}
	if prev == nil {
		return msgs
	}
	// breaking says whether a breaking change is allowed: the version
	// grows (case-insensitively); a version with a "." is refused each
	// time it is asked, as DataHub does.
	breaking := func() bool {
		if next.Version == nil {
			return false
		}
		if strings.Contains(*next.Version, ".") {
			msgs = append(msgs, fmt.Sprintf(MsgDefVersionDot, *next.Version))
		}
		if prev.Version == nil {
			return true
		}
		return strings.ToLower(*next.Version) > strings.ToLower(*prev.Version)
	}
	if next.ValueType != prev.ValueType && !breaking() {
		msgs = append(msgs, MsgDefValueType)
	}
	if next.cardinality() == "SINGLE" && prev.cardinality() == "MULTIPLE" && !breaking() {
		msgs = append(msgs, MsgDefCardinality)
	}
	if next.QualifiedName != prev.QualifiedName {
		msgs = append(msgs, MsgDefRename)
	}
	if next.AllowedValues != nil {
		if prev.AllowedValues == nil {
			if !breaking() {
				msgs = append(msgs, MsgDefRestrict)
			}
		} else if !breaking() {
			for _, old := range prev.AllowedValues {
				kept := false
				for _, v := range next.AllowedValues {
					if v.Value.equal(old.Value) {
						kept = true
						break
					}
				}
				if !kept {
					msgs = append(msgs, MsgDefRestrict)
				}
			}
		}
	}
	return msgs
}
