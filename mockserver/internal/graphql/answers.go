package graphql

import (
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The answer cache. A read whose every root field reads only the core's
// versioned store (storeRoots) is a function of the request body and of the
// store's contents, so its answer is kept by body and reused while the store
// has not changed: the handler's version function (the store's write
// count, which every committed write advances, read without a lock) is read
// after the core's barrier, before the request runs, and again after it; an
// answer is kept only when the two agree, no error was answered and nothing
// but store reads ran. A read of the search index (whose contents lag the store on the
// clock), a scroll (which keeps state in the index) and every mutation run
// each time. The executor notes the root fields that run.

// storeRoots are the Query fields whose resolvers, down to every nested
// field, read only the core's versioned store. Any other root field (search,
// lineage, every mutation) keeps its request's answer out of the cache; the
// introspection fields, answered from the schema alone, are not resolvers
// and do not either.
var storeRoots = map[string]bool{
	"dataPlatform": true, "dataset": true, "mlModel": true, "mlModelGroup": true, "mlFeature": true,
	"mlFeatureTable": true, "entityExists": true, "entity": true, "entities": true,
}

// maxAnswerBytes bounds an answerCache: the request bodies and answers it
// holds. A single answer larger than a quarter of it is not kept.
const maxAnswerBytes = 16 << 20

// answerCache holds the answers of store reads at one store version, by
// request body. An answer of a newer version empties it.
type answerCache struct {
	mu      sync.RWMutex
	version uint64
	m       map[string][]byte // request body → response body
	bytes   int
	// lengths are the Content-Length header values of the answers held, by
	// length (shared: net/http only reads them).
	lengths map[int][]string
}

// keptAnswer is a kept response body and its Content-Length header value.
type keptAnswer struct {
	body   []byte
	length []string
}

// get returns the answer kept for body at version.
func (c *answerCache) get(body []byte, version uint64) ([]byte, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.m == nil || c.version != version {
		return nil, false
	}
	out, ok := c.m[string(body)]
	return out, ok
}

// kept is get with the answer's Content-Length value.
func (c *answerCache) kept(body []byte, version uint64) (keptAnswer, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.m == nil || c.version != version {
		return keptAnswer{}, false
	}
	out, ok := c.m[string(body)]
	if !ok {
		return keptAnswer{}, false
	}
	return keptAnswer{out, c.lengths[len(out)]}, true
}

// put keeps a copy of answer as the answer to body at version.
func (c *answerCache) put(body, answer []byte, version uint64) {
	cost := len(body) + len(answer)
	if cost > maxAnswerBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil && version < c.version {
		return // an answer of a version already replaced
	}
	if c.m == nil || c.version != version || c.bytes+cost > maxAnswerBytes {
		c.m, c.version, c.bytes, c.lengths = map[string][]byte{}, version, 0, map[int][]string{}
	}
	if _, had := c.m[string(body)]; had {
		return
	}
	c.m[string(body)] = append([]byte(nil), answer...)
	c.bytes += cost
	if _, had := c.lengths[len(answer)]; !had {
		c.lengths[len(answer)] = []string{strconv.Itoa(len(answer))}
	}
}

// execState is what the handler and a request's execution tell each other.
type execState struct {
	// versioned is whether the handler knows the store's position, and
	// version the position read when the request began.
	versioned bool
	version   uint64
	// other is set when a field other than a storeRoots one ran at the root.
	other atomic.Bool
	// searches counts the search fields that began (see MaxSearches).
	searches atomic.Int32
}

type execStateKey struct{}

// The entity cache. What load reads of an entity through the core (its
// latest aspects, its key and its properties decoded) is a function of the
// store's contents too, so it is kept by URN for the requests that begin at
// the same store position: a request that reads an entity another request
// (or another field) read at its position reads it as of that position,
// without the core. An entity is kept only when the position did not move
// while it was loaded.

// loadedEntity is an entity as load reads it: shared, never modified.
type loadedEntity struct {
	aspects []gms.Aspect
	key     *keyJSON
	props   any
}

// maxLoadedBytes bounds an entityCache by the JSON of the aspects it holds.
const maxLoadedBytes = 32 << 20

// entityCache holds the entities loaded at one store position, by URN. An
// entity of a newer position empties it.
type entityCache struct {
	mu      sync.RWMutex
	version uint64
	m       map[string]*loadedEntity
	bytes   int
}

// get returns the entity kept for urn at version.
func (c *entityCache) get(urn string, version uint64) (*loadedEntity, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.m == nil || c.version != version {
		return nil, false
	}
	l, ok := c.m[urn]
	return l, ok
}

// put keeps l as urn's entity at version.
func (c *entityCache) put(urn string, l *loadedEntity, version uint64) {
	cost := len(urn)
	for _, a := range l.aspects {
		cost += len(a.Name) + len(a.Value)
	}
	if cost > maxLoadedBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil && version < c.version {
		return
	}
	if c.m == nil || c.version != version || c.bytes+cost > maxLoadedBytes {
		c.m, c.version, c.bytes = map[string]*loadedEntity{}, version, 0
	}
	if _, had := c.m[urn]; !had {
		c.bytes += cost
	}
	c.m[urn] = l
}
