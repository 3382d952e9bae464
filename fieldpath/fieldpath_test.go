package fieldpath

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/testshared"

	"github.com/google/go-cmp/cmp"
)

func TestSimplify(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		// WIRE.md §6, from DataHub's SchemaFieldUtilsTest.
		{"[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a.[type=long].f", "a.f"},
		{"customer_id", "customer_id"},
		// WIRE.md §6: the aliases of one union field all downgrade to "a".
		{"[version=2.0].[type=ABFooUnion].[type=union].a", "a"},
		{"[version=2.0].[type=ABFooUnion].[type=union].[type=A].a", "a"},
		{"[version=2.0].[type=ABFooUnion].[type=union].[type=B].a", "a"},
		{"[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a", "a"},
		// field-path-spec-v2.md examples.
		{"[version=2.0].[type=string]", ""},
		{"[version=2.0].[type=E].[type=string].a", "a"},
		{"[version=2.0].[key=True].[type=SimpleNested].[type=InnerRcd].nestedRcd.[type=string].aStringField", "nestedRcd.aStringField"},
		{"[version=2.0].[type=R].[type=map].[type=long].a_map_of_longs_field", "a_map_of_longs_field"},
		{"[version=2.0].[type=Recursive].[type=R].r.[type=R].aRecursiveField", "r.aRecursiveField"},
		// Not version 2: unchanged, brackets and all.
		{"", ""},
		{"a.b.c", "a.b.c"},
		{"[type=Foo].a", "[type=Foo].a"},
		{"[version=1.0].[type=Foo].a", "[version=1.0].[type=Foo].a"},
		{" [version=2.0].a", " [version=2.0].a"},
		// Version 2 but malformed: SPEC.md's rule, token by token.
		{"[version=2.0]", ""},
		{"[version=2.0]a.b", "0]a.b"}, // the version token's own dot splits it: "[version=2" and "0]a"
		{"[version=2.0].a..b", "a..b"},
		{"[version=2.0].a.x].[y.b", "a.b"},
		{"[version=2.0].[type=com.acme.Foo].a", "acme.a"},
		{"[version=2.0].a[0].b[1]", ""},
		{"[version=2.0].a[0].b", "b"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, Simplify(tt.in)); diff != "" {
				t.Errorf("Simplify(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestIsV2IsKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		v2, isKey bool
	}{
		{"a.b", false, false},
		{"", false, false},
		{"[version=2.0]", true, false},
		{"[version=2.0].[type=E].[type=string].a", true, false},
		{"[version=2.0].[key=True]", true, true},
		{"[version=2.0].[key=True].[type=K].[type=string].id", true, true},
		{"[version=2.0].[key=True]x", true, false},
		{"[version=2.0].[type=E].[key=True]", true, false},
		{"[version=2.1].a", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got := []bool{IsV2(tt.in), IsKey(tt.in)}
			if diff := cmp.Diff([]bool{tt.v2, tt.isKey}, got); diff != "" {
				t.Errorf("[IsV2, IsKey](%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// TestSpecExamples takes every version-2 path in DataHub's field path spec,
// rebuilds it with Builder and checks what Simplify makes of it.
func TestSpecExamples(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join(testshared.Dir(t), "reference", "datahub", "docs", "advanced", "field-path-spec-v2.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths := regexp.MustCompile(`"(\[version=2\.0\][^"]*)"`).FindAllStringSubmatch(string(data), -1)
	if len(paths) < 20 {
		t.Fatalf("found only %d version-2 paths in the spec", len(paths))
	}
	for _, m := range paths {
		path := m[1]
		toks := strings.Split(strings.TrimPrefix(path, VersionToken+"."), ".")
		b := New()
		if len(toks) > 0 && toks[0] == KeyToken {
			b, toks = NewKey(), toks[1:]
		}
		var fields []string
		for _, tok := range toks {
			if name, ok := strings.CutPrefix(tok, "[type="); ok {
				b = b.Type(strings.TrimSuffix(name, "]"))
				continue
			}
			b = b.Field(tok)
			fields = append(fields, tok)
		}
		got, err := b.Build()
		if err != nil {
			t.Errorf("rebuilding %q: %v", path, err)
			continue
		}
		if got != path {
			t.Errorf("rebuilt %q as %q", path, got)
		}
		if !IsV2(path) || IsKey(path) != strings.Contains(path, KeyToken) {
			t.Errorf("IsV2/IsKey(%q) = %v/%v", path, IsV2(path), IsKey(path))
		}
		if diff := cmp.Diff(strings.Join(fields, "."), Simplify(path)); diff != "" {
			t.Errorf("Simplify(%q) mismatch (-want +got):\n%s", path, diff)
		}
	}
}
