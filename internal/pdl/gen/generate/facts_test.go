package generate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/pdlparse"
)

// sourceOf parses PDL files into a source.
func sourceOf(t *testing.T, files ...string) *source {
	t.Helper()
	s := &source{decls: map[string]*pdlparse.Decl{}, origin: map[string]string{}}
	for i, f := range files {
		pf, err := pdlparse.Parse("f"+string(rune('0'+i))+".pdl", []byte(f))
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range pf.Decls {
			s.add(d, "pdl")
		}
	}
	return s
}

// brief is what a test checks of a searchable fact.
type brief struct{ Path, Kind, Name, Type string }

func briefs(ss []searchableFact) []brief {
	var out []brief
	for _, s := range ss {
		out = append(out, brief{s.Path, s.Kind, s.Ann.FieldName, s.Ann.FieldType})
	}
	return out
}

const factsCommon = `namespace t
@java.class = "com.linkedin.common.urn.Urn"
typeref Urn = string
`

const factsTyperef = `namespace t
@Searchable = { "fieldType": "KEYWORD", "fieldName": "fromTyperef" }
typeref Tagged = string
`

func TestFactsResolution(t *testing.T) {
	t.Parallel()
	src := sourceOf(t, factsCommon, factsTyperef,
		`namespace t
record Tag {
  @Searchable = { "fieldType": "URN", "fieldName": "inner" }
  @Relationship = { "name": "Inner", "entityTypes": ["tag"] }
  tag: Urn
  @Searchable = { "fieldType": "TEXT" }
  note: optional string
}`,
		`namespace t
record Tags {
  @Searchable = { "/*/tag": { "fieldName": "tags" } }
  tags: array[Tag]
}`,
		`namespace t
record Base { a: string  b: string }`,
		`namespace t
@Searchable = { "/b": { "fieldName": "notHere" } }
record WithIncludes includes Base {
  c: int
}`,
		`namespace t
@Aspect = { "name": "thing" }
@Searchable = { "/a": { "fieldName": "fromInclude" } }
record Thing includes WithIncludes {
  @Searchable = { "/tags/*/tag": { "fieldName": "outer", "boostScore": 2.0 }, "/tags/*/note": null }
  @Relationship = { "/tags/*/tag": { "name": "Outer", "isLineage": true, "isUpstream": false } }
  own: Tags
  other: Tags
  @Searchable = { "/$key": { "fieldType": "KEYWORD", "fieldName": "keys" }, "/*": { "fieldName": "vals" } }
  props: map[string, string]
  inner: map[string, Tag]
  @Searchable = { "/t.Tag/tag": {} }
  choice: union[Tag, string]
  @Searchable = {}
  count: int
  @Searchable = { "fieldName": "count" }
  score: double
  @Searchable = { "/*/note": {} }
  again: array[Tag]
  viaTyperef: Tagged
  @Searchable = { "fieldName": "own" }
  overridden: Tagged
}`)
	f := &facts{src: src}
	ss, rs, _ := f.aspect("t.Thing")
	if len(f.errs) > 0 {
		t.Fatalf("errors: %v", f.errs)
	}
	wantS := []brief{
		{"/a", "KindString", "fromInclude", "TEXT"},        // a record's override of an included field (not /b: only the aspect record's own count)
		{"/own/tags/*/tag", "KindString", "outer", "TEXT"}, // the outermost override wins
		{"/other/tags/*/tag", "KindString", "tags", "TEXT"},
		{"/other/tags/*/note", "KindString", "note", "TEXT"}, // switched off by null under /own only
		{"/props", "KindMap", "keys", "KEYWORD"},             // a map takes its key's annotation first
		{"/choice/t.Tag/tag", "KindString", "tag", "TEXT"},
		{"/choice/t.Tag/note", "KindString", "choice_t.Tag_note", "TEXT"}, // "note" taken: named after the path
		{"/count", "KindInt", "count", "COUNT"},
		{"/score", "KindDouble", "score", "DOUBLE"}, // "count" taken
		{"/again/*/tag", "KindString", "inner", "URN"},
		// "/again/*/note" would be "again__note": dropped
		{"/viaTyperef", "KindString", "fromTyperef", "KEYWORD"}, // a typeref's annotation applies where it is used
		{"/overridden", "KindString", "own", "TEXT"},            // and the field's own beats it
	}
	if diff := cmp.Diff(wantS, briefs(ss)); diff != "" {
		t.Errorf("searchable (-want +got):\n%s", diff)
	}
	for _, s := range ss {
		if s.Path == "/own/tags/*/tag" && *s.Ann.BoostScore != 2 {
			t.Errorf("boost %v, want 2", *s.Ann.BoostScore)
		}
	}
	var gotR []string
	for _, r := range rs {
		dir := " down"
		if r.IsUpstream {
			dir = " up"
		}
		if r.IsLineage {
			dir = " lineage" + dir
		}
		gotR = append(gotR, r.Path+" "+r.Name+dir)
	}
	wantR := []string{
		"/own/tags/*/tag Outer lineage down",
		"/other/tags/*/tag Inner up",
		"/inner/*/tag Inner up", // relationships inside maps count, searchable values do not
		"/choice/t.Tag/tag Inner up",
		"/again/*/tag Inner up",
	}
	if diff := cmp.Diff(wantR, gotR); diff != "" {
		t.Errorf("relationships (-want +got):\n%s", diff)
	}
}

func TestFactsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		pdl  []string
		want string
	}{
		{"relationship on a number", []string{`namespace t
record R { @Relationship = { "name": "X" } n: long }`}, "@Relationship on a Long value"},
		{"override that is not a path", []string{`namespace t
record S { a: string }`, `namespace t
record R { @Searchable = { "fieldType": "TEXT" } s: S }`}, `key "fieldType" is not a path`},
		{"unknown field type", []string{`namespace t
record R { @Searchable = { "fieldType": "FANCY" } s: string }`}, `unknown @Searchable fieldType "FANCY"`},
		{"relationship without a name", []string{`namespace t
record R { @Relationship = { "entityTypes": ["x"] } s: string }`}, "@Relationship without a name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := &facts{src: sourceOf(t, tt.pdl...)}
			f.aspect("t.R")
			if !strings.Contains(strings.Join(f.errs, "\n"), tt.want) {
				t.Errorf("errors %q, want one containing %q", f.errs, tt.want)
			}
		})
	}
}
