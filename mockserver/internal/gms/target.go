package gms

import "github.com/catalogkit/datahub-go/internal/pdl"

// Target is an entity URN as a request names it (a path or a batch
// element of the OpenAPI entity API), checked once by [CheckTarget]. A
// [Proposal] that carries the Target of its EntityURN is not checked again.
type Target struct {
	// URN is the URN as given.
	URN string
	// Entity is the registry entity its type names, in any case, as
	// DataHub's OpenAPI request parser finds it; Known reports whether there
	// is one.
	Entity pdl.Entity
	Known  bool
	// facts are what a proposal naming URN by entityUrn needs of it, when
	// every check of an entityUrn passed (set is false otherwise: the
	// proposal's own check then reports what fails).
	facts urnFacts
	set   bool
}

// CheckTarget checks u as GMS checks an entity URN ([CheckURN]: a
// BadArgument on failure) and finds its entity, for an adapter that needs
// the entity before it builds proposals. Ingest takes the checks it made
// from the Target instead of making them again.
func CheckTarget(u string) (Target, *Error) {
	t := Target{URN: u}
	if f, ok := cachedURNFacts(u); ok {
		t.facts, t.set = f, true
	} else {
		parsed, err := CheckURN(u)
		if err != nil {
			return Target{}, err
		}
		if e, ok := lookupEntity(parsed.EntityType()); ok {
			if key, kerr := checkKey(e, u); kerr == nil {
				t.facts, t.set = urnFacts{entity: e, key: key}, true
				cacheURNFacts(u, t.facts)
			}
		}
	}
	t.Entity, t.Known = ResolveEntity(EntityTypeOf(u))
	return t, nil
}

// factsOf returns what t (nil: none) holds of the checks of entityUrn u,
// if any.
func (t *Target) factsOf(u string) (urnFacts, bool) {
	if t == nil || !t.set || t.URN != u {
		return urnFacts{}, false
	}
	return t.facts, true
}
