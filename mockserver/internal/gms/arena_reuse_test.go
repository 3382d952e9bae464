package gms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestIngestValuesOutliveArenaReuse: the memory of a synchronous batch's
// values (compactions and the ownerTypes hook's answers) serves the next
// batches once the store has copied them, and is poisoned in the tests
// when it is given back. Every stored version read at the end is what was
// read right after its write, valid JSON; the values Core.Write answered
// (which leave the ingest, so keep their memory) are unchanged after later
// batches; and ingesting the same batches through Write (nothing given
// back) stores the same rows.
func TestIngestValuesOutliveArenaReuse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const n, rounds = 150, 6
	batch := func(r int) []gms.Proposal {
		ps := make([]gms.Proposal, n)
		for i := range ps {
			// White space, so that the compaction is a copy; a new owner
			// every round, so that every write makes a version.
			v := fmt.Sprintf(`{"owners": [ {"owner": "urn:li:corpuser:u%d-%d", "type": "DATAOWNER"} ], "lastModified": {"time": %d, "actor": "urn:li:corpuser:x"}}`, r, i, r)
			ps[i] = upsert(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%d,PROD)", i), "ownership", v)
		}
		return ps
	}
	c, ref := newCore(t, gms.Options{}), newCore(t, gms.Options{})
	want := map[string]string{} // urn and round -> the value read after its write
	var answered []json.RawMessage
	var answeredCopy []string
	for r := range rounds {
		ps := batch(r)
		if r == 2 {
			out, err := c.Write(ctx, ps, gms.IngestOptions{Batch: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range out {
				answered = append(answered, w.Value)
				answeredCopy = append(answeredCopy, string(w.Value))
			}
		} else if err := c.Ingest(ctx, ps, gms.IngestOptions{Batch: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := ref.Write(ctx, batch(r), gms.IngestOptions{Batch: true}); err != nil {
			t.Fatal(err)
		}
		for _, p := range ps {
			a, err := c.GetAspect(ctx, p.EntityURN, "ownership", 0)
			if err != nil {
				t.Fatal(err)
			}
			want[p.EntityURN+" "+strconv.Itoa(r)] = string(a.Value)
		}
	}
	for k, v := range want {
		if !utf8.ValidString(v) || !json.Valid([]byte(v)) {
			t.Fatalf("%s: stored value %q is not valid JSON", k, v)
		}
	}
	for _, p := range batch(0) {
		for r := range rounds {
			ver := int64(r + 1) // round r's write is version r+1, the last round's the latest (0)
			if r == rounds-1 {
				ver = 0
			}
			a, err := c.GetAspect(ctx, p.EntityURN, "ownership", ver)
			if err != nil {
				t.Fatal(err)
			}
			b, err := ref.GetAspect(ctx, p.EntityURN, "ownership", ver)
			if err != nil {
				t.Fatal(err)
			}
			if w := want[p.EntityURN+" "+strconv.Itoa(r)]; string(a.Value) != w || !bytes.Equal(a.Value, b.Value) {
				t.Fatalf("%s version %d (round %d) = %s,\nread after its write %s,\nstored through Write %s", p.EntityURN, ver, r, a.Value, w, b.Value)
			}
		}
	}
	for i, v := range answered {
		stored := want[batch(2)[i].EntityURN+" 2"]
		if string(v) != answeredCopy[i] || string(v) != stored {
			t.Fatalf("Write's answer %d after later batches: %q, when answered %q; stored %s", i, v, answeredCopy[i], stored)
		}
	}
}
