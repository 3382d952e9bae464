package graphql

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// The least numbers of DataHub's Query and Mutation fields the mock serves
// (a resolver answers them), raised as fields are served: the walk fails
// when fewer are.
const (
	minServedQueries   = 107
	minServedMutations = 169
)

// served is whether a root field has a resolver.
func served(typ, field string) bool {
	if registry[typ+"."+field] != nil {
		return true
	}
	return typ == "Query" && findAccessor(reflect.TypeFor[*resolver](), field) != nil
}

// TestWalkDataHubSchema runs a document for every field of DataHub's Query
// and Mutation through the handler: a served field answers without the
// "does not serve" error; a field on subsystemAnswers answers what that list
// pins; every other field is counted as not served yet. It prints the
// counts and the fields not served.
func TestWalkDataHubSchema(t *testing.T) {
	t.Parallel()
	core, _ := newTestCore(t)
	h, err := New(core)
	if err != nil {
		t.Fatal(err)
	}
	for _, root := range []*ast.Definition{h.schema.Query, h.schema.Mutation} {
		var ok, pinned int
		var missing []string
		for _, f := range root.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			doc := walkDocument(h.schema, root, f)
			body, _ := json.Marshal(map[string]any{"query": doc})
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodPost, "/api/graphql", strings.NewReader(string(body))))
			answer := w.Body.String()
			if w.Code != http.StatusOK || strings.Contains(answer, `"classification":"ValidationError"`) {
				t.Errorf("%s.%s: the walk's document is refused: %d %s\n%s", root.Name, f.Name, w.Code, answer, doc)
				continue
			}
			key := root.Name + "." + f.Name
			switch want, onList := subsystemAnswers[key]; {
			case onList:
				pinned++
				if answer != want {
					t.Errorf("%s answers %s, want %s", key, answer, want)
				}
			case served(root.Name, f.Name):
				ok++
				if strings.Contains(answer, fmt.Sprintf(msgNotServed, root.Name, f.Name)) {
					t.Errorf("%s is served but answers %s", key, answer)
				}
			default:
				missing = append(missing, f.Name)
			}
		}
		total := ok + pinned + len(missing)
		t.Logf("%s: %d of %d fields served, %d answered as DataHub without their subsystem, %d not served: %s",
			root.Name, ok, total, pinned, len(missing), strings.Join(missing, " "))
		minServed := minServedQueries
		if root == h.schema.Mutation {
			minServed = minServedMutations
		}
		if ok+pinned < minServed {
			t.Errorf("%s: %d fields served or pinned, want at least %d", root.Name, ok+pinned, minServed)
		}
	}
}

// walkDocument is a document asking field f of root with its required
// arguments and the least selection.
func walkDocument(s *ast.Schema, root *ast.Definition, f *ast.FieldDefinition) string {
	var b strings.Builder
	if root.Name == "Mutation" {
		b.WriteString("mutation ")
	}
	b.WriteString("{ " + f.Name)
	var args []string
	for _, a := range f.Arguments {
		if a.Type.NonNull && a.DefaultValue == nil {
			args = append(args, a.Name+": "+walkValue(s, a.Type, 0))
		}
	}
	if len(args) > 0 {
		b.WriteString("(" + strings.Join(args, ", ") + ")")
	}
	if def := s.Types[f.Type.Name()]; def.Kind != ast.Scalar && def.Kind != ast.Enum {
		b.WriteString(" { __typename }")
	}
	b.WriteString(" }")
	return b.String()
}

// walkValue is a literal of type t: its required parts only.
func walkValue(s *ast.Schema, t *ast.Type, depth int) string {
	if t.Elem != nil {
		return "[" + walkValue(s, t.Elem, depth) + "]"
	}
	def := s.Types[t.NamedType]
	switch {
	case def.Kind == ast.Enum:
		return def.EnumValues[0].Name
	case def.Kind == ast.InputObject:
		var fs []string
		for _, f := range def.Fields {
			if f.Type.NonNull && f.DefaultValue == nil && depth < 6 {
				fs = append(fs, f.Name+": "+walkValue(s, f.Type, depth+1))
			}
		}
		return "{" + strings.Join(fs, ", ") + "}"
	case slices.Contains([]string{"Int", "Long", "Float"}, t.NamedType):
		return "1"
	case t.NamedType == "Boolean":
		return "false"
	}
	return `"urn:li:corpuser:walk"`
}

// subsystemAnswers are the fields answered as a DataHub without the
// subsystem they need (analytics, ingestion execution, secrets, ...),
// with the answer pinned for the walk's document.
var subsystemAnswers = map[string]string{
	"Query.isAnalyticsEnabled":           `{"data":{"isAnalyticsEnabled":false},"extensions":{}}`,
	"Query.getAnalyticsCharts":           `{"data":{"getAnalyticsCharts":[]},"extensions":{}}`,
	"Query.getHighlights":                `{"data":{"getHighlights":[]},"extensions":{}}`,
	"Query.getMetadataAnalyticsCharts":   `{"data":{"getMetadataAnalyticsCharts":[]},"extensions":{}}`,
	"Query.listRecommendations":          `{"data":{"listRecommendations":{"__typename":"ListRecommendationsResult"}},"extensions":{}}`,
	"Query.getQuickFilters":              `{"data":{"getQuickFilters":{"__typename":"GetQuickFiltersResult"}},"extensions":{}}`,
	"Query.listLifecycleStages":          `{"data":{"listLifecycleStages":[]},"extensions":{}}`,
	"Query.latestProductUpdate":          `{"data":{"latestProductUpdate":null},"extensions":{}}`,
	"Query.globalHomePageSettings":       `{"data":{"globalHomePageSettings":{"__typename":"GlobalHomePageSettings"}},"extensions":{}}`,
	"Query.semanticSearch":               subsystemError("semanticSearch", "Semantic search is disabled in this environment", 400),
	"Query.semanticSearchAcrossEntities": subsystemError("semanticSearchAcrossEntities", "Semantic search is disabled in this environment", 400),
	"Query.getPresignedUploadUrl":        strings.Replace(subsystemError("getPresignedUploadUrl", "S3Util isn't provided", 400), `{"getPresignedUploadUrl":null}`, "null", 1), // non-null
}

// subsystemError is the walk's answer of a field that fails: its error at
// the walk document's field (line 1, column 3) and null data.
func subsystemError(field, msg string, code int) string {
	ext, _ := json.Marshal((&gqlError{msg, code}).Extensions())
	m, _ := json.Marshal(msg)
	return `{"errors":[{"message":` + string(m) + `,"locations":[{"line":1,"column":3}],"path":["` + field + `"],"extensions":` +
		string(ext) + `}],"data":{"` + field + `":null},"extensions":{}}`
}

// TestSubsystemAnswersPinned checks that the walk pins every field answered
// without its subsystem.
func TestSubsystemAnswersPinned(t *testing.T) {
	t.Parallel()
	for name := range subsystemFields {
		if _, ok := subsystemAnswers["Query."+name]; !ok {
			t.Errorf("Query.%s is answered without its subsystem but not pinned by the walk", name)
		}
	}
	for name := range subsystemErrors {
		if _, ok := subsystemAnswers["Query."+name]; !ok {
			t.Errorf("Query.%s is answered without its subsystem but not pinned by the walk", name)
		}
	}
}
