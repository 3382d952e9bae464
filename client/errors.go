package client

import (
	"errors"
	"fmt"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
)

// ErrNoChange is returned by a Modify function to say that the aspect is
// as it should be: Modify then writes nothing and returns nil.
var ErrNoChange = errors.New("client: no change")

// ConflictError reports a Modify that gave up: every round found that
// another writer had changed the aspect between its read and its write.
// errors.Is(err, datahub.ErrPreconditionFailed) holds for it.
type ConflictError struct {
	// URN is the entity.
	URN string
	// Aspect is the aspect name.
	Aspect string
	// Attempts is the number of rounds made.
	Attempts int
	// Err is the last round's failure.
	Err error
}

// Error names the entity, the aspect and the number of rounds.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("client: conditional write of %s of %s: still conflicting after %d attempts: %v", e.Aspect, e.URN, e.Attempts, e.Err)
}

// Unwrap returns the last round's failure.
func (e *ConflictError) Unwrap() error { return e.Err }

// Is reports whether target is datahub.ErrPreconditionFailed.
func (e *ConflictError) Is(target error) bool { return target == datahub.ErrPreconditionFailed }

// EntityNotFoundError reports a helper that refused to write to an entity
// that does not exist (its key aspect has no value; see Client.Exists).
// errors.Is(err, datahub.ErrNotFound) holds for it.
type EntityNotFoundError struct {
	// URN is the entity.
	URN string
}

// Error names the entity.
func (e *EntityNotFoundError) Error() string {
	return fmt.Sprintf("client: entity %s does not exist", e.URN)
}

// Is reports whether target is datahub.ErrNotFound.
func (e *EntityNotFoundError) Is(target error) bool { return target == datahub.ErrNotFound }

// FieldNotFoundError reports SetFieldDescription for a field path that the
// dataset's schemaMetadata does not have, neither exactly nor as the simple
// form of a version-2 path. errors.Is(err, datahub.ErrNotFound) holds for
// it.
type FieldNotFoundError struct {
	// URN is the dataset.
	URN string
	// FieldPath is the field path asked for.
	FieldPath string
}

// Error names the dataset and the field path.
func (e *FieldNotFoundError) Error() string {
	return fmt.Sprintf("client: dataset %s has no field %q in its schemaMetadata (compared with each field's path and the simple form of its version-2 path)", e.URN, e.FieldPath)
}

// Is reports whether target is datahub.ErrNotFound.
func (e *FieldNotFoundError) Is(target error) bool { return target == datahub.ErrNotFound }

// AmbiguousFieldError reports SetFieldDescription for a simple field path
// that is the simple form of several version-2 paths of the dataset's
// schema (the members of a union all simplify to the union's name): give
// one of Candidates instead. errors.Is(err, datahub.ErrValidation) holds
// for it.
type AmbiguousFieldError struct {
	// URN is the dataset.
	URN string
	// FieldPath is the simple path asked for.
	FieldPath string
	// Candidates are the version-2 paths of the schema that simplify to
	// FieldPath, in schema order.
	Candidates []string
}

// Error names the dataset, the path and the candidates.
func (e *AmbiguousFieldError) Error() string {
	return fmt.Sprintf("client: field path %q of dataset %s is ambiguous: it is the simple form of %d fields; give one of their version-2 paths: %s",
		e.FieldPath, e.URN, len(e.Candidates), strings.Join(e.Candidates, ", "))
}

// Is reports whether target is datahub.ErrValidation.
func (e *AmbiguousFieldError) Is(target error) bool { return target == datahub.ErrValidation }
