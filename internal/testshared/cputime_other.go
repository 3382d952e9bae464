//go:build !unix

package testshared

import (
	"testing"
	"time"
)

var start = time.Now()

// CPUTime returns the wall-clock time since the program started where the
// process's CPU time is not at hand.
func CPUTime(testing.TB) time.Duration { return time.Since(start) }
