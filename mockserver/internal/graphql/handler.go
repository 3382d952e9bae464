package graphql

import (
	"bytes"
	"context"
	_ "embed" // the schema
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	graphqlgo "github.com/graph-gophers/graphql-go"
	qerrors "github.com/graph-gophers/graphql-go/errors"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

//go:embed schema.graphql
var schemaSDL string

// SDL returns the mock's GraphQL schema text.
func SDL() string { return schemaSDL }

// Handler serves DataHub's POST /api/graphql on a core. Authentication,
// body limits and faults are the caller's (the mock's dispatch).
type Handler struct {
	// search replaces the core's searches (tests only; nil: the core).
	search  searcher
	schema  *graphqlgo.Schema
	core    *gms.Core
	version func() uint64
	answers answerCache
}

// The limits of one request. DataHub's GraphQL engine has a depth limit
// (graphQL.query.depthLimit, 50) and a complexity limit
// (graphQL.query.complexityLimit, 2000, where every field costs 1, as
// DataHubFieldComplexityCalculator counts them, so that aliases count too);
// graph-gophers needs two more against documents that are expensive before
// any field is counted: a length limit, and a cap on the pairs of fields its
// overlap validation compares (quadratic in the copies of one field).
const (
	MaxDepth        = 50
	MaxComplexity   = 2000
	MaxQueryLength  = 1 << 20
	MaxOverlapPairs = 20_000
)

// Option configures a [Handler].
type Option func(*Handler)

// WithStoreVersion gives the handler the position of the core's store
// ([gms.Core.StoreVersion], which applies the due async writes first), which
// every change the store commits must advance: with it, the answers of
// reads of the store alone are kept until the store changes (see
// answerCache). Without it every request runs.
func WithStoreVersion(version func() uint64) Option {
	return func(h *Handler) { h.version = version }
}

// New returns a handler whose resolvers read, search and write through
// core.
func New(core *gms.Core, opts ...Option) (*Handler, error) {
	res := &resolver{core: core, search: core}
	s, err := graphqlgo.ParseSchema(schemaSDL, res,
		graphqlgo.UseStringDescriptions(), graphqlgo.UseFieldResolvers(),
		graphqlgo.MaxDepth(MaxDepth), graphqlgo.MaxSelections(MaxComplexity),
		graphqlgo.MaxQueryLength(MaxQueryLength), graphqlgo.OverlapValidationLimit(MaxOverlapPairs),
		graphqlgo.PanicHandler(panicHandler{}), graphqlgo.Logger(panicLogger),
		graphqlgo.Tracer(rootTracer{}))
	if err != nil {
		return nil, err
	}
	h := &Handler{schema: s, core: core}
	for _, o := range opts {
		o(h)
	}
	res.version = h.version
	if h.search != nil {
		res.search = h.search
	}
	return h, nil
}

// request is the body GMS's GraphQLController reads.
type request struct {
	Query         *string        `json:"query"`
	OperationName *string        `json:"operationName"`
	Variables     map[string]any `json:"variables"`
}

// ServeHTTP answers as DataHub's GraphQLController: 405 for a method other
// than POST, 400 with an empty body for a body that is not a JSON object or
// has no query, else 200 with errors (if any), data and extensions.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var version uint64
	if h.version != nil {
		version = h.version() // the store as a read would see it

		if answer, ok := h.answers.get(body, version); ok {
			writeAnswer(w, answer)
			return
		}
	}
	var req request
	if err := json.Unmarshal(body, &req); err != nil || req.Query == nil || *req.Query == "" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	op := ""
	if req.OperationName != nil {
		op = *req.OperationName
	}
	if len(req.Variables) > 0 {
		if e := h.variableError(body, *req.Query, op, req.Variables); e != nil {
			writeErrors(w, e)
			return
		}
	}
	st := execState{versioned: h.version != nil, version: version}
	resp := h.schema.Exec(context.WithValue(r.Context(), execStateKey{}, &st), *req.Query, op, req.Variables)
	if e := limitError(resp.Errors, len(*req.Query)); e != nil {
		resp.Errors, resp.Data = []*qerrors.QueryError{e}, nil
	} else if st.searches.Load() > MaxSearches {
		resp.Errors, resp.Data = []*qerrors.QueryError{{Message: fmt.Sprintf(msgSearchLimit, MaxSearches),
			Extensions: map[string]any{"classification": "ExecutionAborted"}}}, nil
	}
	for _, e := range resp.Errors {
		if e.Extensions == nil {
			e.Extensions = map[string]any{"classification": "ValidationError"}
		}
		if len(e.Locations) == 0 && len(e.Path) > 0 {
			if key, ok := e.Path[0].(string); ok {
				if loc, ok := locate(*req.Query, key); ok {
					e.Locations = []qerrors.Location{loc}
				}
			}
		}
	}
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	buf.WriteByte('{')
	if len(resp.Errors) > 0 {
		buf.WriteString(`"errors":`)
		if err := enc.Encode(resp.Errors); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(',')
	}
	if resp.Data != nil {
		buf.WriteString(`"data":`)
		buf.Write(resp.Data)
		buf.WriteByte(',')
	}
	buf.WriteString(`"extensions":{}}`)
	if h.version != nil && len(resp.Errors) == 0 && !st.other.Load() && h.version() == version {
		h.answers.put(body, buf.Bytes(), version)
	}
	writeAnswer(w, buf.Bytes())
}

