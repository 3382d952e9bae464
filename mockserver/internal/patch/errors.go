package patch

import (
	"errors"
	"strconv"
	"strings"
)

// The kinds of patch failure. An *Error wraps exactly one of them; match
// with errors.Is. The status real DataHub GMS answers for each is noted.
var (
	// ErrBadPatch: the GenericAspect value is not a JSON patch: not JSON,
	// neither an array of operations nor an object with a "patch" array,
	// an operation without "op" or "path", or without the "value" or
	// "from" its op needs, or a malformed envelope. DataHub: 400
	// ("Invalid JSON Patch: ...", an IllegalArgumentException).
	ErrBadPatch = errors.New("not a JSON patch")
	// ErrBadOp: an operation's "op" is not one of add, remove, replace,
	// move, copy, test. DataHub: 400 (the patch fails to parse).
	ErrBadOp = errors.New("unsupported patch operation")
	// ErrBadPath: a "path" or "from" is not a JSON pointer, or names no
	// place the operation can act on (a missing member for replace, move,
	// copy or test, an array index out of range, a member of a string).
	// DataHub: 500 (a JsonException while applying).
	ErrBadPath = errors.New("bad patch path")
	// ErrTestFailed: a "test" operation found another value. DataHub: 500.
	ErrTestFailed = errors.New("patch test failed")
	// ErrNoTemplate: the aspect has no patch template and the patch is
	// neither given arrayPrimaryKeys nor forceGenericPatch. DataHub: 500
	// (UnsupportedOperationException "Patch not supported for aspect with
	// name X. Default aspect is required because no aspect currently
	// exists for urn ..." when the aspect is absent, a NullPointerException
	// when it exists; datahub-project/datahub #18851, #18935).
	ErrNoTemplate = errors.New("no patch template for the aspect")
	// ErrBadAspect: the current aspect, or the patched result, does not fit
	// the template: not a JSON object, a keyed array whose element is not
	// an object, a fine-grained lineage without exactly one downstream.
	// DataHub: 500 (ClassCastException, UnsupportedOperationException).
	ErrBadAspect = errors.New("aspect does not fit the patch template")
)

// Error is a failed patch. Kind is one of the Err sentinels above.
type Error struct {
	// Kind is the sentinel naming the failure.
	Kind error
	// Aspect is the aspect being patched.
	Aspect string
	// Index is the operation's index in the patch, -1 when the failure
	// concerns no single operation.
	Index int
	// Op and Path are the failing operation's op and path, when known.
	Op, Path string
	// Detail says what is wrong and, for ErrNoTemplate, the remedy.
	Detail string
}

// Error returns "patch <aspect>: <kind>: op N (op path): detail".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("patch ")
	b.WriteString(e.Aspect)
	b.WriteString(": ")
	b.WriteString(e.Kind.Error())
	if e.Index >= 0 {
		b.WriteString(": operation ")
		b.WriteString(strconv.Itoa(e.Index))
		if e.Op != "" || e.Path != "" {
			b.WriteString(" (")
			b.WriteString(e.Op)
			b.WriteString(" ")
			b.WriteString(strconv.Quote(e.Path))
			b.WriteString(")")
		}
	}
	if e.Detail != "" {
		b.WriteString(": ")
		b.WriteString(e.Detail)
	}
	return b.String()
}

// Unwrap returns e.Kind, so that errors.Is(err, ErrBadPath) works.
func (e *Error) Unwrap() error { return e.Kind }

// opError is a failure inside one operation, given its place by apply.
type opError struct {
	kind   error
	detail string
}

func (e *opError) Error() string { return e.kind.Error() + ": " + e.detail }

func failf(kind error, detail string) error { return &opError{kind: kind, detail: detail} }

// DataHubStatus returns the HTTP status real DataHub GMS answers for this
// failure: 400 for ErrBadPatch and ErrBadOp (the patch fails to parse, an
// IllegalArgumentException), 500 for the rest (failures while applying).
// The mock may answer a 4xx instead; this is what the real server does.
func (e *Error) DataHubStatus() int {
	if e.Kind == ErrBadPatch || e.Kind == ErrBadOp {
		return 400
	}
	return 500
}
