package emitter

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The goroutines of Async emitters.
//
// An Async emitter's workers and reporter run on goroutines kept from one
// emitter to the next: a goroutine whose work for an emitter ended (before
// that emitter's Close returns) waits up to idleWait for another emitter's
// work, then ends; at most maxIdle wait. A program that makes an Async
// emitter for each small ingestion thus starts few goroutines, and the
// workers' stacks, grown once through the calls of a request, need not
// grow again for each emitter.

// idleWait is how long a goroutine whose work ended waits for more.
const idleWait = time.Second

// maxIdle is the most goroutines that wait for work at once; any other
// ends when its work does.
const maxIdle = 64

// pooledG is a goroutine that runs the work it is given, one function at
// a time.
type pooledG struct {
	work  chan func() // holds the next work once the goroutine was taken from idle
	timer *time.Timer // its wait for work, nil until it first waits
}

// idle holds the goroutines waiting for work, the last to start waiting
// (with the stack most likely still grown) last.
var idle struct {
	sync.Mutex
	gs []*pooledG
}

// pooledLive counts the goroutines of goPooled, working or waiting.
var pooledLive atomic.Int32

// goPooled runs f on a goroutine that waits for work, or on a new one.
func goPooled(f func()) {
	idle.Lock()
	if n := len(idle.gs); n > 0 {
		g := idle.gs[n-1]
		idle.gs[n-1] = nil
		idle.gs = idle.gs[:n-1]
		idle.Unlock()
		g.work <- f // never blocks: one taken from idle is given one function
		return
	}
	idle.Unlock()
	pooledLive.Add(1)
	g := &pooledG{work: make(chan func(), 1)}
	go g.loop(f)
}

// loop is the goroutine of g: it runs f, then what it is given next,
// until it waits in vain.
func (g *pooledG) loop(f func()) {
	defer pooledLive.Add(-1)
	for f != nil {
		f()
		f = g.next()
	}
}

// next waits, in idle, up to idleWait for work, and returns it, or nil
// when none came or idle is full.
func (g *pooledG) next() func() {
	idle.Lock()
	if len(idle.gs) >= maxIdle {
		idle.Unlock()
		return nil
	}
	idle.gs = append(idle.gs, g)
	idle.Unlock()
	if g.timer == nil {
		g.timer = time.NewTimer(idleWait)
	} else {
		g.timer.Reset(idleWait)
	}
	select {
	case f := <-g.work:
		g.timer.Stop()
		return f
	case <-g.timer.C:
	}
	idle.Lock()
	if i := slices.Index(idle.gs, g); i >= 0 {
		idle.gs = slices.Delete(idle.gs, i, i+1)
		idle.Unlock()
		return nil
	}
	idle.Unlock()
	return <-g.work // goPooled took g as the time ran out: its work is on the way
}
