package aspects

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
)

// TestGeneratedDocsCarryPDL checks the doc comments of the generated types
// against DataHub's PDL: every generated field whose PDL field has a doc
// comment carries that text (its first words, in order), every field and
// type marked @deprecated has a "Deprecated:" paragraph, and a few are
// checked whole.
func TestGeneratedDocsCarryPDL(t *testing.T) {
	t.Parallel()
	m := pegasusModel(t)
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	fieldDocs := map[string]string{} // "GoType.jsonName" -> comment
	typeDocs := map[string]string{}  // Go type -> comment
	typeOf := map[string]string{}    // Go type -> PDL record it was generated from
	pdlName := regexp.MustCompile(`\b(?:com|io)\.[a-z][\w]*(?:\.\w+)+\b`)
	for _, path := range paths {
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, spec := range gd.Specs {
				ts := spec.(*ast.TypeSpec)
				doc := gd.Doc.Text()
				typeDocs[ts.Name.Name] = doc
				if name := pdlName.FindString(doc); name != "" && !strings.Contains(doc, "the union of field") {
					typeOf[ts.Name.Name] = name
				}
				st, ok := ts.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, fld := range st.Fields.List {
					if fld.Tag == nil {
						continue
					}
					tag, _ := strconv.Unquote(fld.Tag.Value)
					json, _, _ := strings.Cut(strings.TrimPrefix(tag, `json:"`), `"`)
					json, _, _ = strings.Cut(json, ",")
					fieldDocs[ts.Name.Name+"."+json] = fld.Doc.Text()
				}
			}
		}
	}

	checked, deprecated := 0, 0
	for goType, record := range typeOf {
		d := m.Decls[record]
		if d == nil {
			continue
		}
		if d.Deprecated != nil {
			deprecated++
			if !strings.Contains(typeDocs[goType], "\nDeprecated: ") {
				t.Errorf("%s (%s) is @deprecated in the PDL; its doc has no Deprecated paragraph:\n%s", goType, record, typeDocs[goType])
			}
		}
		if d.Doc != "" && !containsWords(typeDocs[goType], firstWords(d.Doc, 5)) {
			t.Errorf("%s: doc lacks the PDL's %q:\n%s", goType, firstWords(d.Doc, 5), typeDocs[goType])
		}
		for _, f := range flattenFields(m, record) {
			doc, ok := fieldDocs[goType+"."+f.Name]
			if !ok {
				continue
			}
			if f.Doc != "" {
				checked++
				if want := firstWords(f.Doc, 6); !containsWords(doc, want) {
					t.Errorf("%s.%s: doc lacks the PDL's %q:\n%s", goType, f.Name, want, doc)
				}
			}
			if f.Deprecated != nil {
				deprecated++
				if !strings.Contains(doc, "Deprecated: ") {
					t.Errorf("%s.%s is @deprecated in the PDL; its doc has no Deprecated paragraph:\n%s", goType, f.Name, doc)
				}
			}
		}
	}
	if checked < 1000 || deprecated < 20 {
		t.Errorf("checked %d field docs and %d deprecations: fewer than the PDL has", checked, deprecated)
	}
	t.Logf("%d generated types, %d field docs, %d deprecations checked", len(typeOf), checked, deprecated)

	for key, want := range map[string]string{
		"DatasetDeprecation.deprecated": "Whether the dataset is deprecated by owner.\n",
		"DatasetDeprecation.actor":      "The corpuser URN which will be credited for modifying this deprecation\ncontent. It is optional: nil is left out.\n",
	} {
		if got := fieldDocs[key]; got != want {
			t.Errorf("%s doc = %q, want %q", key, got, want)
		}
	}
	if doc := typeDocs["DatasetDeprecation"]; !strings.HasSuffix(doc, "\nDeprecated: DataHub marks this type deprecated.\n") {
		t.Errorf("DatasetDeprecation doc:\n%s", doc)
	}
}

// flattenFields is the fields of record with those of its includes.
func flattenFields(m *gotypes.Model, record string) []pdlFieldDoc {
	d := m.Decls[record]
	if d == nil {
		return nil
	}
	var out []pdlFieldDoc
	for _, inc := range d.Includes {
		out = append(out, flattenFields(m, inc)...)
	}
	for _, f := range d.Fields {
		out = append(out, pdlFieldDoc{Name: f.Name, Doc: f.Doc, Deprecated: f.Deprecated})
	}
	return out
}

type pdlFieldDoc struct {
	Name, Doc  string
	Deprecated *string
}

var plainWord = regexp.MustCompile(`^[A-Za-z]+[.,;:]?$`)

// firstWords is up to n plain words of a PDL doc, in order, lower case,
// punctuation dropped (markup and code are skipped).
func firstWords(doc string, n int) []string {
	var out []string
	for _, w := range strings.Fields(doc) {
		if !plainWord.MatchString(w) {
			continue
		}
		out = append(out, strings.ToLower(strings.TrimRight(w, ".,;:")))
		if len(out) == n {
			break
		}
	}
	return out
}

// containsWords reports whether the words of text include words in order.
func containsWords(text string, words []string) bool {
	i := 0
	for _, w := range strings.Fields(text) {
		if i < len(words) && strings.ToLower(strings.Trim(w, ".,;:!?()'\"`")) == words[i] {
			i++
		}
	}
	return i == len(words)
}
