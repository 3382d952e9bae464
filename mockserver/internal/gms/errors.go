package gms

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// Kind is the category of a refusal, the unit every adapter maps to its own
// error shape (Rest.li status and body, GraphQL error, ...). The kinds follow
// the exceptions GMS throws, so that each adapter can answer as DataHub does.
type Kind int

// The kinds of [Error].
const (
	// Invalid is a proposal or aspect that fails validation
	// (ValidationException: Rest.li 422).
	Invalid Kind = iota + 1
	// BadArgument is an argument GMS refuses before validation, such as a
	// malformed URN (IllegalArgumentException: Rest.li 400).
	BadArgument
	// UnknownEntity is an entity name the registry does not know.
	UnknownEntity
	// UnknownAspect is an aspect name the entity does not have.
	UnknownAspect
	// NotFound is a read of something that does not exist.
	NotFound
	// PreconditionFailed is a failed If-Version-Match, If-Modified-Since or
	// If-Unmodified-Since.
	PreconditionFailed
	// Conflict is a CREATE or CREATE_ENTITY of something that exists.
	Conflict
	// TooLarge is an input over a size limit.
	TooLarge
	// Unauthorized is a request without valid credentials.
	Unauthorized
	// Unsupported is a DataHub behaviour this mock does not have.
	Unsupported
	// Internal is a failure of the mock itself (its store).
	Internal
)

var kindNames = [...]string{"", "invalid", "bad argument", "unknown entity", "unknown aspect", "not found",
	"precondition failed", "conflict", "too large", "unauthorized", "unsupported", "internal"}

// String returns the kind's name.
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Error is a refusal of the core: a kind and DataHub's message text.
type Error struct {
	Kind Kind
	// Message is the text GMS answers with ("" for a message-less answer,
	// such as GMS's 404 of a missing aspect).
	Message string
	// Index is the batch position of the proposal the error is about, -1
	// when it is about the request as a whole.
	Index int
}

// Error returns the kind and the message.
func (e *Error) Error() string {
	if e.Message == "" {
		return e.Kind.String()
	}
	return e.Kind.String() + ": " + e.Message
}

// errorf returns an *Error of kind k with the formatted message.
func errorf(k Kind, format string, args ...any) *Error {
	msg := format
	if len(args) > 0 {
		msg = fmt.Sprintf(format, args...)
	}
	return &Error{Kind: k, Message: msg, Index: -1}
}

// AsError returns err as an *Error: itself, or an Internal error with its
// text. nil stays nil.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return errorf(Internal, MsgStore, err)
}

// maxEcho is how much of a client's input (a name, a URN, a value) a message
// repeats.
const maxEcho = 200

// Abbreviate shortens s to at most 200 bytes (on a UTF-8 boundary) followed
// by "...", so that echoing input into a message cannot make a huge answer.
func Abbreviate(s string) string {
	if len(s) <= maxEcho {
		return s
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// maxListed is how many messages [JoinMessages] lists before summing up the
// rest.
const maxListed = 20

// JoinMessages joins msgs with sep, listing at most 20 of them followed by
// "and N more", so that input with many faults cannot make a huge answer.
func JoinMessages(msgs []string, sep string) string {
	if len(msgs) <= maxListed {
		return strings.Join(msgs, sep)
	}
	return strings.Join(msgs[:maxListed], sep) + sep + fmt.Sprintf(MsgAndMore, len(msgs)-maxListed)
}

// MaxJSONDepth is the nesting limit of the JSON the mock decodes (encoding/
// json's own).
const MaxJSONDepth = jsonx.MaxDepth

// JSONErrorText describes a JSON decoding failure for a client, without Go's
// type names: "expected a JSON object, found an array", "invalid JSON at byte
// 12: invalid character ...", "nested too deeply: ...".
func JSONErrorText(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return ""
	case TooDeep(err):
		return fmt.Sprintf(MsgTooDeep, MaxJSONDepth)
	case errors.As(err, &se):
		return fmt.Sprintf(MsgSyntax, se.Offset, se.Error())
	case errors.As(err, &te):
		where := ""
		if te.Field != "" {
			where = " at " + Abbreviate(te.Field)
		}
		return fmt.Sprintf("expected %s%s, found %s", jsonTypeName(te.Type.Kind().String()), where, articled(te.Value))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "invalid JSON: unexpected end of input"
	}
	return Abbreviate(err.Error())
}

// TooDeep reports whether err is encoding/json's nesting limit.
func TooDeep(err error) bool { return jsonx.TooDeep(err) }

// jsonTypeName names a Go kind as the JSON type it decodes.
func jsonTypeName(k string) string {
	switch k {
	case "map", "struct":
		return "a JSON object"
	case "slice", "array":
		return "a JSON array"
	case "string":
		return "a JSON string"
	case "bool":
		return "a JSON boolean"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "an integer"
	case "float32", "float64":
		return "a number"
	}
	return "another JSON type"
}

// articled turns encoding/json's value description ("array", "number 1.5")
// into "an array", "a number 1.5".
func articled(v string) string {
	if v == "" {
		return "another JSON value"
	}
	if strings.IndexAny(v[:1], "aeiou") == 0 {
		return "an " + v
	}
	return "a " + v
}