// variableError is the error graphql-java answers for a variable value its
// coercion refuses ([checkVariables]), nil when there is none or when the
// query has validation errors, which graphql-java reports first.
func (h *Handler) variableError(body []byte, query, op string, vars map[string]any) *qerrors.QueryError {
	var rv struct {
		Variables map[string]json.RawMessage `json:"variables"`
	}
	if json.Unmarshal(body, &rv) != nil {
		return nil
	}
	e := checkVariables(query, op, rv.Variables)
	if e == nil || len(h.schema.ValidateWithVariables(query, vars)) > 0 {
		return nil
	}
	return e
}

// writeErrors answers a request that failed before execution: errors and
// no data, as graphql-java's ExecutionResult without data.
func writeErrors(w http.ResponseWriter, errs ...*qerrors.QueryError) {
	var b bytes.Buffer
	b.WriteString(`{"errors":`)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(errs); err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	b.WriteString(`,"extensions":{}}`)
	writeAnswer(w, b.Bytes())
}

// writeAnswer answers 200 with the JSON response body.
func writeAnswer(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// limitError is the one error of a request refused by a limit, as
// graphql-java's MaxQueryDepthInstrumentation and
// MaxQueryComplexityInstrumentation abort one (an ExecutionAborted error
// whose message names the limit), nil when no limit was hit. graph-gophers
// reports a depth error per field too deep; one is enough.
func limitError(errs []*qerrors.QueryError, queryLength int) *qerrors.QueryError {
	for _, e := range errs {
		var msg string
		switch {
		case e.Rule == "MaxDepthExceeded":
			msg = fmt.Sprintf(msgDepthLimit, MaxDepth)
		case errors.Is(e, graphqlgo.ErrTooManySelections):
			msg = fmt.Sprintf(msgComplexityLimit, MaxComplexity)
		case e.Rule == "OverlapValidationLimitExceeded":
			msg = fmt.Sprintf(msgOverlapLimit, MaxOverlapPairs)
		case queryLength > MaxQueryLength && len(errs) == 1:
			msg = fmt.Sprintf(msgLengthLimit, queryLength, MaxQueryLength)
		default:
			continue
		}
		return &qerrors.QueryError{Message: msg, Locations: e.Locations,
			Extensions: map[string]any{"classification": "ExecutionAborted"}}
	}
	return nil
}

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// locate finds the first selection named key at the top level of an
// operation in query (graph-gophers gives resolver errors no locations;
// DataHub's have the field's). Strings, block strings and comments are
// skipped; line and column count from 1.
func locate(query, key string) (qerrors.Location, bool) {
	depth, parens, line, col := 0, 0, 1, 1
	for i := 0; i < len(query); {
		c := query[i]
		switch {
		case c == '\n':
			line, col = line+1, 1
			i++
			continue
		case c == '#':
			for i < len(query) && query[i] != '\n' {
				i++
			}
			continue
		case c == '"':
			end := skipString(query, i)
			for _, ch := range query[i:end] {
				if ch == '\n' {
					line, col = line+1, 0
				}
				col++
			}
			i = end
			continue
		case c == '{':
			depth++
		case c == '}':
			depth--
		case c == '(':
			parens++
		case c == ')':
			parens--
		case isNameStart(c):
			j := i
			for j < len(query) && isNameChar(query[j]) {
				j++
			}
			if depth == 1 && parens == 0 && query[i:j] == key {
				return qerrors.Location{Line: line, Column: col}, true
			}
			col += j - i
			i = j
			continue
		}
		i++
		col++
	}
	return qerrors.Location{}, false
}

// skipString returns the index after the string literal starting at i.
func skipString(q string, i int) int {
	if len(q) >= i+3 && q[i:i+3] == `"""` {
		for j := i + 3; j+3 <= len(q); j++ {
			if q[j] == '\\' && j+4 <= len(q) && q[j+1:j+4] == `"""` {
				j += 3
				continue
			}
			if q[j:j+3] == `"""` {
				return j + 3
			}
		}
		return len(q)
	}
	for j := i + 1; j < len(q); j++ {
		switch q[j] {
		case '\\':
			j++
		case '"', '\n':
			return j + 1
		}
	}
	return len(q)
}

func isNameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isNameChar(c byte) bool  { return isNameStart(c) || c >= '0' && c <= '9' }

// OperationName is the name of the operation a request body asks for: its
// operationName, or else the name of the document's operation when the
// document has exactly one operation and it is named; "" otherwise.
func OperationName(body []byte) string {
	var req request
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	if req.OperationName != nil && *req.OperationName != "" {
		return *req.OperationName
	}
	if req.Query == nil {
		return ""
	}
	return soleOperationName(*req.Query)
}

// soleOperationName scans the top level of a document for operations: the
// name of the only one, "" when there are several, it is anonymous or the
// document has none.
func soleOperationName(q string) string {
	depth, ops, name := 0, 0, ""
	afterKeyword := false
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '#':
			for i < len(q) && q[i] != '\n' {
				i++
			}
			continue
		case c == '"':
			i = skipString(q, i)
			continue
		case c == '{' || c == '(':
			if depth == 0 && c == '{' && !afterKeyword && name == "" && ops == 0 {
				ops++ // the shorthand anonymous query
			}
			afterKeyword = false
			depth++
		case c == '}' || c == ')':
			depth--
		case isNameStart(c):
			j := i
			for j < len(q) && isNameChar(q[j]) {
				j++
			}
			word := q[i:j]
			if depth == 0 {
				switch {
				case word == "query" || word == "mutation" || word == "subscription":
					ops++
					afterKeyword = true
				case afterKeyword:
					if ops == 1 {
						name = word
					}
					afterKeyword = false
				}
			}
			i = j
			continue
		}
		i++
	}
	if ops != 1 {
		return ""
	}
	return name
}
