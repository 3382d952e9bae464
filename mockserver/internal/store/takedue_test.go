package store

import (
	"fmt"
	"slices"
	"testing"
)

// TestTakeDue takes the due events of a subscription in parts: up to the
// first that is not due (copied), then all that are pending (the queue
// itself, the spare slice becoming the queue), and checks the events
// taken, in order and without gaps, and the backlog left.
func TestTakeDue(t *testing.T) {
	t.Parallel()
	s := OpenMemory(stepClock())
	defer s.Close()
	sub := s.Subscribe()
	write := func(n int) {
		for i := range n {
			mustApply(t, s, upsert(fmt.Sprintf(`{"description":"%d"}`, i)))
		}
	}
	seqs := func(es []Event) []uint64 {
		var out []uint64
		for _, e := range es {
			out = append(out, e.Seq)
		}
		return out
	}
	write(5) // the key row, then 5 upserts
	if got := sub.TakeDue(nil, func(*Event) bool { return false }); len(got) != 0 || sub.Len() != 6 {
		t.Fatalf("nothing due: took %v, %d pending; want none, 6", seqs(got), sub.Len())
	}
	got := sub.TakeDue(nil, func(e *Event) bool { return e.Seq <= 2 })
	if want := []uint64{1, 2}; !slices.Equal(seqs(got), want) {
		t.Errorf("took %v, want %v", seqs(got), want)
	}
	if n, bytes := sub.Backlog(); n != 4 || bytes <= 0 {
		t.Errorf("backlog = %d events, %d bytes; want 4 and some", n, bytes)
	}
	spare := got
	got = sub.TakeDue(spare, func(*Event) bool { return true })
	if want := []uint64{3, 4, 5, 6}; !slices.Equal(seqs(got), want) {
		t.Errorf("took %v, want %v", seqs(got), want)
	}
	if n, bytes := sub.Backlog(); n != 0 || bytes != 0 {
		t.Errorf("backlog after taking all = %d events, %d bytes; want 0, 0", n, bytes)
	}
	// The spare is now the queue: the events written next land in it, and
	// the slice taken stays the caller's.
	write(2)
	again := sub.TakeDue(nil, func(*Event) bool { return true })
	if want := []uint64{7, 8}; !slices.Equal(seqs(again), want) {
		t.Errorf("took %v, want %v", seqs(again), want)
	}
	if want := []uint64{3, 4, 5, 6}; !slices.Equal(seqs(got), want) {
		t.Errorf("the events taken before changed to %v, want %v", seqs(got), want)
	}
	sub.Close()
	if got := sub.TakeDue(nil, func(*Event) bool { return true }); len(got) != 0 {
		t.Errorf("a closed subscription gave %v", seqs(got))
	}
}
