package store

import (
	"fmt"
	"time"
)

// Current is the state of an aspect before a write, given to [Write.Check]
// inside the write's transaction (earlier items of the batch included).
type Current struct {
	// Exists reports whether the aspect has a latest row.
	Exists bool
	// Version is its systemMetadata.version, or max(1, row version) without
	// one ("" when it does not exist).
	Version string
	// CreatedOn is when the latest row was written (its audit stamp).
	CreatedOn time.Time
	// EntityExists reports whether the entity's key aspect was written.
	EntityExists bool
}

// CheckError is the failure of a [Write.Check]: Apply returns it (and writes
// nothing) for the first item whose check fails.
type CheckError struct {
	Index int   // position of the failing Write in the batch
	Err   error // what Check returned
}

// Error implements error.
func (e *CheckError) Error() string { return fmt.Sprintf("store: item %d: %v", e.Index, e.Err) }

// Unwrap returns the check's error.
func (e *CheckError) Unwrap() error { return e.Err }

// deleteEntity removes every row of the entity inside t (Write.DeleteEntity).
func deleteEntity(t txn, urn string) (rows, timeseriesRows int, err error) {
	if rows, err = deletePrefix(t, aspectRows, urnPrefix(urn)); err != nil {
		return 0, 0, err
	}
	if timeseriesRows, err = deletePrefix(t, timeseriesDocs, urnPrefix(urn)); err != nil {
		return 0, 0, err
	}
	return rows, timeseriesRows, t.del(entities, urnPrefix(urn))
}
