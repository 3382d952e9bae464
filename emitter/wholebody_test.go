package emitter

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/par"
)

// checkWholeBody encodes ps on k goroutines twice, without a head (the
// general path: requests send the encodings in parts) and after the batch
// body's head (a batched Emit's), and checks that the encodings are the
// same, and that wholeBody makes of the second the body bodyParts gives
// for all of them, byte for byte, which isWhole finds; the body of only
// some of them is not whole, and is the same in both.
func checkWholeBody(t *testing.T, r *REST, ps []Proposal, k int) {
	t.Helper()
	checkWholeBodyWith(t, r, ps, k, par.In)
}

// checkWholeBodyWith is checkWholeBody, the ranges of the split after a
// head run by run.
func checkWholeBodyWith(t *testing.T, r *REST, ps []Proposal, k int, run func(k, n int, fn func(c, lo, hi int))) {
	t.Helper()
	var plain, headed encodeArena
	defer plain.release()
	defer headed.release()
	headed.head, headed.room = batchPrefixBytes, len(r.batchTail)
	want, _ := r.encodeOn(k, ps, &plain, false)
	var got []encoded
	if k == 1 {
		got, _ = r.encodeSeq(ps, &headed)
	} else {
		got, _ = r.encodeOnWith(run, k, ps, &headed, false)
	}
	var idx []int
	for i := range got {
		if !bytes.Equal(got[i].enc, want[i].enc) {
			t.Fatalf("k=%d: encoding %d after a head %q, want %q", k, i, got[i].enc, want[i].enc)
		}
		if got[i].enc != nil {
			idx = append(idx, i)
		}
	}
	whole, wholeN := r.wholeBody(headed.first, got)
	if wholeN != len(idx) {
		t.Fatalf("k=%d: whole body of %d encodings, want %d", k, wholeN, len(idx))
	}
	b := &batch{r: r, items: got, whole: whole, wholeN: wholeN}
	isWhole := func(idx []int) bool {
		req := b.request(idx)
		return req.Parts == nil && &req.Body[0] == &whole[0] && len(req.Body) == len(whole)
	}
	if len(idx) == 0 {
		if whole != nil {
			t.Fatalf("k=%d: nothing encoded, whole body %q, want none", k, whole)
		}
		return
	}
	body := func(items []encoded, idx []int) ([][]byte, string) {
		parts := bodyParts(batchPrefixBytes, r.batchTail, idx, func(i int) []byte { return items[i].enc })
		return parts, string(bytes.Join(parts, nil))
	}
	parts, all := body(got, idx)
	if _, wantAll := body(want, idx); all != wantAll || string(whole) != wantAll {
		t.Fatalf("k=%d: whole body\n%s\nparts\n%s\nwant\n%s", k, whole, all, wantAll)
	}
	if len(idx) == 1 {
		// One proposal goes as ingestProposal, in parts.
		if isWhole(idx) {
			t.Fatalf("k=%d: the request of 1 encoding sends the batch body", k)
		}
		return
	}
	if req := b.request(idx); string(bytes.Join(append([][]byte{req.Body}, req.Parts...), nil)) != all {
		t.Fatalf("k=%d: the request of all %d encodings sends another body", k, len(idx))
	}
	if !isWhole(idx) {
		t.Fatalf("k=%d: the request of all %d encodings (%d parts) does not send the whole body", k, len(idx), len(parts))
	}
	for _, m := range []int{1, len(idx) / 2, len(idx) - 1} {
		if m <= 0 || m >= len(idx) {
			continue
		}
		for _, sub := range [][]int{idx[:m], idx[m:]} {
			_, some := body(got, sub)
			if isWhole(sub) {
				t.Errorf("k=%d: the request of %d of %d encodings sends the whole body", k, len(sub), len(idx))
			}
			if _, wantSome := body(want, sub); some != wantSome {
				t.Errorf("k=%d: body of %d of %d encodings\n%s\nwant\n%s", k, len(sub), len(idx), some, wantSome)
			}
		}
	}
}

// wholeREST is a Rest.li emitter whose batches of mixedBatch hold
// proposals too large to send.
func wholeREST(t *testing.T) *REST {
	t.Helper()
	r, err := NewREST("http://localhost:8080", WithMaxBatchBytes(1000))
	if err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return time.UnixMilli(1700000000000) }
	return r
}

// TestWholeBody holds a batched Emit's body in one slice (wholeBody,
// isWhole) to the body in parts, for batches of every kind of proposal
// encoded on one goroutine and split.
func TestWholeBody(t *testing.T) {
	t.Parallel()
	r := wholeREST(t)
	for _, n := range []int{1, 2, 3, 9, 10, 101, 200} {
		ps := mixedBatch(t, n)
		for _, k := range []int{1, 2, 3, 7} {
			if k > n {
				continue
			}
			t.Run(fmt.Sprintf("%d/%d", n, k), func(t *testing.T) { checkWholeBody(t, r, ps, k) })
		}
	}
}

