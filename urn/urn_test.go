package urn

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
	"github.com/catalogkit/datahub-go/internal/testshared"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/google/go-cmp/cmp"
)

func TestEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"", ""},
		{"db.t", "db.t"},
		{",", "%2C"},
		{"(", "%28"},
		{")", "%29"},
		{"\u241f", "%E2%90%9F"},
		{"Split 1 - final (Investment Income Details", "Split 1 - final %28Investment Income Details"},
		// Only the four reserved characters: %, :, /, spaces and other
		// characters stay as they are.
		{"a%2Cb: c/d ~*é", "a%2Cb: c/d ~*é"},
		{"f(a,b)\u241f", "f%28a%2Cb%29%E2%90%9F"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, Escape(tt.in)); diff != "" {
				t.Errorf("Escape(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestPathEscape(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		// WIRE.md §2.1, the example of Urn.url_encode.
		{"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", "urn%3Ali%3Adataset%3A%28urn%3Ali%3AdataPlatform%3Ahive%2Cdb.t%2CPROD%29"},
		{"urn:li:corpuser:jdoe", "urn%3Ali%3Acorpuser%3Ajdoe"},
		{"AZaz09_.-~", "AZaz09_.-~"},
		{"a b/c%d*e+f", "a%20b%2Fc%25d%2Ae%2Bf"},
		{"é\u241f", "%C3%A9%E2%90%9F"},
		{"\xff", "%FF"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, PathEscape(tt.in)); diff != "" {
				t.Errorf("PathEscape(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  *ParseError
		want string
	}{
		{&ParseError{Input: "x", Reason: "bad"}, `urn: invalid urn "x": bad`},
		{newError("dataset", "urn:li:dataset:(a,b)", "want %d parts, got %d", 3, 2), `urn: invalid dataset urn "urn:li:dataset:(a,b)": want 3 parts, got 2`},
		{&ParseError{Input: strings.Repeat("a", 300), Reason: "r"}, `urn: invalid urn "` + strings.Repeat("a", 200) + `...": r`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.err.Error()); diff != "" {
				t.Errorf("Error() mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(tt.err, datahub.ErrValidation) {
				t.Error("errors.Is(err, datahub.ErrValidation) = false")
			}
			if errors.Is(tt.err, datahub.ErrNotFound) {
				t.Error("errors.Is(err, datahub.ErrNotFound) = true")
			}
		})
	}
}

// record holds every typed URN as a JSON field to check the text methods.
type record struct {
	Dataset        Dataset        `json:"dataset"`
	MLFeature      MLFeature      `json:"mlFeature"`
	MLFeatureTable MLFeatureTable `json:"mlFeatureTable"`
	MLModel        MLModel        `json:"mlModel"`
	MLModelGroup   MLModelGroup   `json:"mlModelGroup"`
	CorpUser       CorpUser       `json:"corpuser"`
	DataPlatform   DataPlatform   `json:"dataPlatform"`
	Test           Test           `json:"test"`
	Tag            Tag            `json:"tag"`
	GlossaryTerm   GlossaryTerm   `json:"glossaryTerm"`
	SchemaField    SchemaField    `json:"schemaField"`
	Generic        Generic        `json:"generic"`
}

func TestText(t *testing.T) {
	t.Parallel()
	in := `{"dataset":"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",` +
		`"mlFeature":"urn:li:mlFeature:(ns,f)",` +
		`"mlFeatureTable":"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)",` +
		`"mlModel":"urn:li:mlModel:(urn:li:dataPlatform:s,m,DEV)",` +
		`"mlModelGroup":"urn:li:mlModelGroup:(urn:li:dataPlatform:s,g,PROD)",` +
		`"corpuser":"urn:li:corpuser:jdoe",` +
		`"dataPlatform":"urn:li:dataPlatform:hive",` +
		`"test":"urn:li:test:t",` +
		`"tag":"urn:li:tag:pii",` +
		`"glossaryTerm":"urn:li:glossaryTerm:a.b",` +
		`"schemaField":"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),a)",` +
		`"generic":"urn:li:myEntity:(urn:li:dataFlow:(airflow,daily,PROD),load)"}`
	var r record
	if err := json.Unmarshal([]byte(in), &r); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, string(out)); diff != "" {
		t.Errorf("JSON round trip mismatch (-want +got):\n%s", diff)
	}

	// Empty text is the zero value, both ways.
	var empty record
	out, err = json.Marshal(empty)
	if err != nil {
		t.Fatal(err)
	}
	r = record{Dataset: MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)").(Dataset)}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(empty, r, exportAll); diff != "" {
		t.Errorf("empty JSON round trip mismatch (-want +got):\n%s", diff)
	}

	// Bad text is refused with a *ParseError.
	err = json.Unmarshal([]byte(`{"dataset":"urn:li:dataset:(a,b)"}`), &r)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Reason != "want 3 parts, got 2" {
		t.Errorf("Unmarshal of a bad dataset urn: %v", err)
	}
}

