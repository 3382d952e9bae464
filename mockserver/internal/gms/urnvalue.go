package gms

import (
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// GMS checks every URN-typed value of an aspect and of a key aspect (a
// string whose schema is a typeref named "...Urn") with its entity-registry
// URN validator (EntityRegistryUrnValidator), once the record is otherwise
// valid. package pdl finds the values and reports the failure at its path;
// urnValueReason is the rule it applies to each.
func init() { pdl.SetURNCheck(urnValueReason) }

// urnValueReason returns why GMS refuses s as a value of the URN typeref u,
// "" when it accepts it: s must parse as a URN, of an entity type of the
// registry, with as many parts as that entity's key aspect has fields, and,
// when u's Java class is a typed one (DatasetUrn, MLFeatureUrn, ...), be a
// URN of the class's entity type whose parts parse as that type's (raw
// parentheses and commas inside a part allowed, as for the URN of a write). The
// reason quotes s abbreviated (see [Abbreviate]).
func urnValueReason(u pdl.URNTyperef, s string) string {
	g, err := urn.ParseGeneric(s)
	if err != nil {
		return Abbreviate(parseReason(err))
	}
	et := g.EntityType()
	e, ok := lookupEntity(et)
	if !ok {
		return fmt.Sprintf(MsgURNEntityUnknown, Abbreviate(et))
	}
	if names, _, ok := keyFields(e); ok && countParts(g.ID()) != len(names) {
		return fmt.Sprintf(MsgURNKeyLength, Abbreviate(s))
	}
	if u.EntityType == "" {
		return ""
	}
	if et == u.EntityType && typedParses(s) {
		return ""
	}
	return fmt.Sprintf(MsgURNClass, u.Name[strings.LastIndexByte(u.Name, '.')+1:], Abbreviate(s))
}

// typedParses reports whether s, a URN that parsed, parses as its typed
// class does in GMS: as package urn parses it, or with raw "(", ")" or ","
// inside a part, which GMS's typed URN classes take (their parts are split
// at the tuple's top-level commas) as its write checks do by default (see
// parseWarnOnly).
func typedParses(s string) bool {
	if _, err := urn.Parse(s); err == nil {
		return true
	}
	_, ok := parseWarnOnly(s)
	return ok
}

// countParts returns the number of parts of the id of a URN that parsed, as
// urn.Generic's Parts splits it (without building them): the commas of a
// tuple "(a,b,...)" outside nested parentheses, plus one; 1 for any other id.
func countParts(id string) int {
	if len(id) < 2 || id[0] != '(' || id[len(id)-1] != ')' {
		return 1
	}
	n, depth := 1, 0
	for i := 1; i < len(id)-1; i++ {
		switch id[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				n++
			}
		}
	}
	return n
}
