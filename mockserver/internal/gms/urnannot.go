package gms

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// DataHub's texts of its check of @UrnValidation fields
// (UrnAnnotationValidator), and the mock's wrapper of one write's failures.
const (
	MsgURNMissing   = "Urn validation failure. Urn does not exist. Path: %s Urn: %s"
	MsgURNWrongType = "Invalid entity type urn validation failure (Required: %s). Path: %s Urn: %s"
	// MsgAspectInvalid wraps the failures of one write as DataHub's
	// ValidationExceptionCollection prints them (approximately: the mock
	// lists the messages only).
	MsgAspectInvalid = "ValidationExceptionCollection{EntityAspect:(%s, %s) Exceptions: [%s]}"
)

// urnEntry is a URN found at an annotated field of an aspect.
type urnEntry struct {
	path, urn string
	check     *pdl.URNValidation
}

// annotatedURNs walks an aspect's JSON as DataHub's UrnValidationUtil
// does: a field whose path ("/a/b", "*" for the records of an array) is
// annotated gives its string, or each string of its array.
func annotatedURNs(v any, path string, checks []pdl.URNValidation, out []urnEntry) []urnEntry {
	obj, ok := v.(map[string]any)
	if !ok {
		return out
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := path + "/" + k
		val := obj[k]
		for i := range checks {
			if checks[i].Path != p {
				continue
			}
			switch x := val.(type) {
			case string:
				out = append(out, urnEntry{p, x, &checks[i]})
			case []any:
				for _, it := range x {
					if s, ok := it.(string); ok {
						out = append(out, urnEntry{p, s, &checks[i]})
					}
				}
			}
		}
		switch x := val.(type) {
		case map[string]any:
			out = annotatedURNs(x, p, checks, out)
		case []any:
			for _, it := range x {
				out = annotatedURNs(it, p+"/*", checks, out)
			}
		}
	}
	return out
}

// javaList prints strings as Java prints a List ([a, b]).
func javaList(ss []string) string { return "[" + strings.Join(ss, ", ") + "]" }

// urnFailures applies DataHub's UrnAnnotationValidator to one aspect value:
// each URN of an annotated field must be well formed (strict) and of an
// allowed entity type; when all of them are, each one of an "exist" field
// must name an entity that exists (soft-deleted ones do; so do the entities
// a fresh GMS bootstraps, see [IsBootstrapped]). It returns the failures'
// messages, nil when the value passes.
func (c *Core) urnFailures(aspect string, value json.RawMessage) []string {
	checks := pdl.URNValidations(aspect)
	if len(checks) == 0 || len(value) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(value, &v) != nil {
		return nil // the record check refuses it
	}
	entries := annotatedURNs(v, "", checks, nil)
	var msgs []string
	for _, e := range entries {
		if e.check.Strict {
			if _, err := CheckURN(e.urn); err != nil {
				msgs = append(msgs, err.Message)
				continue
			}
		}
		if t := EntityTypeOf(e.urn); len(e.check.EntityTypes) > 0 && !slices.Contains(e.check.EntityTypes, t) {
			msgs = append(msgs, fmt.Sprintf(MsgURNWrongType, javaList(e.check.EntityTypes), e.path, e.urn))
		}
	}
	if len(msgs) > 0 {
		return msgs // GMS checks existence only for items without other failures
	}
	for _, e := range entries {
		if e.check.Exist && !IsBootstrapped(e.urn) && !c.st.Exists(e.urn) {
			msgs = append(msgs, fmt.Sprintf(MsgURNMissing, e.path, e.urn))
		}
	}
	return msgs
}

// checkURNAnnotations applies [Core.urnFailures] to the aspects of a batch
// about to be written (UPSERT, UPDATE, CREATE, CREATE_ENTITY; a restate is
// not checked, as GMS lets restores come in any order). The first failing
// proposal is refused (Invalid); nil when all pass.
func (c *Core) checkURNAnnotations(ps []Proposal) *Error {
	for i := range ps {
		p := &ps[i]
		if p.Aspect == nil {
			continue
		}
		switch p.ChangeType {
		case "UPSERT", "UPDATE", "CREATE", "CREATE_ENTITY":
		default:
			continue
		}
		if msgs := c.urnFailures(p.AspectName, p.Aspect); len(msgs) > 0 {
			return errorf(Invalid, MsgAspectInvalid, p.EntityURN, p.AspectName, JoinMessages(msgs, ", "))
		}
	}
	return nil
}
