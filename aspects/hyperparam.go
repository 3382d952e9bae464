package aspects

import (
	"encoding/json"
	"errors"
	"fmt"
)

// HyperParameterValueType is one value of [MLModelProperties.HyperParameters]
// (com.linkedin.ml.metadata.HyperParameterValueType): a Pegasus union of
// string, int, float, double and boolean. Exactly one field is set; the JSON
// form names the member, as DataHub stores it:
//
//	{"double": 0.001}
//
// Build values with [HyperParameterString], [HyperParameterInt],
// [HyperParameterFloat], [HyperParameterDouble] and [HyperParameterBool].
type HyperParameterValueType struct {
	// String is the string member.
	String *string `json:"string,omitempty"`
	// Int is the int (32-bit) member.
	Int *int32 `json:"int,omitempty"`
	// Float is the float (32-bit) member.
	Float *float32 `json:"float,omitempty"`
	// Double is the double member.
	Double *float64 `json:"double,omitempty"`
	// Boolean is the boolean member.
	Boolean *bool `json:"boolean,omitempty"`
}

// HyperParameterString returns a string hyperparameter value.
func HyperParameterString(v string) HyperParameterValueType {
	return HyperParameterValueType{String: &v}
}

// HyperParameterInt returns an int (32-bit) hyperparameter value.
func HyperParameterInt(v int32) HyperParameterValueType {
	return HyperParameterValueType{Int: &v}
}

// HyperParameterFloat returns a float (32-bit) hyperparameter value.
func HyperParameterFloat(v float32) HyperParameterValueType {
	return HyperParameterValueType{Float: &v}
}

// HyperParameterDouble returns a double hyperparameter value.
func HyperParameterDouble(v float64) HyperParameterValueType {
	return HyperParameterValueType{Double: &v}
}

// HyperParameterBool returns a boolean hyperparameter value.
func HyperParameterBool(v bool) HyperParameterValueType {
	return HyperParameterValueType{Boolean: &v}
}

// Value returns the member that is set as a Go value (string, int32,
// float32, float64 or bool), or nil when none is.
func (h HyperParameterValueType) Value() any {
	switch {
	case h.String != nil:
		return *h.String
	case h.Int != nil:
		return *h.Int
	case h.Float != nil:
		return *h.Float
	case h.Double != nil:
		return *h.Double
	case h.Boolean != nil:
		return *h.Boolean
	}
	return nil
}

func (h HyperParameterValueType) members() int {
	n := 0
	for _, set := range []bool{h.String != nil, h.Int != nil, h.Float != nil, h.Double != nil, h.Boolean != nil} {
		if set {
			n++
		}
	}
	return n
}

// MarshalJSON encodes h as a one-member union object. It fails unless
// exactly one member is set.
func (h HyperParameterValueType) MarshalJSON() ([]byte, error) {
	if n := h.members(); n != 1 {
		return nil, fmt.Errorf("hyperparameter value: %d union members set, want exactly 1", n)
	}
	type plain HyperParameterValueType
	return marshal(plain(h))
}

// UnmarshalJSON decodes a one-member union object such as {"int": 3}.
func (h *HyperParameterValueType) UnmarshalJSON(data []byte) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(data, &members); err != nil {
		return fmt.Errorf("hyperparameter value: %w", err)
	}
	if len(members) != 1 {
		return fmt.Errorf("hyperparameter value: %d union members, want exactly 1", len(members))
	}
	var v HyperParameterValueType
	for key, raw := range members {
		var err error
		switch key {
		case "string":
			err = json.Unmarshal(raw, &v.String)
		case "int":
			err = json.Unmarshal(raw, &v.Int)
		case "float":
			err = json.Unmarshal(raw, &v.Float)
		case "double":
			err = json.Unmarshal(raw, &v.Double)
		case "boolean":
			err = json.Unmarshal(raw, &v.Boolean)
		default:
			return fmt.Errorf("hyperparameter value: unknown union member %q", key)
		}
		if err != nil {
			return fmt.Errorf("hyperparameter value %q: %w", key, err)
		}
	}
	if v.members() != 1 {
		return errors.New("hyperparameter value: union member is null")
	}
	*h = v
	return nil
}
