package gms

import "github.com/catalogkit/datahub-go/internal/pdl"

// Target is an entity URN as a request names it (a path or a batch
// element of the OpenAPI entity API), checked by [CheckTarget].
type Target struct {
	// URN is the URN as given.
	URN string
	// Entity is the registry entity its type names, in any case, as
	// DataHub's OpenAPI request parser finds it; Known reports whether there
	// is one.
	Entity pdl.Entity
	Known  bool
}

// CheckTarget checks u as GMS checks an entity URN ([CheckURN]: a
// BadArgument on failure) and finds its entity, for an adapter that needs
// the entity before it builds proposals. It makes the checks of a
// proposal's entityUrn once: it remembers a URN that passes them all, as
// Ingest does, so that neither checks it again while it is remembered (the
// last 16,384 such URNs at the most).
func CheckTarget(u string) (Target, *Error) {
	if _, ok := cachedURNFacts(u); !ok {
		parsed, parts, err := checkURN(u)
		if err != nil {
			return Target{}, err
		}
		if e, ok := lookupEntity(parsed.EntityType()); ok {
			if key, kerr := checkKey(e, u, parts); kerr == nil {
				cacheURNFacts(u, urnFacts{entity: e, key: key})
			}
		}
	}
	t := Target{URN: u}
	t.Entity, t.Known = ResolveEntity(EntityTypeOf(u))
	return t, nil
}

// ItemAspect resolves a member of an OpenAPI v3 batch item (an entity's
// object of aspects, for a write or a batchGet) to the aspect of t's entity
// it names ([ResolveAspect]); ok is false for a member that names none,
// which GMS leaves out of the batch: the default of its
// alternateMCPValidation (false), under which EntityController builds no
// item for an aspect it cannot find. (DataHub's quickstart sets
// ALTERNATE_MCP_VALIDATION=true, which refuses the write instead; the mock
// keeps the server's default.)
func ItemAspect(t Target, key string) (name string, ok bool) {
	return ResolveAspect(t.Entity, key)
}
