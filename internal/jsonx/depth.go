package jsonx

import (
	"encoding/json"
	"errors"
	"strings"
)

// MaxDepth is the nesting limit of the JSON the mock decodes (encoding/
// json's own).
const MaxDepth = 10000

// MsgTooDeep describes a value nested deeper than [MaxDepth] (mock).
const MsgTooDeep = "nested too deeply: JSON nesting exceeds the limit of %d levels"

// TooDeep reports whether err is encoding/json's refusal of a value nested
// deeper than [MaxDepth].
func TooDeep(err error) bool {
	var se *json.SyntaxError
	return errors.As(err, &se) && strings.Contains(se.Error(), "exceeded max depth")
}
