package mockserver

import (
	"errors"
	"math"
	"time"
)

// Now returns the time on the server's clock: that of [WithClock] (or
// time.Now), moved by [Server.FastForward] and [Server.SetTime].
// [Server.Reset] leaves the clock where it is.
func (s *Server) Now() time.Time { return s.cfg.clock() }

// FastForward moves the server's clock forward by d and applies, in the
// order they were accepted, the async writes that are then due (see
// [WithAsyncLag]), so that a test sees them at once without sleeping. A
// negative d is ignored (the clock never moves back this way; see
// [Server.SetTime]). The total move of the clock is at most
// math.MaxInt64 nanoseconds (about 292 years): a d that would go further
// stops the clock there, it never wraps around.
func (s *Server) FastForward(d time.Duration) {
	s.advance(d, true)
	s.core.ApplyDue()
}

// advance adds d (when positive) to the clock's offset. An offset that
// would overflow is saturated when saturate is true; otherwise the clock
// is left alone and advance reports false.
func (s *Server) advance(d time.Duration, saturate bool) bool {
	if d <= 0 {
		return true
	}
	for {
		old := s.cfg.clockOffset.Load()
		next := old + int64(d)
		if old > math.MaxInt64-int64(d) {
			if !saturate {
				return false
			}
			next = math.MaxInt64
		}
		if s.cfg.clockOffset.CompareAndSwap(old, next) {
			return true
		}
	}
}

// errClockRange is SetTime's refusal of a time too far from the base clock.
var errClockRange = errors.New("mockserver: SetTime: the time is more than 292 years from the base clock (an offset of math.MaxInt64 nanoseconds)")

// SetTime sets the server's clock to t: from now on it reads t plus the time
// its base clock ([WithClock], or time.Now) moves. Async writes due at t are
// applied in the order they were accepted. A t before the current time
// moves the clock back: pending async writes then wait until they are due
// again, and new versions get earlier created-on times. A t whose distance
// from the base clock does not fit in a time.Duration (about 292 years,
// such as 9999-12-31 or 0001-01-01) is refused with an error and the clock
// is left alone.
func (s *Server) SetTime(t time.Time) error {
	base := s.cfg.baseClock()
	d := t.Sub(base)
	if !base.Add(d).Equal(t) {
		return errClockRange
	}
	s.cfg.clockOffset.Store(int64(d))
	s.core.ApplyDue()
	return nil
}
