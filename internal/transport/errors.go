package transport

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"unicode/utf8"

	datahub "github.com/catalogkit/datahub-go"
)

// maxPlainMessage bounds the message taken from an error body that is not
// a Rest.li error (a proxy's plain text answer).
const maxPlainMessage = 200

// restliError is the part of a Rest.li error body the SDK keeps; the stack
// trace and the rest are dropped.
type restliError struct {
	Message        string
	ExceptionClass string
	// Error is the "error" member of DataHub's OpenAPI error bodies
	// ({"error":"Precondition Error","message":"..."}).
	Error string
}

// DecodeError returns the *datahub.Error of an answer with status and
// body. A Rest.li error body gives the message and exception class; a
// short plain text body (from a proxy) gives the message; anything else
// (HTML pages, empty bodies) leaves the status text. Method and URL are left
// for the caller to fill.
func DecodeError(status int, body []byte) *datahub.Error {
	e := &datahub.Error{StatusCode: status}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		re := scanRestliError(trimmed)
		e.Message, e.ExceptionClass = strings.TrimSpace(re.Message), re.ExceptionClass
		if kind := strings.TrimSpace(re.Error); kind != "" { // an OpenAPI error body
			if e.Message == "" {
				e.Message = kind
			} else {
				e.Message = kind + ": " + e.Message
			}
		}
	} else if len(trimmed) > 0 && trimmed[0] != '<' && utf8.Valid(trimmed) {
		msg, _, _ := strings.Cut(string(trimmed), "\n")
		if len(msg) > maxPlainMessage {
			msg = truncateUTF8(msg, maxPlainMessage) + "..."
		}
		e.Message = strings.TrimSpace(msg)
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	return e
}

// scanRestliError reads the message and exception class of a Rest.li
// error body token by token, so that a body cut short by the read limit
// (a long stack trace before the message) still yields the fields that
// precede the cut.
func scanRestliError(body []byte) restliError {
	var re restliError
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return re
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return re
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return re
		}
		switch key {
		case "message":
			_ = json.Unmarshal(v, &re.Message)
		case "exceptionClass":
			_ = json.Unmarshal(v, &re.ExceptionClass)
		case "error":
			_ = json.Unmarshal(v, &re.Error)
		}
	}
	return re
}

// truncateUTF8 cuts s to at most n bytes without splitting a rune.
func truncateUTF8(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
