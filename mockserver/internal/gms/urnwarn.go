package gms

import (
	"strings"

	"github.com/catalogkit/datahub-go/urn"
)

// reservedEscaper escapes the characters DataHub's UrnValidationUtil looks
// for in a URN part.
var reservedEscaper = strings.NewReplacer("(", "%28", ")", "%29", ",", "%2C")

// parseWarnOnly parses u as DataHub accepts it with strict URN validation
// off (its default): raw "(", ")" or "," inside a part that is not a URN
// only make GMS log a warning. u is accepted when it is valid once those
// characters are escaped; the URN returned is then a [urn.Generic], as the
// typed form cannot hold them.
func parseWarnOnly(u string) (urn.URN, bool) {
	g, err := urn.ParseGeneric(u)
	if err != nil {
		return nil, false
	}
	id := g.ID()
	tuple := len(id) >= 2 && id[0] == '(' && id[len(id)-1] == ')'
	parts := g.Parts()
	for i, p := range parts {
		if !strings.HasPrefix(p, "urn:li:") {
			parts[i] = reservedEscaper.Replace(p)
		}
	}
	escaped := "urn:li:" + g.EntityType() + ":" + strings.Join(parts, ",")
	if tuple {
		escaped = "urn:li:" + g.EntityType() + ":(" + strings.Join(parts, ",") + ")"
	}
	if escaped == u {
		return nil, false
	}
	if _, err := urn.Parse(escaped); err != nil {
		return nil, false
	}
	return g, true
}

// CheckReadTarget checks u as DataHub's OpenAPI reads do: only its syntax
// (Urn.createFromString), where a write makes every check of [CheckTarget].
// A URN that passes the syntax but not the rest can have no rows: absent is
// true, and the read answers not found.
func CheckReadTarget(u string) (t Target, absent bool, err *Error) {
	t, err = CheckTarget(u)
	if err == nil {
		return t, false, nil
	}
	if _, perr := urn.ParseGeneric(u); perr != nil {
		return Target{}, false, err
	}
	t = Target{URN: u}
	t.Entity, t.Known = ResolveEntity(EntityTypeOf(u))
	return t, true, nil
}
