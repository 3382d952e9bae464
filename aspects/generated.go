package aspects

import (
	"encoding/json"
	"errors"
	"fmt"
)

// This file holds the helpers of the generated types (*_gen.go).

// countSet returns how many of set are true: the number of members of a
// union that are set.
func countSet(set ...bool) int {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	return n
}

// unionCountError reports a union value with n members set where one must be.
func unionCountError(union string, n int) error {
	return fmt.Errorf("%s: %d union members set, want exactly 1", union, n)
}

// unionError puts the union's name before err.
func unionError(union string, err error) error {
	return fmt.Errorf("%s: %w", union, err)
}

// unknownMember reports a union key that names no member.
func unknownMember(key string) error {
	return fmt.Errorf("unknown union member %q", key)
}

// memberError puts a union member's key before err.
func memberError(key string, err error) error {
	return fmt.Errorf("%s: %w", key, err)
}

// decodeDefault decodes a PDL default value, a JSON text the generator
// copied from the PDL file and the generator's tests decode, into a new *T.
func decodeDefault[T any](text string) *T {
	v := new(T)
	if err := json.Unmarshal([]byte(text), v); err != nil {
		panic(errors.New("aspects: bad generated default " + text + ": " + err.Error()))
	}
	return v
}
