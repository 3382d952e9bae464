package gms

import (
	"slices"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// ownerTypesMarkedCases are ownership values that pass the schema check,
// so that its walk notes their marks, for FuzzOwnerTypesMarked's seeds:
// owners of one type and of several, duplicates, type URNs with dots, an
// ownerTypes that is already right, one that is not, and texts that are no
// plain text (the general reading answers).
var ownerTypesMarkedCases = []string{
	`{"owners":[{"owner":"urn:li:corpuser:fbar1","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":1000000000001,"actor":"urn:li:corpuser:fbar1"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}]}`,
	`{"lastModified":{"time":0,"actor":"urn:li:corpuser:x"},"owners":[{"type":"TECHNICAL_OWNER","owner":"urn:li:corpuser:a"},{"owner":"urn:li:corpGroup:b","type":"TECHNICAL_OWNER"},{"owner":"urn:li:corpuser:a","type":"TECHNICAL_OWNER"},` +
		`{"owner":"urn:li:corpuser:c","type":"CUSTOM","typeUrn":"urn:li:ownershipType:my.type"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:a"]}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__technical_owner":["urn:li:corpuser:a"],"x":[]}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:b","type":"BUSINESS_OWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:a"]}}`,
	`{"owners":[]}`,
	`{"owners":[],"ownerTypes":{"k":["urn:li:corpuser:a"]}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a&b","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:abcdefg>","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:\u0061","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATA\u004fWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER","typeUrn":"urn:li:ownershipType:<x>"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:é","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER","source":{"type":"AUDIT","url":"x"}}]}`,
	`{"owners": [{"owner": "urn:li:corpuser:a", "type": "DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:b","type":"DATAOWNER"},{"owner":"urn:li:corpuser:c","type":"DATAOWNER"},` +
		`{"owner":"urn:li:corpuser:d","type":"DATAOWNER"},{"owner":"urn:li:corpuser:e","type":"DATAOWNER"},{"owner":"urn:li:corpuser:f","type":"DATAOWNER"},` +
		`{"owner":"urn:li:corpuser:g","type":"DATAOWNER"},{"owner":"urn:li:corpuser:h","type":"DATAOWNER"},{"owner":"urn:li:corpuser:i","type":"DATAOWNER"}]}`,
}

// FuzzOwnerTypesMarked holds the hook's reading of the schema check's
// marks (ownerTypesMarked) to the general reading, ownerTypesOf: for any
// value the marked check of dataset's ownership accepts with marks, the
// same bytes, changed flag and hash, from ownerTypesMarked itself and from
// the hook with its kept answers (ownerTypesHashedMarks, three times).
func FuzzOwnerTypesMarked(f *testing.F) {
	for _, in := range slices.Concat(ownerTypesMarkedCases, ownerTypesCases, ownerTypesFastCases) {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkOwnerTypesMarked(t, in)
	})
}

// TestOwnerTypesMarkedCases runs FuzzOwnerTypesMarked's check on its seeds.
func TestOwnerTypesMarkedCases(t *testing.T) {
	for _, in := range slices.Concat(ownerTypesMarkedCases, ownerTypesCases, ownerTypesFastCases) {
		checkOwnerTypesMarked(t, []byte(in))
	}
}

// checkOwnerTypesMarked is FuzzOwnerTypesMarked's check of in; it reports
// whether the check gave marks and ownerTypesMarked answered.
func checkOwnerTypesMarked(t *testing.T, in []byte) bool {
	t.Helper()
	af, _ := allowedAspect("dataset", "ownership")
	arena := &valueArena{size: 4*len(in) + 256}
	value, h, marks, ok := aspectPassesHeldMarks(af.info, af.held, slices.Clone(in), arena)
	if !ok || marks == nil {
		return false
	}
	if h == 0 || string(value) != string(in) {
		t.Fatalf("%s: marks for a value of hash %#x, compaction %s", in, h, value)
	}
	want, wantChanged := ownerTypesOf(slices.Clone(value))
	var wantHash uint64
	if wantChanged {
		wantHash = jsonx.Hash(want)
	}
	got, oh, changed, fast := ownerTypesMarked(value, h, marks, arena)
	if fast && (changed != wantChanged || string(got) != string(want)) {
		t.Errorf("ownerTypesMarked(%s)\n= %s, %v\nwant %s, %v", in, got, changed, want, wantChanged)
	}
	if oh != 0 && (!fast || !changed || oh != wantHash) {
		t.Errorf("ownerTypesMarked(%s): hash %x (fast %v, changed %v), want %x", in, oh, fast, changed, wantHash)
	}
	for i := range 3 {
		got, gh, changed := ownerTypesHashedMarks(value, h, arena, marks)
		if changed != wantChanged || string(got) != string(want) || gh != wantHash {
			t.Errorf("call %d: ownerTypesHashedMarks(%s)\n= %s, %x, %v\nwant %s, %x, %v", i, in, got, gh, changed, want, wantHash, wantChanged)
		}
	}
	return fast
}

