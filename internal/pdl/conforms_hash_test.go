package pdl_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"

	"github.com/catalogkit/datahub-go/internal/jsonrand"
)

// checkConformsHash holds ConformsCompactHash to ConformsCompactTake and
// Hash: the same verdict and compaction, and a hash that is Hash's when it
// is not 0. It returns the hash.
func checkConformsHash(t *testing.T, record, s string) uint64 {
	t.Helper()
	c, h, ok := pdl.ConformsCompactHash(record, []byte(s), nil)
	want, wantOK := pdl.ConformsCompactTake(record, []byte(s), nil)
	if ok != wantOK || string(c) != string(want) {
		t.Fatalf("ConformsCompactHash(%s, %q) = %q, %v; ConformsCompactTake %q, %v", record, s, c, ok, want, wantOK)
	}
	if !ok && h != 0 {
		t.Fatalf("ConformsCompactHash(%s, %q) refuses it with hash %#x", record, s, h)
	}
	if h != 0 && h != pdl.Hash([]byte(s)) {
		t.Fatalf("ConformsCompactHash(%s, %q) hash = %#x, Hash %#x", record, s, h, pdl.Hash([]byte(s)))
	}
	return h
}

// TestConformsHashAspects checks the hash of every aspect document of the
// SDK's testdata, as written and rewritten (members reordered, characters
// escaped, white space added): the schema pass computes Hash's hash of
// each, not 0.
func TestConformsHashAspects(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("..", "..", "aspects", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no aspect documents: %v", err)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _, _ := strings.Cut(filepath.Base(file), ".")
		info, ok := pdl.LookupAspect(name)
		if !ok {
			t.Fatalf("%s: no aspect %q", file, name)
		}
		v, ok := pdl.DecodeJSON(data)
		if !ok {
			t.Fatalf("%s: not JSON", file)
		}
		docs := []string{string(data)}
		for range 20 {
			docs = append(docs, jsonrand.Rewrite(r, v))
		}
		for _, d := range docs {
			if pdl.Hash([]byte(d)) != pdl.Hash(data) {
				t.Fatalf("%s: the rewriting %s changed the data", file, d)
			}
			if h := checkConformsHash(t, info.RecordName, d); h == 0 {
				t.Errorf("%s: ConformsCompactHash(%s, %s) hash = 0", file, info.RecordName, d)
			}
		}
	}
}

// TestConformsHashGivesUp checks the documents whose hash the schema pass
// leaves to Hash (0): a repeated key (Hash's own 0), a map of more than 16
// entries, nesting past Hash's depth.
func TestConformsHashGivesUp(t *testing.T) {
	t.Parallel()
	var entries []string
	for i := range 17 {
		entries = append(entries, fmt.Sprintf(`"k%d": "v"`, i))
	}
	for _, tc := range []struct{ record, doc string }{
		{"com.linkedin.common.Status", `{"removed": true, "removed": false}`},
		{"com.linkedin.dataset.DatasetProperties", `{"customProperties": {"a": "1", "a": "2"}}`},
		{"com.linkedin.dataset.DatasetProperties", `{"customProperties": {"a": "1", "\u0061": "2"}}`},
		{"com.linkedin.dataset.DatasetProperties", `{"customProperties": {` + strings.Join(entries, ", ") + `}}`},
	} {
		if h := checkConformsHash(t, tc.record, tc.doc); h != 0 {
			t.Errorf("ConformsCompactHash(%s, %s) hash = %#x, want 0", tc.record, tc.doc, h)
		}
	}
	if h := checkConformsHash(t, "com.linkedin.dataset.DatasetProperties", `{"customProperties": {`+strings.Join(entries[:16], ", ")+`}}`); h == 0 {
		t.Error("ConformsCompactHash of a map of 16 entries: hash = 0")
	}
}

// TestConformsHashMutations runs checkConformsHash over many mutations of
// valid documents.
func TestConformsHashMutations(t *testing.T) {
	t.Parallel()
	bits := []string{`null`, `1`, `-1`, `1.5`, `1e3`, `2147483648`, `"x"`, `"\u20ac"`, `"\u00e9"`, `"\ud83d\ude00"`, `"a\/b"`,
		`{}`, `[]`, `true`, `false`, `,`, `:`, `"`, `{`, `}`, `[`, `]`, " ", "\n\t", `"DATAOWNER"`, `"owners"`, `"int"`,
		`{"string": "a"}`, `{"int": 1, "int": 2}`, `"time"`, `"\u006f\u0077ners"`}
	mutations(rand.New(rand.NewPCG(11, 11)), 40000, bits, func(s string) {
		for _, rec := range conformsRecords {
			checkConformsHash(t, rec, s)
		}
	})
}

func FuzzConformsCompactHash(f *testing.F) {
	for _, s := range compactTakeSeeds {
		f.Add(s)
	}
	f.Add(`{"owners": [{"owner": "urn:li:corpuser:\u0066bar", "type": "DATAOWNER"}], "ownerTypes": {"\u00e9": []}}`)
	f.Add(`{"hyperParameters": {"lr": {"double": 0.1}, "layers": {"int": 3}, "opt": {"string": "a\"dam"}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range conformsRecords {
			checkConformsHash(t, r, s)
		}
	})
}
