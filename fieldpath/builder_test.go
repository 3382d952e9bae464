package fieldpath

import (
	"errors"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/google/go-cmp/cmp"
)

func TestBuilder(t *testing.T) {
	t.Parallel()
	union := New().Type("ABFooUnion").Type("union")
	tests := []struct {
		name string
		b    Builder
		want string
	}{
		{"version only", New(), "[version=2.0]"},
		{"key only", NewKey(), "[version=2.0].[key=True]"},
		{"primitive", New().Type("string"), "[version=2.0].[type=string]"},
		{"record field", New().Type("E").Type("string").Field("a"), "[version=2.0].[type=E].[type=string].a"},
		{"WIRE.md §6", union.Type("array").Type("array").Type("Foo").Field("a").Type("long").Field("f"),
			"[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a.[type=long].f"},
		{"shared prefix A", union.Type("A").Field("a"), "[version=2.0].[type=ABFooUnion].[type=union].[type=A].a"},
		{"shared prefix B", union.Type("B").Field("a"), "[version=2.0].[type=ABFooUnion].[type=union].[type=B].a"},
		{"key schema", NewKey().Type("SimpleNested").Type("InnerRcd").Field("nestedRcd"),
			"[version=2.0].[key=True].[type=SimpleNested].[type=InnerRcd].nestedRcd"},
		{"names with spaces and brackets inside", New().Type("R").Type("string").Field("a [b] c"),
			"[version=2.0].[type=R].[type=string].a [b] c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.b.Build()
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, tt.b.String()); diff != "" {
				t.Errorf("String() mismatch (-want +got):\n%s", diff)
			}
		})
	}
	// Extending union above must not have changed it.
	if got := union.String(); got != "[version=2.0].[type=ABFooUnion].[type=union]" {
		t.Errorf("shared prefix changed to %q", got)
	}
}

func TestBuilderErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		b          Builder
		want, path string
	}{
		{"empty type", New().Type(""), `fieldpath: type name "" is empty: datahub: validation failed`, "[version=2.0].[type=]"},
		{"dotted type", New().Type("com.acme.Foo"), `fieldpath: type name "com.acme.Foo" holds ".", "[" or "]": datahub: validation failed`, "[version=2.0].[type=com.acme.Foo]"},
		{"bracket in type", New().Type("a]"), `fieldpath: type name "a]" holds ".", "[" or "]": datahub: validation failed`, "[version=2.0].[type=a]]"},
		{"empty field", New().Type("R").Field(""), `fieldpath: field name "" is empty: datahub: validation failed`, "[version=2.0].[type=R]."},
		{"dotted field", New().Field("a.b"), `fieldpath: field name "a.b" holds ".": datahub: validation failed`, "[version=2.0].a.b"},
		{"field starts with [", New().Field("[a"), `fieldpath: field name "[a" starts with "[": datahub: validation failed`, "[version=2.0].[a"},
		{"field ends with ]", New().Field("a[0]"), `fieldpath: field name "a[0]" ends with "]": datahub: validation failed`, "[version=2.0].a[0]"},
		{"first error wins", New().Field("").Type(""), `fieldpath: field name "" is empty: datahub: validation failed`, "[version=2.0]..[type=]"},
		{"zero builder", Builder{}, `fieldpath: builder not started with New or NewKey: datahub: validation failed`, ""},
		{"zero builder extended", Builder{}.Field("a"), `fieldpath: builder not started with New or NewKey: datahub: validation failed`, ".a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.b.Build()
			if err == nil {
				t.Fatalf("Build() = %q, want error", got)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			if !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("errors.Is(%v, datahub.ErrValidation) = false", err)
			}
			if diff := cmp.Diff(tt.path, tt.b.String()); diff != "" {
				t.Errorf("String() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
