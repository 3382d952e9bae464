package emitter_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/emitter"
)

// warmRounds is how many rounds an interleaved benchmark runs before it
// counts any. The first rounds pay the process's cold start: the mock's
// first version of every entity, new connections, the heap growing to
// its working size. Counted, that cost went to whichever side ran first
// in the first round: in an A/A run (both sides posting the same kind of
// bodies, BenchmarkTurnsAA), the first side's first round took 47 ms
// against 3 ms for later ones, and at -benchtime 1s the first side came
// out 12% slower than the second.
const warmRounds = 4

// turns times the two sides of an interleaved benchmark's rounds, run in
// turns (see inTurns), counting the rounds after the warm ones. A run of
// warmRounds rounds or fewer counts none, and its figures are NaN.
type turns struct {
	b         *testing.B
	n         int              // rounds run, the warm ones included
	counted   int              // rounds counted
	wall, cpu [2]time.Duration // of the counted rounds: first side, second side
}

// run runs the next round's two sides in turns and, after the warm
// rounds, adds the wall and CPU time of each to its side's. The CPU time is
// the process's: client and mock, or the client's alone when the mock runs
// in a process of its own (see benchMock).
func (t *turns) run(first, second func()) {
	t.n++
	var wall, cpu [2]time.Duration
	timed := func(i int, side func()) func() {
		return func() {
			start, c := time.Now(), cpuTime(t.b)
			side()
			wall[i], cpu[i] = time.Since(start), cpuTime(t.b)-c
		}
	}
	inTurns(t.n, timed(0, first), timed(1, second))
	if t.n <= warmRounds {
		return
	}
	t.counted++
	for i := range wall {
		t.wall[i] += wall[i]
		t.cpu[i] += cpu[i]
	}
}

// ratio returns the second side's wall time over the first's: the first
// side's speed relative to the second's (1 = as fast).
func (t *turns) ratio() float64 { return float64(t.wall[1]) / float64(t.wall[0]) }

// cpuRatio is ratio in the process's CPU time, which other loads of the
// machine stretch less than the wall clock.
func (t *turns) cpuRatio() float64 { return float64(t.cpu[1]) / float64(t.cpu[0]) }

// cpuPerRound returns the first (side 0) or second (side 1) side's
// process CPU time a counted round, in microseconds: the client's alone
// when the mock runs in a process of its own (see benchMock).
func (t *turns) cpuPerRound(side int) float64 {
	return float64(t.cpu[side].Microseconds()) / float64(t.counted)
}

// perSecond returns the first (side 0) or second (side 1) side's rate of
// items a round.
func (t *turns) perSecond(side, items int) float64 {
	return float64(t.counted*items) / t.wall[side].Seconds()
}

// BenchmarkTurnsAA checks the interleaved benchmarks' harness: both sides
// of its rounds are the raw side of BenchmarkAsyncInterleaved (4
// goroutines posting the ten ingestProposalBatch bodies of 100 a recording
// emitter makes for 1000 changing proposals), each with its own bodies.
// second/first is the second side's time over the first's, 1 where the
// harness favours neither side: the spread of its runs is the noise the
// other ratios carry on this machine.
func BenchmarkTurnsAA(b *testing.B) {
	s := benchMock(b)
	rec := &recorder{}
	enc := newRecording(b, rec, emitter.WithMaxBatchSize(emitter.DefaultBatchSize))
	hc := pooledClient()
	url := s.URL() + "/aspects?action=ingestProposalBatch"
	const perOp, goroutines = 1000, 4
	first, second := make([]emitter.Proposal, perOp), make([]emitter.Proposal, perOp)
	post := func(bodies [][]byte, header http.Header) func() {
		return func() { postAll(b, hc, url, header, bodies, goroutines) }
	}
	props := newRoundProposals(b, perOp)
	t := &turns{b: b}
	for b.Loop() {
		props.fill(b, first, 2*t.n)
		props.fill(b, second, 2*t.n+1)
		firstBodies, header := rawBodies(b, rec, enc, first)
		secondBodies, _ := rawBodies(b, rec, enc, second)
		t.run(post(firstBodies, header), post(secondBodies, header))
	}
	b.ReportMetric(t.ratio(), "second/first")
	b.ReportMetric(t.cpuRatio(), "second/first-cpu")
}
