package emitter

import (
	"sync/atomic"
	"time"
)

// clock is a time as the nanoseconds since clockStart, on the monotonic
// clock: what a queued proposal keeps of when it was queued.
type clock int64

// clockStart is the origin of clock.
var clockStart = time.Now()

// clockOf returns t as a clock.
func clockOf(t time.Time) clock { return clock(t.Sub(clockStart)) }

// nowClock returns the current time as a clock: one read of the monotonic
// clock, where time.Now reads the wall clock too.
func nowClock() clock { return clock(time.Since(clockStart)) }

// until returns how long from now until d after c.
func (c clock) until(d time.Duration) time.Duration {
	return time.Duration(c) + d - time.Since(clockStart)
}

// wallEvery is how long wallMillis goes on from one read of the wall
// clock before it reads it again: a step of the wall clock (a correction
// of the system's time) shows in the observation times of proposals at
// most this long after it.
const wallEvery = 100 * time.Millisecond

// wallClock is the wall clock's offset from clock as last read: the wall
// clock's Unix nanoseconds minus the clock of the same time.Now.
type wallClock struct {
	offset atomic.Int64
	read   atomic.Int64 // the clock of that read; 0: never read
}

// wall is the wallClock of wallMillis.
var wall wallClock

// wallMillis returns the wall clock's Unix milliseconds at c, a clock of
// the last moments (see wallEvery): a proposal's observation time, read
// with the clock of when it was queued.
func wallMillis(c clock) int64 { return wall.millis(c) }

// millis returns the wall clock's Unix milliseconds at c, reading the wall
// clock only when its last read is wallEvery older than c.
func (w *wallClock) millis(c clock) int64 {
	if read := clock(w.read.Load()); read == 0 || c-read >= clock(wallEvery) {
		now := time.Now()
		nc := clockOf(now)
		w.offset.Store(now.UnixNano() - int64(nc))
		w.read.Store(int64(max(nc, 1)))
	}
	return (int64(c) + w.offset.Load()) / int64(time.Millisecond)
}
