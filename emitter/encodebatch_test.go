package emitter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// mixedBatch returns n proposals of every kind encodeInto meets: ordinary
// upserts, conditional ones (not replayable), deletes, invalid proposals,
// one that does not encode and one too large to send.
func mixedBatch(t *testing.T, n int) []Proposal {
	t.Helper()
	ps := make([]Proposal, n)
	for i := range ps {
		u := urn.MustParse(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", i))
		switch i % 10 {
		case 6:
			p := mustProposal(t, u, aspects.Status{})
			p.ChangeType, p.Headers = Create, map[string]string{"If-None-Match": "*"}
			ps[i] = p
		case 7:
			ps[i] = Proposal{URN: u, ChangeType: Patch, Aspect: RawAspect{Name: "globalTags", JSON: json.RawMessage(`[{"op":"add","path":"/tags/urn:li:tag:pii","value":{"tag":"urn:li:tag:pii"}}]`)}}
		case 8:
			ps[i] = mustProposal(t, urn.MustParse(fmt.Sprintf("urn:li:chart:(looker,c%d)", i)), aspects.Status{})
		case 1:
			p := mustProposal(t, u, aspects.Status{Removed: true})
			p.Headers = map[string]string{"If-Version-Match": "3"}
			ps[i] = p
		case 2:
			p, err := NewDeleteEntity(u)
			if err != nil {
				t.Fatal(err)
			}
			ps[i] = p
		case 3:
			ps[i] = Proposal{URN: u, Aspect: aspects.Status{}, ChangeType: "NOPE"}
		case 4:
			ps[i] = Proposal{URN: u, Aspect: RawAspect{Name: "status", JSON: json.RawMessage(`"not an object"`)}}
		case 5:
			ps[i] = mustProposal(t, u, aspects.DatasetProperties{Description: ptr(string(bytes.Repeat([]byte("é"), 600)))})
		default:
			ps[i] = mustProposal(t, u, aspects.DatasetProperties{Description: ptr(fmt.Sprintf("table %d <&>", i))})
		}
	}
	return ps
}

// TestEncodeOnGoroutines holds encodeInto's split to its one-goroutine
// outcome: the same bytes, results, errors and indexes, whether the
// encodings are kept or not.
func TestEncodeOnGoroutines(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080", WithMaxBatchBytes(1000))
	if err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return time.UnixMilli(1700000000000) }
	ps := mixedBatch(t, 101)
	type out struct {
		Enc    []string
		Unsafe []bool
		Res    []string
	}
	run := func(k int, kept bool) out {
		var arena encodeArena
		defer arena.release()
		items, results := r.encodeOn(k, ps, &arena, kept)
		var o out
		for i, it := range items {
			o.Enc = append(o.Enc, string(it.enc))
			o.Unsafe = append(o.Unsafe, it.unsafe)
			res := results[i]
			o.Res = append(o.Res, fmt.Sprintf("%d %s %s %v %v", res.Index, res.URN, res.Aspect, res.Status, res.Err))
		}
		return o
	}
	want := run(1, false)
	statuses := map[Status]int{}
	for i := range ps {
		if want.Enc[i] == "" {
			statuses[Rejected]++
		}
	}
	if statuses[Rejected] == 0 || statuses[Rejected] == len(ps) {
		t.Fatalf("want a mix of encoded and unencoded proposals, got %d of %d unencoded", statuses[Rejected], len(ps))
	}
	for _, k := range []int{2, 3, 7, 101} {
		for _, kept := range []bool{false, true} {
			if d := cmp.Diff(want, run(k, kept)); d != "" {
				t.Errorf("%d goroutines, kept %v (-one goroutine +split):\n%s", k, kept, d)
			}
		}
	}
}

// TestEncodeV3OnGoroutines holds encodeV3's split to its one-goroutine
// outcome, atomic or not.
func TestEncodeV3OnGoroutines(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080", WithMaxBatchBytes(1000))
	if err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return time.UnixMilli(1700000000000) }
	ps := mixedBatch(t, 101)
	run := func(k int, atomic bool) []string {
		items, results := r.encodeV3On(k, ps, atomic)
		var o []string
		for i, it := range items {
			res := results[i]
			o = append(o, fmt.Sprintf("%s %+v | %d %s %s %v %v", it.enc, it, res.Index, res.URN, res.Aspect, res.Status, res.Err))
		}
		return o
	}
	for _, atomic := range []bool{false, true} {
		want := run(1, atomic)
		for _, k := range []int{2, 3, 7, 101} {
			if d := cmp.Diff(want, run(k, atomic)); d != "" {
				t.Errorf("%d goroutines, atomic %v (-one goroutine +split):\n%s", k, atomic, d)
			}
		}
	}
}

// panicAspect panics when encoded.
type panicAspect struct{}

func (panicAspect) AspectName() string           { return "status" }
func (panicAspect) MarshalJSON() ([]byte, error) { panic(errPanicAspect) }

var errPanicAspect = errors.New("panicAspect panics")

// TestEncodeOnGoroutinesPanic: a MarshalJSON that panics on an encoding
// goroutine panics on the caller's, with its own value, as it would
// without the split.
func TestEncodeOnGoroutinesPanic(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	ps := mixedBatch(t, 64)
	ps[50] = Proposal{URN: datasetURN, Aspect: panicAspect{}}
	for _, encode := range []func(){
		func() {
			var arena encodeArena
			defer arena.release()
			r.encodeOn(2, ps, &arena, false)
		},
		func() { r.encodeV3On(3, ps, false) },
	} {
		func() {
			defer func() {
				if v := recover(); v != errPanicAspect {
					t.Errorf("recovered %v, want %v", v, errPanicAspect)
				}
			}()
			encode()
			t.Error("no panic")
		}()
	}
}

// TestEncoders: a call encodes on one goroutine below 2*minPerEncoder
// proposals, and never on more than the cores or maxEncoders.
func TestEncoders(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, minPerEncoder, 2*minPerEncoder - 1} {
		if k := encoders(n); k != 1 {
			t.Errorf("encoders(%d) = %d, want 1", n, k)
		}
	}
	if k := encoders(1 << 20); k < 1 || k > maxEncoders {
		t.Errorf("encoders(1<<20) = %d, want 1..%d", k, maxEncoders)
	}
}
