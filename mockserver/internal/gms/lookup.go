package gms

import (
	"encoding/json"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// entityTable is the entity registry by name, built once: pdl.LookupEntity
// copies an entity's aspect list on every call, and the mock only reads it.
var entityTable = sync.OnceValue(func() map[string]pdl.Entity {
	es := pdl.Entities()
	m := make(map[string]pdl.Entity, len(es))
	for _, e := range es {
		m[e.Name] = e
	}
	return m
})

// lookupEntity is pdl.LookupEntity for read-only use.
func lookupEntity(name string) (pdl.Entity, bool) {
	e, ok := entityTable()[name]
	return e, ok
}

// urnFacts is what prepare derives from a proposal's entityUrn alone, once
// every check on it passed: the URN's entity and its key aspect JSON.
type urnFacts struct {
	entity pdl.Entity
	key    json.RawMessage // shared, read-only
}

// maxURNFacts bounds urnFactsCache; when full it starts over.
const maxURNFacts = 1 << 14

// urnFactsCache remembers urnFacts of URNs that passed checkURN, the entity
// lookup and checkKey. Those are functions of the URN text only, so a hit
// answers as the checks would.
var urnFactsCache struct {
	mu sync.Mutex
	m  map[string]urnFacts
}

func cachedURNFacts(u string) (urnFacts, bool) {
	urnFactsCache.mu.Lock()
	f, ok := urnFactsCache.m[u]
	urnFactsCache.mu.Unlock()
	return f, ok
}

func cacheURNFacts(u string, f urnFacts) {
	urnFactsCache.mu.Lock()
	defer urnFactsCache.mu.Unlock()
	if urnFactsCache.m == nil || len(urnFactsCache.m) >= maxURNFacts {
		urnFactsCache.m = make(map[string]urnFacts)
	}
	urnFactsCache.m[u] = f
}
