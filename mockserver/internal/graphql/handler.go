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
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/validator"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

//go:embed schema.graphql
var schemaSDL string

// SDL returns the mock's GraphQL schema text.
func SDL() string { return schemaSDL }

// schema is schemaSDL loaded (once, shared by every handler). It is loaded
// by the first handler's making, never at init: its 2 MB of AST, all
// pointers, would be marked by every collection of a program that links the
// mock and never serves GraphQL (schemaLoaded tells the tests).
var schema = sync.OnceValues(func() (*ast.Schema, error) {
	schemaLoaded.Store(true)
	return gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: schemaSDL, BuiltIn: false})
})

// schemaLoaded is whether schema was called.
var schemaLoaded atomic.Bool

// Handler serves DataHub's POST /api/graphql on a core. Authentication,
// body limits and faults are the caller's (the mock's dispatch).
type Handler struct {
	// search replaces the core's searches (tests only; nil: the core).
	search  searcher
	schema  *ast.Schema
	core    *gms.Core
	res     *resolver
	version func() uint64
	answers answerCache
	docs    docCache
	opNames opNameCache
	// server is what appConfig says of the server (see WithServerInfo).
	server serverInfo
	// general makes the executor resolve every field through resolve
	// (tests only: the answers of the plain strings' shortcut compared).
	general bool
}

// The limits of one request. DataHub's GraphQL engine has a depth limit
// (graphQL.query.depthLimit, 50) and a complexity limit
// (graphQL.query.complexityLimit, 2000, where every field costs 1, as
// DataHubFieldComplexityCalculator counts them, so that aliases count too);
// the mock has two more against documents that are expensive before any
// field is counted: a length limit, and a cap on the pairs of fields the
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
	s, err := schema()
	if err != nil {
		return nil, err
	}
	registerEntityRoots()
	res := &resolver{core: core, search: core}
	h := &Handler{schema: s, core: core, res: res}
	for _, o := range opts {
		o(h)
	}
	res.version = h.version
	if h.search != nil {
		res.search = h.search
	}
	return h, nil
}

// request is the body GMS's GraphQLController reads (the variables as
// they were sent, see decodeVariables).
type request struct {
	Query         *string         `json:"query"`
	OperationName *string         `json:"operationName"`
	Variables     json.RawMessage `json:"variables"`
}

// decodeVariables decodes the request's variables object (numbers as
// json.Number) in one pass over it: each value as sent (raw, what
// checkVariables reads) and decoded (vars); nil maps for none or null, an
// error for a value that is not an object.
func decodeVariables(raw json.RawMessage) (vars map[string]any, rawVars map[string]json.RawMessage, err error) {
	if len(raw) == 0 {
		return nil, nil, nil
	}
	if err := json.Unmarshal(raw, &rawVars); err != nil {
		return nil, nil, err
	}
	if rawVars == nil {
		return nil, nil, nil
	}
	vars = make(map[string]any, len(rawVars))
	for k, v := range rawVars {
		if vars[k], err = decodeValue(v); err != nil {
			return nil, nil, err
		}
	}
	return vars, rawVars, nil
}

