package emitter

import (
	"testing"
	"time"
)

// within checks that ms, a time in Unix milliseconds, is between before
// and after, give or take a millisecond (the wall clock read at a clock's
// moment and time.Now's own two reads may fall either side of a
// millisecond's boundary).
func within(t *testing.T, what string, ms int64, before, after time.Time) {
	t.Helper()
	if ms < before.UnixMilli()-1 || ms > after.UnixMilli()+1 {
		t.Errorf("%s: %d, want between %d and %d", what, ms, before.UnixMilli(), after.UnixMilli())
	}
}

// TestWallClockMillis checks that wallClock gives the wall clock's time at
// a clock, from its first read on and from the offset it keeps, and that a
// step of the wall clock shows once its last read is wallEvery old.
func TestWallClockMillis(t *testing.T) {
	var w wallClock
	for i := range 1000 {
		before := time.Now()
		got := w.millis(nowClock())
		within(t, "millis", got, before, time.Now())
		if t.Failed() {
			t.Fatalf("at call %d", i)
		}
	}
	// The wall clock steps an hour back: the offset kept is an hour ahead.
	w.offset.Add(int64(time.Hour))
	w.read.Store(int64(nowClock()))
	before := time.Now()
	if got := w.millis(nowClock()); got < before.Add(time.Hour).UnixMilli()-1 {
		t.Errorf("a fresh read is not used: %d, want the offset kept (%d)", got, before.Add(time.Hour).UnixMilli())
	}
	w.read.Store(int64(nowClock() - clock(wallEvery)))
	before = time.Now()
	got := w.millis(nowClock())
	within(t, "millis after a step", got, before, time.Now())
}
