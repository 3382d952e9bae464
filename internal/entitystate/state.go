// Package entitystate holds what package client keeps about a typed entity
// of package entity between a read and an update: the aspects as read and
// their versions. It lets the client reach the entity's aspect fields and
// hidden state without either showing in the entity package's API.
package entitystate

import (
	"encoding/json"

	"github.com/catalogkit/datahub-go/aspects"
)

// Aspect is one aspect as it was read.
type Aspect struct {
	// Raw is the JSON the server sent, with members the Go type does not
	// know; nil when the entity did not have the aspect.
	Raw json.RawMessage
	// Typed is the Go type's encoding of the decoded value: a change is a
	// difference from it. Nil when the entity did not have the aspect.
	Typed json.RawMessage
	// Version is the aspect's systemMetadata.version, "-1" when the entity
	// did not have it.
	Version string
}

// State is what a read saw of an entity's aspects, by name. An aspect name
// that is absent was not read.
type State struct {
	Aspects map[string]Aspect
}

// Slot is one aspect field of a typed entity.
type Slot struct {
	// Name is the aspect name.
	Name string
	// Get returns the field's value, nil when the field is nil.
	Get func() aspects.Aspect
	// Set stores a (a value or a pointer of the field's type) and reports
	// whether it had that type.
	Set func(a aspects.Aspect) bool
	// Clear sets the field to nil.
	Clear func()
}

// Access is a typed entity's aspect fields and state.
type Access struct {
	// Slots are the entity's aspect fields, the key aspect excluded.
	Slots []Slot
	// State points at the entity's state; *State is nil for an entity
	// that was not read.
	State **State
	// Timeseries returns the timeseries aspect values the entity holds
	// (written by Create and Upsert, never read); nil when it has none.
	Timeseries func() []aspects.Aspect
}

// Of returns the Access of a typed entity of package entity; that package
// sets it when it is initialised.
var Of func(e any) (Access, bool)
