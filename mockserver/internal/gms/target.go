package gms

import (
	"hash/maphash"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

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
	return CheckTargetHashed(u, URNHash(u))
}

// URNHash is the hash of a URN's text by which CheckTarget remembers it:
// the same for the same text within the process, so that an adapter that
// needs a hash of the URN too hashes it once ([CheckTargetHashed]).
func URNHash(u string) uint64 { return maphash.String(targetSeed, u) }

// CheckTargetHashed is CheckTarget for u whose URNHash is h. The answer
// does not depend on h (a Target is remembered with its URN, and found
// only for the same one): another h only finds the memory in another
// place.
func CheckTargetHashed(u string, h uint64) (Target, *Error) {
	first, second := memoSlots(h)
	if t := first.Load(); t != nil && t.URN == u {
		return *t, nil
	}
	other := second.Load()
	if other != nil && other.URN == u {
		return *other, nil
	}
	t, err := checkTarget(u)
	if err == nil {
		if other == nil && first.Load() != nil {
			second.Store(&t) // the first slot's URN stays remembered too
		} else {
			first.Store(&t)
		}
	}
	return t, err
}

// targetMemo remembers the Targets CheckTarget returned without an error,
// so that an adapter checking the URNs of a batch of known entities pays a
// hash and a comparison each instead of the URN cache's lookup (which the
// core's own check of the proposal makes again). A URN has two slots by
// its hash (memoSlots): it goes to the second when that is empty and the
// first is not, else to the first, replacing what was there; so two URNs
// of one first slot (about 5 pairs among a batch's 200 URNs) are both
// remembered. A Target is a function of the URN's text only.
var targetMemo [1 << 12]atomic.Pointer[Target]

// memoSlots returns the slots of targetMemo of the URN whose hash is h:
// by its low bits and by its high bits.
func memoSlots(h uint64) (first, second *atomic.Pointer[Target]) {
	n := uint64(len(targetMemo))
	return &targetMemo[h%n], &targetMemo[(h>>32)%n]
}

// targetSeed seeds targetMemo's slots.
var targetSeed = maphash.MakeSeed()

// checkTarget is CheckTarget without targetMemo.
func checkTarget(u string) (Target, *Error) {
	if _, ok := cachedURNFacts(u); !ok {
		parsed, parts, err := checkURN(u)
		if err != nil {
			return Target{}, err
		}
		if e, ok := lookupEntity(parsed.EntityType()); ok {
			if key, kerr := checkKey(e, u, parts); kerr == nil {
				cacheURNFacts(u, urnFacts{entity: e, key: key, aspects: allowedAspects()[e.Name]})
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
// which a batchGet leaves out, and a write too unless
// [Core.CheckItemAspect] refuses it.
func ItemAspect(t Target, key string) (name string, ok bool) {
	return ResolveAspect(t.Entity, key)
}

// CheckItemAspect decides a member of an OpenAPI v3 write's batch item
// that names no aspect of t's entity (see [ItemAspect]). Under DataHub's
// quickstart setting ALTERNATE_MCP_VALIDATION=true, GMS builds a proposed
// item for it, which validation refuses: Invalid, the whole write refused.
// Under GMS's code default ([Options.LenientMCPValidation]) the item
// cannot be built and is left out of the batch: nil.
func (c *Core) CheckItemAspect(t Target, key string) *Error {
	if _, ok := ResolveAspect(t.Entity, key); ok || c.opts.LenientMCPValidation {
		return nil
	}
	return errorf(Invalid, MsgUnknownAspect, Abbreviate(key), t.Entity.Name)
}