// TestOwnerTypesMarkedTaken: values of the emitters' shapes get marks from
// the check and are answered from them, a changed one with its hash worked
// out.
func TestOwnerTypesMarkedTaken(t *testing.T) {
	for _, in := range ownerTypesMarkedCases[:6] {
		if !checkOwnerTypesMarked(t, []byte(in)) {
			t.Errorf("%s: not read from the marks", in)
		}
	}
	af, _ := allowedAspect("dataset", "ownership")
	in := []byte(ownerTypesMarkedCases[0])
	value, h, marks, _ := aspectPassesHeldMarks(af.info, af.held, in, &valueArena{size: 1024})
	if _, oh, changed, fast := ownerTypesMarked(value, h, marks, nil); !fast || !changed || oh == 0 {
		t.Errorf("%s: fast %v, changed %v, hash %#x", in, fast, changed, oh)
	}
}

// TestOwnerTypesMarksOnlyForTheCompaction: marks are given only where they
// point into the value checkHeldMarks returns (raw is its own compaction),
// where the check hashed it, and for a marked record.
func TestOwnerTypesMarksOnlyForTheCompaction(t *testing.T) {
	af, _ := allowedAspect("dataset", "ownership")
	for _, in := range []string{
		`{"owners": [{"owner": "urn:li:corpuser:a", "type": "DATAOWNER"}]}`,
		`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER","owner":"urn:li:corpuser:b"}]}`,
	} {
		if _, _, marks, ok := aspectPassesHeldMarks(af.info, af.held, []byte(in), &valueArena{size: 1024}); !ok || marks != nil {
			t.Errorf("%s: accepted %v, marks %v", in, ok, marks)
		}
	}
	// Nor for a record held unmarked.
	held, _ := pdl.HeldRecord("dataset", af.info.RecordName)
	if _, _, marks, ok := aspectPassesHeldMarks(af.info, held, []byte(ownerTypesMarkedCases[0]), &valueArena{size: 1024}); !ok || marks != nil {
		t.Errorf("unmarked: accepted %v, marks %v", ok, marks)
	}
}

// TestPlainTextWords holds plainTextWords to plainText on every byte at
// every place of texts of 0 to 24 bytes.
func TestPlainTextWords(t *testing.T) {
	for n := range 25 {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		if !plainTextWords(b) {
			t.Fatalf("%q: not plain", b)
		}
		for i := range n {
			for c := range 256 {
				b[i] = byte(c)
				if got, want := plainTextWords(b), plainText(b); got != want {
					t.Fatalf("plainTextWords(%q) = %v, plainText %v", b, got, want)
				}
			}
			b[i] = 'a' + byte(i%26)
		}
	}
}

// FuzzPlainTextWords holds plainTextWords to plainText.
func FuzzPlainTextWords(f *testing.F) {
	f.Add([]byte("urn:li:corpuser:abcdefg>"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := plainTextWords(b), plainText(b); got != want {
			t.Fatalf("plainTextWords(%q) = %v, plainText %v", b, got, want)
		}
	})
}

// TestOwnershipMarked: the ownership records held are marked, each once
// for the entity types that share it.
func TestOwnershipMarked(t *testing.T) {
	var marks pdl.Marks
	af, ok := allowedAspect("chart", "ownership")
	if !ok {
		t.Fatal("chart has no ownership")
	}
	in := []byte(ownerTypesMarkedCases[0])
	if _, _, _, ok := af.held.ConformsCompactHashMarks(in, nil, &marks); !ok || marks.N == 0 {
		t.Fatalf("accepted %v, %d marks", ok, marks.N)
	}
	if a, b := ownershipMarked(af.held), ownershipMarked(af.held); a != b {
		t.Error("two copies for one record")
	}
}

// TestOwnershipTypeSymbolsPlain: the symbols of an owner's type are plain
// text, so that ownerTypesMarked need only look for an escape in a type the
// check accepted.
func TestOwnershipTypeSymbolsPlain(t *testing.T) {
	r, ok := pdl.Record("com.linkedin.common.Owner")
	if !ok {
		t.Fatal("no Owner record")
	}
	for _, f := range r.Fields {
		if f.Name != "type" {
			continue
		}
		if f.Type.Kind != pdl.KindEnum || len(f.Type.Symbols) == 0 {
			t.Fatalf("Owner.type is %v, not an enum", f.Type.Kind)
		}
		for _, s := range f.Type.Symbols {
			if !plainText([]byte(s)) {
				t.Errorf("symbol %q is not plain text", s)
			}
		}
		return
	}
	t.Fatal("Owner has no type")
}
