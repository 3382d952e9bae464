//go:build !unix

package emitter_test

import (
	"testing"
	"time"
)

// cpuTime returns the benchmark's wall-clock time where the process's CPU
// time is not at hand.
func cpuTime(b *testing.B) time.Duration { return b.Elapsed() }
