package gms

import (
	"encoding/json"
	"sync"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// lookupEntity is pdl.LookupEntity without its copy of the entity's
// aspect list, for the mock's read-only use.
func lookupEntity(name string) (pdl.Entity, bool) {
	e, ok := pdl.Registered(name)
	if !ok {
		return pdl.Entity{}, false
	}
	return *e, true
}

// aspectFacts are what prepare needs of an aspect an entity type allows.
type aspectFacts struct {
	info pdl.AspectInfo
	// validated is validated(info): the aspect has a PDL record.
	validated bool
	// floats is hasFloats(info.RecordName): the record can hold a float
	// or a double.
	floats bool
	// held is the aspect's record as its entity type holds it (for the
	// URN checks), found once.
	held pdl.Held
}

// allowedAspects are, by entity type, the facts of the aspects it allows
// (its key aspect included) that the registry describes, built once.
var allowedAspects = sync.OnceValue(func() map[string]map[string]aspectFacts {
	out := make(map[string]map[string]aspectFacts, len(pdl.Registry()))
	for _, e := range pdl.Registry() {
		name := e.Name
		m := make(map[string]aspectFacts, len(e.Aspects)+1)
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if info, ok := pdl.LookupAspect(a); ok && e.Allows(a) {
				held, _ := pdl.HeldRecord(name, info.RecordName)
				if a == "ownership" && held.Valid() {
					held = ownershipMarked(held) // for the ownerTypes hook
				}
				m[a] = aspectFacts{info: info, validated: validated(info), floats: hasFloats(info.RecordName), held: held}
			}
		}
		out[name] = m
	}
	return out
})

// allowedAspect returns the facts of aspect when entity type entity allows
// it and the registry describes it.
func allowedAspect(entity, aspect string) (aspectFacts, bool) {
	af, ok := allowedAspects()[entity][aspect]
	return af, ok
}

// urnFacts is what prepare derives from a proposal's entityUrn alone, once
// every check on it passed: the URN's entity and its key aspect JSON.
type urnFacts struct {
	entity pdl.Entity
	key    json.RawMessage // shared, read-only
	// aspects are the entity's allowed aspects (allowedAspects), so that
	// a proposal with a known URN looks its aspect up in one map.
	aspects map[string]aspectFacts
}

// maxURNFacts bounds urnFactsCache; when full it starts over.
const maxURNFacts = 1 << 14

// urnFactsCache remembers urnFacts of URNs that passed checkURN, the entity
// lookup and checkKey. Those are functions of the URN text only, so a hit
// answers as the checks would. Reads take no lock, so that concurrent
// requests do not queue on it.
var urnFactsCache struct {
	m sync.Map // URN to urnFacts
	n atomic.Int64
}

func cachedURNFacts(u string) (urnFacts, bool) {
	f, ok := urnFactsCache.m.Load(u)
	if !ok {
		return urnFacts{}, false
	}
	return f.(urnFacts), true
}

func cacheURNFacts(u string, f urnFacts) {
	if urnFactsCache.n.Add(1) > maxURNFacts {
		urnFactsCache.m.Clear()
		urnFactsCache.n.Store(1)
	}
	urnFactsCache.m.Store(u, f)
}
