package emitter_test

import (
	"testing"
	"time"
)

// BenchmarkAsyncClientFull is BenchmarkAsyncClient with workers that
// linger an hour, so that only a full batch or Close sends: its batches
// are the same however slowly it runs (under callgrind, say), where a
// linger of milliseconds sends what a slow run has queued when it ends.
func BenchmarkAsyncClientFull(b *testing.B) { asyncClient(b, time.Hour) }
