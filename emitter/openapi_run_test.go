package emitter

import (
	"bytes"
	"testing"
	"time"
)

// checkJoinedRun holds joinedRun to bodyParts, the general path, for idx of
// b's items: ok exactly when bodyParts makes the body one run between the
// brackets, then the same bytes; unsafe whenever an item of idx is not
// replay-safe. It reports whether joinedRun found one run.
func checkJoinedRun(t *testing.T, b *v3Run, idx []int) bool {
	t.Helper()
	parts := bodyParts(openBracket, closeBracket, idx, func(i int) []byte { return b.items[i].enc })
	run, unsafe, ok := b.joinedRun(idx)
	wantUnsafe := false
	for _, i := range idx {
		wantUnsafe = wantUnsafe || b.items[i].unsafe
	}
	if unsafe != wantUnsafe {
		t.Errorf("idx %v: unsafe %v, want %v", idx, unsafe, wantUnsafe)
	}
	if ok != (len(parts) == 3) {
		t.Errorf("idx %v: one run %v, bodyParts made %d parts", idx, ok, len(parts))
	}
	if ok {
		got := append(append([]byte("["), run...), ']')
		if want := bytes.Join(parts, nil); !bytes.Equal(got, want) {
			t.Errorf("idx %v: body\n%s\nwant\n%s", idx, got, want)
		}
	}
	return ok
}

// v3RunOf encodes mixedBatch's n proposals for OpenAPI on k goroutines
// (each part in its own buffer) and returns the run and the indexes of
// its batch elements, in order.
func v3RunOf(t *testing.T, n, k int) (*v3Run, []int) {
	t.Helper()
	r, err := NewREST("http://localhost:8080", WithMaxBatchBytes(1000))
	if err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return time.UnixMilli(1700000000000) }
	b := &v3Run{r: r}
	b.items, _ = r.encodeV3On(k, mixedBatch(t, n), false)
	var batch []int
	for i := range b.items {
		if b.items[i].kind == v3Batch && len(b.items[i].enc) > 0 {
			batch = append(batch, i)
		}
	}
	return b, batch
}

// TestJoinedRunAsBodyParts: sendBatch's body from joinedRun is bodyParts's
// for every window of consecutive batch elements of a mixed batch (rejected
// proposals, deletes sent alone, a proposal too large, conditional ones
// that are not replay-safe between them) encoded on 1 to 7 goroutines,
// and for every other element; both outcomes occur (one run, and not).
func TestJoinedRunAsBodyParts(t *testing.T) {
	t.Parallel()
	var runs, notRuns int
	for _, k := range []int{1, 2, 3, 7} {
		b, batch := v3RunOf(t, 40, k)
		for lo := range batch {
			for hi := lo + 1; hi <= len(batch); hi++ {
				if checkJoinedRun(t, b, batch[lo:hi]) {
					runs++
				} else {
					notRuns++
				}
			}
		}
		var alternate []int
		for j := 0; j < len(batch); j += 2 {
			alternate = append(alternate, batch[j])
		}
		if checkJoinedRun(t, b, alternate) {
			t.Errorf("%d goroutines: every other element %v taken as one run", k, alternate)
		}
	}
	if runs == 0 || notRuns == 0 {
		t.Errorf("%d windows were one run, %d not: want both", runs, notRuns)
	}
}

// FuzzJoinedRun holds joinedRun to bodyParts for any ordered choice of the
// items of a mixed batch (mask picks them, from start), encoded on k
// goroutines.
func FuzzJoinedRun(f *testing.F) {
	for _, s := range []struct {
		n, k  uint8
		start uint8
		mask  uint64
	}{{20, 1, 0, ^uint64(0)}, {20, 2, 0, ^uint64(0)}, {33, 3, 5, 0xff00ff}, {9, 1, 0, 0b1011}, {60, 7, 2, 0xf0f0f0f0f0f0}} {
		f.Add(s.n, s.k, s.start, s.mask)
	}
	f.Fuzz(func(t *testing.T, n, k, start uint8, mask uint64) {
		size := 1 + int(n)%64
		b, _ := v3RunOf(t, size, 1+int(k)%size)
		var idx []int
		for j := int(start) % size; j < size && j-int(start)%size < 64; j++ {
			if mask>>(j-int(start)%size)&1 == 1 && len(b.items[j].enc) > 0 && b.items[j].kind == v3Batch {
				idx = append(idx, j)
			}
		}
		if len(idx) > 0 {
			checkJoinedRun(t, b, idx)
		}
	})
}
