// Package restli is the mock's adapter for the Rest.li operations of GMS's
// resources beyond the aspect writes and reads the server serves itself:
// MCE ingest, search, browse, lists and counts, ingestion runs and their
// rollback, relationships, usage statistics, platform events, analytics
// and batched metadata tests. It decodes each operation's parameters into
// the core's vocabulary, hands the work to the core ([gms.Core]) and
// returns the value Rest.li encodes; the rules live in the core. The
// server routes, authenticates, checks the parameters against
// [Operation.Params] and writes the answer (see [Operation.Serve]).
package restli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// Hooks are what the server lends the adapter besides the core.
type Hooks struct {
	// Clock is the server's clock.
	Clock func() time.Time
	// Receive records the proposals of a write as the core receives them
	// (before it writes them); the function it returns records the write's
	// outcome: "" accepted, else why it was refused. nil records nothing.
	Receive func(ps []gms.Proposal, async, batch bool) (outcome func(refusal string))
}

// Handler serves the operations on one core.
type Handler struct {
	core  *gms.Core
	hooks Hooks
}

// New returns a Handler serving core.
func New(core *gms.Core, hooks Hooks) *Handler {
	if hooks.Clock == nil {
		hooks.Clock = time.Now
	}
	if hooks.Receive == nil {
		hooks.Receive = func([]gms.Proposal, bool, bool) func(string) { return func(string) {} }
	}
	return &Handler{core: core, hooks: hooks}
}

// Param is one parameter of an action, as its restspec declares it.
type Param struct {
	Name string
	// Type is the Rest.li type the server checks the value's JSON against,
	// named as Rest.li's messages name it: "String", "Integer", "Long",
	// "Boolean", "Array" or "Record" (a record or union: an object).
	Type     string
	Required bool
}

// Call is one decoded request of an operation.
type Call struct {
	// Params are an action's parameters, checked against its Params.
	Params wire.Map
	// Key is the decoded key of GET or DELETE /resource/{key}.
	Key string
	// Query is the request's query.
	Query url.Values
	// RawQuery is the request's query as sent (batch ids are split in it
	// before they are unescaped).
	RawQuery string
}

// Void is the answer of an action that returns nothing: Rest.li answers 200
// without a body.
type Void struct{}