// decodeValue decodes one JSON value (valid: a part of a document already
// read) as a json.Decoder with UseNumber does into an any, without the
// decoder for a number, a literal or a string with nothing to unescape.
func decodeValue(v json.RawMessage) (any, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return nil, io.ErrUnexpectedEOF
	}
	switch c := v[0]; {
	case c == '"':
		if s, ok := plainJSONString(v); ok {
			return s, nil
		}
	case c == '-' || c >= '0' && c <= '9':
		return json.Number(v), nil
	case string(v) == "true":
		return true, nil
	case string(v) == "false":
		return false, nil
	case string(v) == "null":
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(v))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// plainJSONString is the text of the JSON string literal v when it has
// nothing to unescape or replace (no backslash, no control character, valid
// UTF-8): what decoding it gives.
func plainJSONString(v []byte) (string, bool) {
	if len(v) < 2 || v[len(v)-1] != '"' {
		return "", false
	}
	body := v[1 : len(v)-1]
	ascii := true
	for _, c := range body {
		if c < 0x20 || c == '\\' || c == '"' {
			return "", false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	if !ascii && !utf8.Valid(body) {
		return "", false
	}
	return string(body), true
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
	h.ServeBody(w, r, body)
}

// ServeBody answers r, whose body (read whole) is body, as ServeHTTP does:
// for a caller that read the body already. The handler keeps no reference
// to body after it returns.
func (h *Handler) ServeBody(w http.ResponseWriter, r *http.Request, body []byte) {
	b := Body{raw: body}
	h.ServeRead(w, r, &b)
}

// Body is a request body as [Handler.Read] reads it: its operation name
// and, when finding the name took decoding the body, the decoded request,
// which [Handler.ServeRead] answers without decoding the body again.
type Body struct {
	raw  []byte
	name string
	// decoded is whether req is the body decoded (the body is one JSON
	// value, as json.Unmarshal reads it).
	decoded bool
	req     request
}

// OperationName is the body's [OperationName].
func (b *Body) OperationName() string { return b.name }

// ServeRead answers r, whose body is b (see Read), as ServeBody answers its
// body. The handler keeps no reference to the body after it returns.
func (h *Handler) ServeRead(w http.ResponseWriter, r *http.Request, b *Body) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		w.WriteHeader(http.StatusMethodNotAllowed)
		return
	}
	body := b.raw
	var version uint64
	if h.version != nil {
		version = h.version() // the store as a read would see it

		if answer, ok := h.answers.kept(body, version); ok {
			writeKept(w, answer)
			return
		}
	}
	// A body json.Unmarshal read whole decodes to the same request through
	// a Decoder, which reads the first value of any other body.
	req := b.req
	if !b.decoded {
		req = request{}
		dec := json.NewDecoder(bytes.NewReader(body))
		if err := dec.Decode(&req); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
	}
	if req.Query == nil || *req.Query == "" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	reqVars, rawVars, err := decodeVariables(req.Variables)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	op := ""
	if req.OperationName != nil {
		op = *req.OperationName
	}
	query := *req.Query
	if len(query) > MaxQueryLength {
		writeErrors(w, &queryError{Message: fmt.Sprintf(msgLengthLimit, len(query), MaxQueryLength),
			Extensions: map[string]any{"classification": "ExecutionAborted"}})
		return
	}
	prep := h.prepare(query)
	if len(prep.errs) > 0 {
		writeErrors(w, prep.errs...)
		return
	}
	doc := prep.doc
	operation, e := chooseOperation(doc, op)
	if e != nil {
		writeErrors(w, e)
		return
	}
	vars, e := h.variables(prep, query, op, operation, rawVars, reqVars)
	if e != nil {
		writeErrors(w, e)
		return
	}
	// A mutation moves the store while it runs: the entities it answers are
	// read after its writes, never from the cache of its starting position.
	st := execState{versioned: h.version != nil && operation.Operation != ast.Mutation, version: version}
	ctx := context.WithValue(r.Context(), execStateKey{}, &st)
	x := &executor{h: h, prep: prep, ctx: ctx, st: &st, doc: doc, vars: vars, schema: h.schema}
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	buf.WriteByte('{')
	dataBuf := dataPool.Get().(*[]byte)
	defer func() {
		if cap(x.buf) <= maxPooledAnswer { // a huge answer's buffer is not kept
			*dataBuf = x.buf[:0]
			dataPool.Put(dataBuf)
		}
	}()
	x.buf = append((*dataBuf)[:0], `"data":`...)
	data := x.run(operation, h.res)
	errList := x.errs
	if st.searches.Load() > MaxSearches {
		errList, data = []*queryError{{Message: fmt.Sprintf(msgSearchLimit, MaxSearches),
			Extensions: map[string]any{"classification": "ExecutionAborted"}}}, nil
	}
	if len(errList) > 0 {
		buf.WriteString(`"errors":`)
		enc := json.NewEncoder(buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(errList); err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		buf.WriteByte(',')
	}
	if data != nil {
		buf.Write(data)
		buf.WriteByte(',')
	}
	buf.WriteString(`"extensions":{}}`)
	if h.version != nil && len(errList) == 0 && !st.other.Load() && h.version() == version {
		h.answers.put(body, buf.Bytes(), version)
	}
	writeAnswer(w, buf.Bytes())
}

// chooseOperation is the operation a request runs: the one named op, or
// the document's only one.
func chooseOperation(doc *ast.QueryDocument, op string) (*ast.OperationDefinition, *queryError) {
	if op == "" {
		if len(doc.Operations) != 1 {
			return nil, validationError("Must provide operation name if query contains multiple operations.", nil)
		}
		return doc.Operations[0], nil
	}
	o := doc.Operations.ForName(op)
	if o == nil {
		return nil, validationError(fmt.Sprintf("Unknown operation named '%s'.", op), nil)
	}
	return o, nil
}

// validationError is a ValidationError at pos.
func validationError(msg string, pos *ast.Position) *queryError {
	e := &queryError{Message: msg, Extensions: map[string]any{"classification": "ValidationError"}}
	if pos != nil {
		e.Locations = []location{{pos.Line, pos.Column}}
	}
	return e
}

// variables coerces the request's variables for op: first the built-in
// scalars, as graphql-java refuses them ([checkVariables], on raw: the
// variables as sent; the operation's definitions read once per document),
// then the rest by the schema (gqlparser's coercion).
func (h *Handler) variables(prep *prepared, query, opName string, op *ast.OperationDefinition, raw map[string]json.RawMessage, vars map[string]any) (map[string]any, *queryError) {
	if len(vars) > 0 {
		defs, ok := prep.operationVariables(query, opName)
		if e := checkVariableDefs(defs, ok, raw); e != nil {
			return nil, e
		}
	}
	out, err := validator.VariableValues(h.schema, op, vars)
	if err != nil {
		var ge *gqlerror.Error
		msg, pos := err.Error(), op.Position
		if errors.As(err, &ge) {
			msg = ge.Message
			if len(ge.Path) >= 2 { // variable.<name>...: said as graphql-java says it
				if name, ok := ge.Path[1].(ast.PathName); ok {
					msg = fmt.Sprintf("Variable '%s' has an invalid value: %s", name, msg)
					if d := op.VariableDefinitions.ForName(string(name)); d != nil && d.Position != nil {
						pos = d.Position
					}
				}
			}
		}
		return nil, validationError(msg, pos)
	}
	return out, nil
}

// writeErrors answers a request that failed before execution: errors and
// no data, as graphql-java's ExecutionResult without data.
func writeErrors(w http.ResponseWriter, errs ...*queryError) {
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
	h := w.Header()
	h["Content-Type"] = jsonContentType // canonical already; no slice per answer
	h["Content-Length"] = []string{strconv.Itoa(len(body))}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// writeKept answers 200 with a kept answer, as writeAnswer answers its
// body.
func writeKept(w http.ResponseWriter, a keptAnswer) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	if a.length != nil {
		h["Content-Length"] = a.length
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(a.body)
}

// jsonContentType is the Content-Type of every answer (shared: net/http
// only reads it).
var jsonContentType = []string{"application/json"}

// maxPooledAnswer bounds the answer buffers kept for reuse.
const maxPooledAnswer = 1 << 20

var (
	bufPool  = sync.Pool{New: func() any { return new(bytes.Buffer) }}
	dataPool = sync.Pool{New: func() any { return new([]byte) }}
)

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
	return req.operationName()
}

// operationName is OperationName of a body that decoded to req.
func (req *request) operationName() string {
	if req.OperationName != nil && *req.OperationName != "" {
		return *req.OperationName
	}
	if req.Query == nil {
		return ""
	}
	return soleOperationName(*req.Query)
}

// OperationName is the package's OperationName of body, kept by body
// (bounded as the prepared documents are) so that a body sent again is not
// decoded again.
func (h *Handler) OperationName(body []byte) string {
	b := h.Read(body)
	return b.name
}

// Read reads body for ServeRead: its operation name (the package's
// OperationName, kept by body as [Handler.OperationName] says) and, when
// the name is not kept, the body decoded once for both.
func (h *Handler) Read(body []byte) Body {
	b := Body{raw: body}
	h.opNames.mu.RLock()
	name, ok := h.opNames.m[string(body)]
	h.opNames.mu.RUnlock()
	if ok {
		b.name = name
		return b
	}
	if json.Unmarshal(body, &b.req) == nil {
		b.decoded, b.name = true, b.req.operationName()
	} else {
		b.req = request{}
	}
	h.keepName(body, b.name)
	return b
}

// keepName keeps name as the operation name of body.
func (h *Handler) keepName(body []byte, name string) {
	if len(body) > maxDocBytes/16 {
		return
	}
	h.opNames.mu.Lock()
	defer h.opNames.mu.Unlock()
	if h.opNames.m == nil || h.opNames.bytes+len(body) > maxDocBytes {
		h.opNames.m, h.opNames.bytes = map[string]string{}, 0
	}
	if _, had := h.opNames.m[string(body)]; !had {
		h.opNames.m[string(body)] = name
		h.opNames.bytes += len(body) + len(name)
	}
}

// opNameCache keeps the operation names of request bodies.
type opNameCache struct {
	mu    sync.RWMutex
	m     map[string]string
	bytes int
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
