// Package propvalue turns a Go value into a structured property value, as
// package entity's helpers and package client's definitions take them.
package propvalue

import (
	"fmt"
	"reflect"

	"github.com/catalogkit/datahub-go/aspects"
)

// Of returns v as a structured property value: a string as a string, any
// integer or float as a double. Any other type is an error.
func Of(v any) (aspects.PrimitivePropertyValue, error) {
	switch x := v.(type) {
	case string:
		return aspects.PrimitivePropertyValue{String: aspects.Ptr(x)}, nil
	case float64:
		return aspects.PrimitivePropertyValue{Double: aspects.Ptr(x)}, nil
	case float32:
		return aspects.PrimitivePropertyValue{Double: aspects.Ptr(float64(x))}, nil
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return aspects.PrimitivePropertyValue{Double: aspects.Ptr(float64(r.Int()))}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return aspects.PrimitivePropertyValue{Double: aspects.Ptr(float64(r.Uint()))}, nil
	}
	return aspects.PrimitivePropertyValue{}, fmt.Errorf("a structured property value is a string or a number, not %T", v)
}
