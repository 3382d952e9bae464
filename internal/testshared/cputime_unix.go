//go:build unix

package testshared

import (
	"syscall"
	"testing"
	"time"
)

// CPUTime returns the CPU time (user and system) the process has used: a
// benchmark's own cost on a machine whose other loads stretch the wall
// clock.
func CPUTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
