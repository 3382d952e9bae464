package graphql

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// Inline resolvers. The nested fields' resolvers take no context and
// return no error: an entity keeps the request's context from its load, and
// a resolver that fails calls fail, whose panic the executor recovers in the
// field's own frame and turns into the same error (message, path,
// extensions) a returned error gives. No panic leaves the executor.

// failure is the panic value of fail.
type failure struct{ err *gqlError }

// fail ends the current field resolver with err.
func fail(err *gqlError) { panic(failure{err}) }

// must returns v, or ends the current field resolver with err.
func must[T any](v T, err *gqlError) T {
	if err != nil {
		fail(err)
	}
	return v
}

// must0 is must of a call with no value.
func must0(err *gqlError) {
	if err != nil {
		fail(err)
	}
}

// decodeCache holds decoded aspect values by aspect name and stored JSON, so
// that an unchanged aspect is decoded once rather than once per query. The
// stored bytes are the key, so a cached value is exactly what decoding them
// gives; cached values are shared and never modified. It is emptied when
// what it holds reaches maxCachedBytes.
type decodeCache struct {
	mu    sync.RWMutex
	m     map[string]map[string]any // aspect name → JSON → *T
	bytes int                       // the JSON held, counted cachedCost times
}

// maxCachedBytes bounds a decodeCache. An entry counts cachedCost times its
// JSON: the key, and the decoded value (estimated at twice the JSON).
const (
	maxCachedBytes = 32 << 20
	cachedCost     = 3
)

// decode returns raw decoded as a *T, from the cache when it holds one.
func decode[T any](c *decodeCache, name string, raw json.RawMessage, urn string) (*T, *gqlError) {
	c.mu.RLock()
	v, ok := c.m[name][string(raw)].(*T)
	c.mu.RUnlock()
	if ok {
		return v, nil
	}
	v = new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, serverError(fmt.Sprintf(msgMapAspect, name, gms.Abbreviate(urn), err))
	}
	if d, ok := any(v).(afterDecoder); ok {
		d.afterDecode(name)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cost := cachedCost * len(raw)
	if cost > maxCachedBytes/4 {
		return v, nil // too large to keep
	}
	if c.m == nil || c.bytes+cost > maxCachedBytes {
		c.m, c.bytes = map[string]map[string]any{}, 0
	}
	byJSON := c.m[name]
	if byJSON == nil {
		byJSON = map[string]any{}
		c.m[name] = byJSON
	}
	if _, had := byJSON[string(raw)]; !had {
		c.bytes += cost
	}
	byJSON[string(raw)] = v
	return v, nil
}
