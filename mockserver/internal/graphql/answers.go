package graphql

import (
	"context"
	"sync"
	"sync/atomic"

	qerrors "github.com/graph-gophers/graphql-go/errors"
	"github.com/graph-gophers/graphql-go/introspection"
	"github.com/graph-gophers/graphql-go/trace/tracer"
)

// The answer cache. A read whose every root field reads only the core's
// versioned store (storeRoots) is a function of the request body and of the
// store's contents, so its answer is kept by body and reused while the store
// has not changed: the handler's version function (the store's event
// position, which every committed change advances) is read after the core's
// barrier, before the request runs, and again after it; an answer is kept
// only when the two agree, no error was answered and nothing but store reads
// ran. A read of the search index (whose contents lag the store on the
// clock), a scroll (which keeps state in the index) and every mutation run
// each time. The root fields that ran are known from the schema's tracer.

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
		c.m, c.version, c.bytes = map[string][]byte{}, version, 0
	}
	if _, had := c.m[string(body)]; had {
		return
	}
	c.m[string(body)] = append([]byte(nil), answer...)
	c.bytes += cost
}

// execState is what a request's execution tells the handler about itself.
type execState struct {
	// other is set when a field other than a storeRoots one ran at the root.
	other atomic.Bool
}

type execStateKey struct{}

// rootTracer is the schema's tracer: it marks the execState of a request in
// which a root field other than a storeRoots one runs.
type rootTracer struct{}

func (rootTracer) TraceQuery(ctx context.Context, _, _ string, _ map[string]any, _ map[string]*introspection.Type) (context.Context, tracer.QueryFinishFunc) {
	return ctx, finishQuery
}

func (rootTracer) TraceField(ctx context.Context, _, typeName, fieldName string, _ bool, _ map[string]any) (context.Context, tracer.FieldFinishFunc) {
	if typeName == "Query" && storeRoots[fieldName] {
		return ctx, finishField
	}
	if typeName == "Query" || typeName == "Mutation" {
		if st, ok := ctx.Value(execStateKey{}).(*execState); ok {
			st.other.Store(true)
		}
	}
	return ctx, finishField
}

func (rootTracer) TraceValidation(context.Context) tracer.ValidationFinishFunc {
	return finishValidation
}

func finishQuery([]*qerrors.QueryError)      {}
func finishField(*qerrors.QueryError)        {}
func finishValidation([]*qerrors.QueryError) {}
