package emitter_test

import (
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/testshared"
)

// cpuTime returns the CPU time the process has used (testshared.CPUTime):
// the emitter's own cost on a machine whose other loads stretch the wall
// clock.
func cpuTime(b *testing.B) time.Duration { return testshared.CPUTime(b) }
