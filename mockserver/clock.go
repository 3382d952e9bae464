package mockserver

import "time"

// Now returns the time on the server's clock: that of [WithClock] (or
// time.Now), moved by [Server.FastForward] and [Server.SetTime].
// [Server.Reset] leaves the clock where it is.
func (s *Server) Now() time.Time { return s.cfg.clock() }

// FastForward moves the server's clock forward by d and applies, in the
// order they were accepted, the async writes that are then due (see
// [WithAsyncLag]), so that a test sees them at once without sleeping. A
// negative d is ignored (the clock never moves back this way; see
// [Server.SetTime]).
func (s *Server) FastForward(d time.Duration) {
	if d > 0 {
		s.cfg.clockOffset.Add(int64(d))
	}
	s.core.ApplyDue()
}

// SetTime sets the server's clock to t: from now on it reads t plus the time
// its base clock ([WithClock], or time.Now) moves. Async writes due at t are
// applied in the order they were accepted. A t before the current time
// moves the clock back: pending async writes then wait until they are due
// again, and new versions get earlier created-on times.
func (s *Server) SetTime(t time.Time) {
	s.cfg.clockOffset.Store(int64(t.Sub(s.cfg.baseClock())))
	s.core.ApplyDue()
}