// FuzzWholeBody is TestWholeBody for batches of any size, from any
// proposal of mixedBatch's cycle, on any number of goroutines.
func FuzzWholeBody(f *testing.F) {
	f.Add(uint8(200), uint8(0), uint8(2))
	f.Add(uint8(5), uint8(3), uint8(5))
	f.Fuzz(func(t *testing.T, n, from, k uint8) {
		size := int(n)%120 + 1
		ps := mixedBatch(t, size+int(from)%10)[int(from)%10:]
		checkWholeBody(t, wholeREST(t), ps, int(k)%size+1)
	})
}

// TestScratchReuse: an emitScratch given back after a call hands the next
// call zero items, results and offsets (take clears only the offsets,
// putScratch the rest), for as many proposals or more. Not parallel: the
// scratch is in the pool, which no other test reads meanwhile.
func TestScratchReuse(t *testing.T) {
	sc := new(emitScratch)
	items, results, offsets := sc.take(10)
	for i := range items {
		items[i] = encoded{enc: []byte("x"), unsafe: true}
		results[i] = Result{Index: i, URN: "u", Status: Rejected, Err: errors.New("refused")}
		offsets[i] = [2]int{1, 2}
	}
	putScratch(sc)
	for _, n := range []int{10, 3, 20} {
		items, results, offsets := sc.take(n)
		for i := range n {
			if it := items[i]; it.enc != nil || it.unsafe || it.chunk != nil || results[i] != (Result{}) || offsets[i] != [2]int{} {
				t.Fatalf("take(%d) after putScratch: item %d %+v, result %+v, offsets %v, want zero", n, i, items[i], results[i], offsets[i])
			}
		}
	}
}

// inOrder returns a runner of a split's ranges (as par.In runs them) that
// runs them one after the other on the calling goroutine, in the order
// given: each finds the ones before it in that order done.
func inOrder(order []int) func(k, n int, fn func(c, lo, hi int)) {
	return func(k, n int, fn func(c, lo, hi int)) {
		for _, c := range order {
			fn(c, c*n/k, (c+1)*n/k)
		}
	}
}

// permutations returns every order of 0..k-1.
func permutations(k int) [][]int {
	if k == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(k - 1) {
		for at := range k {
			q := append(append(append([]int(nil), p[:at]...), k-1), p[at:]...)
			out = append(out, q)
		}
	}
	return out
}

// TestWholeBodyInPlace holds encodeOnWith's ranges written in the first
// buffer, after the ranges before them (when those are done first), to
// the body in parts: every order in which a split's ranges may start and
// end, so that some, all or only the first are written in place, and the
// others moved after them.
func TestWholeBodyInPlace(t *testing.T) {
	t.Parallel()
	r := wholeREST(t)
	for _, n := range []int{4, 10, 101} {
		ps := mixedBatch(t, n)
		for _, k := range []int{2, 3, 4} {
			for _, order := range permutations(k) {
				t.Run(fmt.Sprintf("%d/%v", n, order), func(t *testing.T) { checkWholeBodyWith(t, r, ps, k, inOrder(order)) })
			}
		}
		for _, order := range [][]int{{0, 1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0}, {0, 1, 3, 2, 4, 6, 5}, {1, 0, 2, 3, 4, 5, 6}} {
			if n >= len(order) {
				t.Run(fmt.Sprintf("%d/%v", n, order), func(t *testing.T) { checkWholeBodyWith(t, r, ps, len(order), inOrder(order)) })
			}
		}
	}
}

// TestEncodeInPlace checks that a split whose ranges run in order leaves
// every encoding in the first buffer, where it was written: the other
// buffers are never written.
func TestEncodeInPlace(t *testing.T) {
	t.Parallel()
	r := wholeREST(t)
	ps := mixedBatch(t, 101)
	for _, k := range []int{2, 3, 7} {
		order := make([]int, k)
		for i := range order {
			order[i] = i
		}
		var headed encodeArena
		headed.head, headed.room = batchPrefixBytes, len(r.batchTail)
		items, _ := r.encodeOnWith(inOrder(order), k, ps, &headed, false)
		for j, b := range headed.more {
			if len(*b) != 0 {
				t.Errorf("k=%d: buffer %d holds %d bytes, want none", k, j+1, len(*b))
			}
		}
		first := (*headed.first)[:cap(*headed.first)]
		for i, it := range items {
			if len(it.enc) > 0 && &it.enc[:cap(it.enc)][cap(it.enc)-1] != &first[len(first)-1] {
				t.Errorf("k=%d: encoding %d not in the first buffer", k, i)
			}
		}
		headed.release()
	}
}
