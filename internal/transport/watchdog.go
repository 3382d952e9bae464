package transport

import (
	"context"
	"sync"
	"time"
)

// watchdog bounds the attempts of one Client's calls to its timeout
// without a timer and a context with a deadline of their own: an attempt
// is watched from the moment it is handed to the HTTP client until its
// answer's body has been read, and one timer per Client, armed for the
// oldest attempt watched, cancels the attempts that outlive the timeout.
// As every attempt gets the same timeout, the attempts are watched in the
// order of their deadlines: a list, oldest first, in which starting and
// ending a watch is O(1) under a mutex, and the timer fires about once per
// timeout when attempts keep coming (the one it was armed for has usually
// ended by then; it is armed again for the oldest one left) and not at
// all when none is watched. No goroutine runs between firings.
type watchdog struct {
	timeout time.Duration

	mu         sync.Mutex
	head, tail *watch
	// timer is made on the first watch; armed says it is set to fire.
	timer *time.Timer
	armed bool
}

// watch is one attempt being watched.
type watch struct {
	deadline   time.Time
	cancel     context.CancelCauseFunc
	prev, next *watch
	// on says the attempt is in the list; fired that the watchdog
	// cancelled it.
	on, fired bool
}

// start watches an attempt whose context cancel cancels, until stop.
func (w *watchdog) start(e *watch, cancel context.CancelCauseFunc) {
	w.mu.Lock()
	// Taken under the lock, the deadlines follow the list's order.
	e.deadline = time.Now().Add(w.timeout)
	e.cancel, e.on, e.fired = cancel, true, false
	e.prev, e.next = w.tail, nil
	if w.tail != nil {
		w.tail.next = e
	} else {
		w.head = e
	}
	w.tail = e
	if !w.armed {
		w.armed = true
		if w.timer == nil {
			w.timer = time.AfterFunc(w.timeout, w.fire)
		} else {
			w.timer.Reset(w.timeout)
		}
	}
	w.mu.Unlock()
}

// stop ends the watch of e and cancels its attempt's context (whose work
// is done), reporting whether the watchdog had cancelled it for taking too
// long.
func (w *watchdog) stop(e *watch) (fired bool) {
	w.mu.Lock()
	if e.on {
		w.unlink(e)
	}
	fired, cancel := e.fired, e.cancel
	e.cancel = nil
	w.mu.Unlock()
	if cancel != nil {
		cancel(context.Canceled)
	}
	return fired
}

// unlink takes e out of the list.
func (w *watchdog) unlink(e *watch) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		w.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		w.tail = e.prev
	}
	e.prev, e.next, e.on = nil, nil, false
}

// fire cancels the attempts past their deadline, as net/http's client
// timeout does (the cause context.DeadlineExceeded, which its transport
// returns), and arms the timer for the oldest attempt left.
func (w *watchdog) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Now()
	for e := w.head; e != nil && !e.deadline.After(now); e = w.head {
		w.unlink(e)
		e.fired = true
		e.cancel(context.DeadlineExceeded)
	}
	if w.head == nil {
		w.armed = false
		return
	}
	w.timer.Reset(w.head.deadline.Sub(now))
}