// TestFabricTypesMatchPDL checks our env list against DataHub's FabricType.pdl.
func TestFabricTypesMatchPDL(t *testing.T) {
	t.Parallel()
	path := filepath.Join(testshared.Dir(t), "reference", "datahub", "li-utils", "src", "main", "pegasus", "com", "linkedin", "common", "FabricType.pdl")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Drop comments, then take every upper-case symbol inside the enum body.
	text := regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`).ReplaceAllString(string(data), "")
	body := text[strings.Index(text, "{")+1 : strings.LastIndex(text, "}")]
	got := regexp.MustCompile(`[A-Z][A-Z0-9_]*`).FindAllString(body, -1)
	if diff := cmp.Diff(got, FabricTypes()); diff != "" {
		t.Errorf("FabricTypes() differs from FabricType.pdl (-pdl +ours):\n%s", diff)
	}
	if len(got) != 17 {
		t.Errorf("FabricType.pdl has %d symbols, WIRE.md §7 says 17", len(got))
	}
}

// TestWireExamples parses every concrete URN that WIRE.md shows and checks
// that it prints back unchanged.
func TestWireExamples(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(testshared.Dir(t), "reference", "WIRE.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Concrete URNs only: stop at characters that end one in the text, and
	// skip templates such as urn:li:test:<id>.
	re := regexp.MustCompile("urn:li:[A-Za-z]+:(\\([^`\"\\s<>{}]*\\)|[A-Za-z0-9_.@-]+)")
	seen := map[string]bool{}
	for _, s := range re.FindAllString(string(data), -1) {
		if seen[s] || strings.ContainsAny(s, "<>{}") {
			continue
		}
		seen[s] = true
		u, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if u.String() != s {
			t.Errorf("Parse(%q).String() = %q", s, u.String())
		}
	}
	if len(seen) < 5 {
		t.Errorf("found only %d URNs in WIRE.md: %v", len(seen), seen)
	}
}

// TestEveryEntityTyped checks that every entity type of DataHub's registry
// has a typed URN: one of the hand-written types or a generated one, whose
// sample parses to that type and prints back unchanged.
func TestEveryEntityTyped(t *testing.T) {
	t.Parallel()
	ents := pdl.Entities()
	hand := 0
	for _, e := range ents {
		s, ok := generatedSamples[e.Name]
		if !ok {
			if !isTyped(e.Name) {
				t.Errorf("entity %s has no URN type", e.Name)
			}
			hand++
			continue
		}
		u, err := Parse(s)
		if err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if _, generic := u.(Generic); generic || u.EntityType() != e.Name || u.String() != s {
			t.Errorf("Parse(%q) = %#v (%T)", s, u, u)
		}
	}
	if len(ents) != 71 || hand != 11 || len(generatedSamples) != 60 {
		t.Errorf("%d entities: %d typed by hand, %d generated; want 71, 11 and 60", len(ents), hand, len(generatedSamples))
	}
}

// TestGeneratedUpToDate proves entities_gen.go and entities_gen_test.go are
// what the generator writes from the PDL tree today (run go generate ./urn).
func TestGeneratedUpToDate(t *testing.T) {
	t.Parallel()
	m, err := gotypes.Load(testshared.Path(t, "reference", "datahub-pegasus"), filepath.Join("..", "aspects"))
	if err != nil {
		t.Fatal(err)
	}
	hand, err := gotypes.HandURNEntities(".")
	if err != nil {
		t.Fatal(err)
	}
	files, err := gotypes.GenerateURN(m, hand)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%v (run go generate ./urn)", err)
			continue
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s differs from a fresh generation (run go generate ./urn) (-fresh +committed):\n%s", name, diff)
		}
	}
}

// TestIsFabricType checks isFabricType's list against fabricTypes and
// fabricType's, for every symbol and near misses.
func TestIsFabricType(t *testing.T) {
	for _, f := range fabricTypes {
		for _, s := range []string{f, strings.ToLower(f), f + "X", f[1:], " " + f} {
			_, want := fabricType(s, false)
			if got := isFabricType(s); got != want || got != (s == f) {
				t.Errorf("isFabricType(%q) = %v, fabricType says %v", s, got, want)
			}
		}
	}
}
