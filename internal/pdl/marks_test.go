package pdl_test

import (
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// ownershipMarkPaths are the paths the tests mark: a record's fields, an
// optional field, the records of an array and a map.
var ownershipMarkPaths = []string{"owners/*/owner", "owners/*/type", "owners/*/typeUrn", "owners/*", "ownerTypes", "lastModified/time"}

// markedOwnership returns dataset's ownership record as held, and its copy
// marked at ownershipMarkPaths.
func markedOwnership(t testing.TB) (held, marked pdl.Held) {
	t.Helper()
	held, ok := pdl.HeldRecord("dataset", "com.linkedin.common.Ownership")
	if !ok {
		t.Fatal("no held ownership record")
	}
	marked, ok = held.Marking(ownershipMarkPaths...)
	if !ok {
		t.Fatal("Marking refused the paths")
	}
	return held, marked
}

var marksSeeds = []string{
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":7,"actor":"urn:li:corpuser:a"}}`,
	`{"owners": [{"type": "TECHNICAL_OWNER", "owner": "urn:li:corpGroup:eng", "typeUrn": "urn:li:ownershipType:x.y"}, {"owner": "urn:li:corpuser:b", "type": "DATAOWNER"}], "lastModified": {"actor": "urn:li:corpuser:a", "time": 12}}`,
	`{"ownerTypes":{"urn:li:ownershipType:__system__none":["urn:li:corpuser:c"]},"owners":[]}`,
	`{"owners":[{"owner":"urn:li:corpuser:\u0061","type":"DATA\u004fWNER"}]}`,
	`{"owners":[]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER","source":{"type":"AUDIT"}}]}`,
}

// markTexts returns the marks of a walk as "ID:text" strings, in order.
func markTexts(data []byte, ms []pdl.Mark) []string {
	var out []string
	for _, m := range ms {
		out = append(out, fmt.Sprintf("%d:%s", m.ID, data[m.Start:m.End]))
	}
	return out
}

// TestMarks checks a walk's marks: the texts of the places marked, in the
// order the walk ended them, and their hashes.
func TestMarks(t *testing.T) {
	t.Parallel()
	_, marked := markedOwnership(t)
	data := []byte(marksSeeds[1])
	var marks pdl.Marks
	_, h, _, ok := marked.ConformsCompactHashMarks(data, nil, &marks)
	if !ok || h == 0 {
		t.Fatalf("refused (%v) or not hashed (%#x)", ok, h)
	}
	ms, kept := marks.Kept()
	if !kept {
		t.Fatal("marks not kept")
	}
	want := []string{
		`2:"TECHNICAL_OWNER"`, `1:"urn:li:corpGroup:eng"`, `3:"urn:li:ownershipType:x.y"`,
		`4:{"type": "TECHNICAL_OWNER", "owner": "urn:li:corpGroup:eng", "typeUrn": "urn:li:ownershipType:x.y"}`,
		`1:"urn:li:corpuser:b"`, `2:"DATAOWNER"`, `4:{"owner": "urn:li:corpuser:b", "type": "DATAOWNER"}`,
		`6:12`,
	}
	if got := markTexts(data, ms); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("marks\n%q\nwant\n%q", got, want)
	}
	for _, m := range ms {
		if m.Hash != pdl.Hash(data[m.Start:m.End]) {
			t.Errorf("mark %d %s: hash %#x, Hash %#x", m.ID, data[m.Start:m.End], m.Hash, pdl.Hash(data[m.Start:m.End]))
		}
	}
}

// TestMarksNotKept: past MaxMarks a walk keeps none for the reader.
func TestMarksNotKept(t *testing.T) {
	t.Parallel()
	_, marked := markedOwnership(t)
	data := []byte(`{"owners":[`)
	n := pdl.MaxMarks/3 + 1 // three marks an owner
	for i := range n {
		if i > 0 {
			data = append(data, ',')
		}
		data = fmt.Appendf(data, `{"owner":"urn:li:corpuser:u%d","type":"DATAOWNER"}`, i)
	}
	data = append(data, "]}"...)
	var marks pdl.Marks
	if _, _, _, ok := marked.ConformsCompactHashMarks(data, nil, &marks); !ok {
		t.Fatal("refused")
	}
	if _, kept := marks.Kept(); kept || marks.N != 3*n {
		t.Errorf("N = %d, kept %v; want %d, not kept", marks.N, kept, 3*n)
	}
}

// TestMarkingRefused: paths that name no field or record are refused.
func TestMarkingRefused(t *testing.T) {
	t.Parallel()
	held, _ := markedOwnership(t)
	for _, p := range []string{"nope", "owners/owner", "owners/*/nope", "lastModified/time/x", "ownerTypes/*"} {
		if _, ok := held.Marking(p); ok {
			t.Errorf("Marking(%q) accepted", p)
		}
	}
	if _, ok := (pdl.Held{}).Marking("owners"); ok {
		t.Error("the zero Held marked")
	}
}

// FuzzMarks holds the marked walk to the unmarked one (the same verdict,
// compaction, ASCII report and hash: marks change nothing of the check)
// and each kept mark's hash to Hash of its text when the walk's hash is
// not 0.
func FuzzMarks(f *testing.F) {
	for _, s := range marksSeeds {
		f.Add([]byte(s))
	}
	held, marked := markedOwnership(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, h, ascii, ok := held.ConformsCompactHash(data, nil)
		var marks pdl.Marks
		mc, mh, mascii, mok := marked.ConformsCompactHashMarks(data, nil, &marks)
		if ok != mok || string(c) != string(mc) || h != mh || ascii != mascii {
			t.Fatalf("%q: marked walk %q %#x %v %v; unmarked %q %#x %v %v", data, mc, mh, mascii, mok, c, h, ascii, ok)
		}
		ms, kept := marks.Kept()
		if !ok || h == 0 || !kept {
			return
		}
		for _, m := range ms {
			if m.ID < 1 || int(m.ID) > len(ownershipMarkPaths) || m.Start < 0 || m.Start > m.End || m.End > len(data) {
				t.Fatalf("%q: mark %+v", data, m)
			}
			if m.Hash != pdl.Hash(data[m.Start:m.End]) {
				t.Fatalf("%q: mark %d %s: hash %#x, Hash %#x", data, m.ID, data[m.Start:m.End], m.Hash, pdl.Hash(data[m.Start:m.End]))
			}
		}
	})
}

// TestMarksSeeds runs FuzzMarks's check on its seeds.
func TestMarksSeeds(t *testing.T) {
	t.Parallel()
	held, marked := markedOwnership(t)
	for _, s := range marksSeeds {
		data := []byte(s)
		c, h, _, ok := held.ConformsCompactHash(data, nil)
		var marks pdl.Marks
		mc, mh, _, mok := marked.ConformsCompactHashMarks(data, nil, &marks)
		if ok != mok || string(c) != string(mc) || h != mh {
			t.Errorf("%s: marked walk %q %#x %v; unmarked %q %#x %v", s, mc, mh, mok, c, h, ok)
		}
		if !ok {
			t.Errorf("%s: refused", s)
		}
	}
}