// Error is a RestLiServiceException the adapter raises itself: its status
// and message.
type Error struct {
	Status  int
	Message string
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

func badRequest(format string, args ...any) *Error {
	return &Error{Status: http.StatusBadRequest, Message: sprintf(format, args...)}
}

// Operation is one action or method of a GMS resource.
type Operation struct {
	// Resource is the resource's path name ("entities").
	Resource string
	// Action is the action's name; "" for a method.
	Action string
	// Method is the REST method of a method operation: "get", "batch_get"
	// or "delete".
	Method string
	// Params are an action's parameters (a method reads its query).
	Params []Param
	serve  func(h *Handler, ctx context.Context, c *Call) (any, error)
}

// Serve runs the operation: an action's answer is wrapped by the server
// in {"value": ...} (or, for [Void], none); a method's is the body itself.
// An error is an *[Error] or the core's.
func (o *Operation) Serve(h *Handler, ctx context.Context, c *Call) (any, error) {
	return o.serve(h, ctx, c)
}

// Lookup returns the action of resource named action, nil if the adapter
// has none.
func Lookup(resource, action string) *Operation {
	for i := range operations {
		if o := &operations[i]; o.Resource == resource && o.Action == action && action != "" {
			return o
		}
	}
	return nil
}

// LookupMethod returns the method (get, batch_get, delete) of resource,
// nil if the adapter has none.
func LookupMethod(resource, method string) *Operation {
	for i := range operations {
		if o := &operations[i]; o.Resource == resource && o.Action == "" && o.Method == method {
			return o
		}
	}
	return nil
}

// Operations returns every operation the adapter serves.
func Operations() []Operation { return operations }

// str is the string parameter name ("" when absent).
func (c *Call) str(name string) string {
	var s string
	c.decode(name, &s)
	return s
}

// strp is the string parameter name, nil when absent.
func (c *Call) strp(name string) *string {
	var s *string
	c.decode(name, &s)
	return s
}

// integer is the integer parameter name, def when absent.
func (c *Call) integer(name string, def int) int {
	var n *int64
	c.decode(name, &n)
	if n == nil {
		return def
	}
	return int(*n)
}

// long is the long parameter name, nil when absent.
func (c *Call) long(name string) *int64 {
	var n *int64
	c.decode(name, &n)
	return n
}

// boolean is the boolean parameter name, nil when absent.
func (c *Call) boolean(name string) *bool {
	var b *bool
	c.decode(name, &b)
	return b
}

// strs is the string array parameter name, nil when absent.
func (c *Call) strs(name string) []string {
	var s []string
	c.decode(name, &s)
	return s
}

// raw is the JSON of parameter name, nil when absent or null.
func (c *Call) raw(name string) json.RawMessage {
	v, ok := c.Params.Get(name)
	if !ok || wire.IsNull(v) {
		return nil
	}
	return v
}

// has reports whether parameter name is given (and not null).
func (c *Call) has(name string) bool { return c.raw(name) != nil }

// decode decodes parameter name into dst, leaving it when absent. The
// server checked the parameter's JSON type, so a failure leaves dst as
// it was.
func (c *Call) decode(name string, dst any) {
	if v := c.raw(name); v != nil {
		_ = json.Unmarshal(v, dst)
	}
}

// decodeRecord decodes the record parameter name into dst: a value that
// does not fit the record is a 400 naming the parameter.
func (c *Call) decodeRecord(name string, dst any) error {
	v := c.raw(name)
	if v == nil {
		return nil
	}
	if err := json.Unmarshal(v, dst); err != nil {
		return badRequest(msgBadRecord, name, gms.JSONErrorText(err))
	}
	return nil
}

// batchIDs are the keys of a BATCH_GET: protocol 2.0's ids=List(a,b), each
// escaped, or protocol 1.0's repeated ids.
func (c *Call) batchIDs() []string {
	var out []string
	for _, pair := range strings.Split(c.RawQuery, "&") {
		k, v, _ := strings.Cut(pair, "=")
		if k != "ids" {
			continue
		}
		if inner, ok := strings.CutPrefix(v, "List("); ok {
			inner = strings.TrimSuffix(inner, ")")
			for _, part := range splitTop(inner) {
				if s, err := url.QueryUnescape(part); err == nil && s != "" {
					out = append(out, s)
				}
			}
			continue
		}
		if s, err := url.QueryUnescape(v); err == nil && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// splitTop splits s at the commas outside parentheses (a complex key's
// "(urn:...,versionStamp:...)" stays whole).
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// listQuery reads a Rest.li array query parameter: protocol 2.0's
// "List(a,b)" or repeated protocol 1.0 values; nil means absent.
func (c *Call) listQuery(name string) []string {
	vals, ok := c.Query[name]
	if !ok {
		return nil
	}
	out := []string{}
	for _, v := range vals {
		if inner, ok := strings.CutPrefix(v, "List("); ok {
			inner = strings.TrimSuffix(inner, ")")
			if inner != "" {
				out = append(out, strings.Split(inner, ",")...)
			}
			continue
		}
		out = append(out, v)
	}
	return out
}

// write hands proposals to the core as one synchronous write, recording
// them and the outcome through the Receive hook.
func (h *Handler) write(ctx context.Context, ps []gms.Proposal, batch bool) error {
	done := h.hooks.Receive(ps, false, batch)
	err := h.core.Ingest(ctx, ps, gms.IngestOptions{Batch: batch})
	if err != nil {
		done(gms.AsError(err).Message)
		return err
	}
	done("")
	return nil
}
