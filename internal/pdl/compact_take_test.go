package pdl_test

import (
	"math/rand/v2"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// checkCompactTake holds ConformsCompactTake to ConformsCompact and
// CompactSharedTake to CompactShared (the slow paths): the same verdict and
// text, take called at most once for len(s) bytes, and a copy made in the
// memory take gave.
func checkCompactTake(t *testing.T, record, s string) {
	t.Helper()
	data := []byte(s)
	var arena []byte
	calls := 0
	take := takeFunc(func(n int) []byte {
		calls++
		if n != len(data) {
			t.Fatalf("take(%d) for %d bytes", n, len(data))
		}
		arena = make([]byte, 0, n)
		return arena
	})
	check := func(name string, got []byte, ok bool, want []byte, wantOK bool) {
		t.Helper()
		if ok != wantOK || string(got) != string(want) {
			t.Fatalf("%s(%s, %q) = %q, %v; want %q, %v", name, record, s, got, ok, want, wantOK)
		}
		if calls > 1 {
			t.Fatalf("%s(%s, %q) called take %d times", name, record, s, calls)
		}
		if ok && len(got) > 0 && &got[0] != &data[0] && (calls == 0 || &got[0] != &arena[:1][0]) {
			t.Fatalf("%s(%s, %q) copied outside take's memory", name, record, s)
		}
		calls = 0
	}
	got, ok := pdl.ConformsCompactTake(record, data, take)
	want, wantOK := pdl.ConformsCompact(record, data)
	check("ConformsCompactTake", got, ok, want, wantOK)
	got, ok = pdl.CompactSharedTake(data, take)
	want, wantOK = pdl.CompactShared(data)
	check("CompactSharedTake", got, ok, want, wantOK)
}

// takeFunc is a pdl.Memory of a function.
type takeFunc func(n int) []byte

func (f takeFunc) Take(n int) []byte { return f(n) }

var compactTakeSeeds = []string{schemaMetadataDoc, ownershipPython, mlFeaturePython, datasetProfilePython, `{"owners": [null]}`,
	`[]`, ` { } `, `{"hyperParameters": {"a": {"int": 1e99}}}`, `{"removed": true, "removed": 1}`,
	`{"value": "\u00e9\u20ac", "contentType": "x"}`, "{\"removed\" :\ttrue\n}",
	`{"lastObserved": 1618987484580, "lastRunId": "no-run-id-provided", "properties": {"clientId": "acryl-datahub"}, "runId": "r"}`}

func FuzzConformsCompactTake(f *testing.F) {
	for _, s := range compactTakeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range conformsRecords {
			checkCompactTake(t, r, s)
		}
	})
}

// TestConformsCompactTakeMutations runs checkCompactTake over mutations of
// valid documents.
func TestConformsCompactTakeMutations(t *testing.T) {
	t.Parallel()
	bits := []string{`null`, `1`, `1.5`, `1e999`, `"x"`, `"\u00e9"`, `{}`, `[]`, `true`, `,`, `:`, `"`, `{`, `}`,
		" ", "\n\t", `"DATAOWNER"`, `"owners"`, `{"string": "a"}`}
	mutations(rand.New(rand.NewPCG(5, 5)), 20000, bits, func(s string) {
		for _, rec := range conformsRecords {
			checkCompactTake(t, rec, s)
		}
	})
}

// mutations calls fn with n mutations of compactTakeSeeds, each seed in
// turn with up to two runs of its bytes replaced by one of bits.
func mutations(r *rand.Rand, n int, bits []string, fn func(s string)) {
	for k := range n {
		s := compactTakeSeeds[k%len(compactTakeSeeds)]
		for range r.IntN(3) {
			i := r.IntN(len(s) + 1)
			j := min(len(s), i+r.IntN(4))
			s = s[:i] + bits[r.IntN(len(bits))] + s[j:]
		}
		fn(s)
	}
}
