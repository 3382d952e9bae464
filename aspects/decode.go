package aspects

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/catalogkit/datahub-go/internal/errs"
)

// DecodeError reports aspect JSON that [Decode] rejects. errors.Is(err,
// datahub.ErrValidation) reports true for it.
type DecodeError struct {
	// Aspect is the aspect name given to Decode.
	Aspect string
	// Path is the JSON path of the offending field, e.g. "fields[2].foo";
	// "" when the problem is not at one field.
	Path string
	// Reason says what is wrong.
	Reason string
}

// Error returns a message naming the aspect, the path and the reason.
func (e *DecodeError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("aspects: decode %s: %s", e.Aspect, e.Reason)
	}
	return fmt.Sprintf("aspects: decode %s: field %q: %s", e.Aspect, e.Path, e.Reason)
}

// Is reports whether target is datahub.ErrValidation.
func (e *DecodeError) Is(target error) bool { return target == errs.ErrValidation }

// Decode decodes the JSON of the aspect named aspectName into a new *T of
// this package (see [New]) and returns it.
//
// Decode is strict: it rejects a name this package does not type, JSON that
// is not an object, JSON of the wrong shape, and any field that the aspect's
// PDL record does not declare (including a field name in another letter
// case, which encoding/json alone would accept). Fields absent from the
// JSON take their PDL defaults, as they do with json.Unmarshal.
//
// Use json.Unmarshal instead to decode leniently, ignoring unknown fields.
func Decode(aspectName string, data []byte) (Aspect, error) {
	v, ok := New(aspectName)
	if !ok {
		reason := "unknown aspect"
		if _, known := Lookup(aspectName); known {
			reason = "aspect has no typed struct"
		}
		return nil, &DecodeError{Aspect: aspectName, Reason: reason}
	}
	in, err := decodeAny(data)
	if err != nil {
		return nil, &DecodeError{Aspect: aspectName, Reason: err.Error()}
	}
	if _, isObject := in.(map[string]any); !isObject {
		return nil, &DecodeError{Aspect: aspectName, Reason: "not a JSON object"}
	}
	if err := json.Unmarshal(data, v); err != nil {
		return nil, &DecodeError{Aspect: aspectName, Reason: err.Error()}
	}
	// Every key of the input must survive a round trip through the struct;
	// one that does not is a field the struct (and so the PDL) lacks.
	re, err := json.Marshal(v)
	if err != nil {
		return nil, &DecodeError{Aspect: aspectName, Reason: err.Error()}
	}
	out, err := decodeAny(re)
	if err != nil {
		return nil, &DecodeError{Aspect: aspectName, Reason: err.Error()}
	}
	if path, reason := firstLoss(in, out, ""); path != "" {
		return nil, &DecodeError{Aspect: aspectName, Path: path, Reason: reason}
	}
	return v, nil
}

func decodeAny(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("data after the JSON value")
	}
	return v, nil
}

// firstLoss returns the path of the first object key of in that out lacks,
// with a reason, or "" when out keeps every key of in.
func firstLoss(in, out any, path string) (string, string) {
	switch in := in.(type) {
	case map[string]any:
		o, _ := out.(map[string]any)
		keys := make([]string, 0, len(in))
		for k := range in {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			ov, ok := o[k]
			if !ok {
				if in[k] == nil {
					return p, "null is not a valid value"
				}
				return p, "unknown field"
			}
			if lp, reason := firstLoss(in[k], ov, p); lp != "" {
				return lp, reason
			}
		}
	case []any:
		o, _ := out.([]any)
		for i, item := range in {
			if i >= len(o) {
				break
			}
			if lp, reason := firstLoss(item, o[i], path+"["+strconv.Itoa(i)+"]"); lp != "" {
				return lp, reason
			}
		}
	}
	return "", ""
}
