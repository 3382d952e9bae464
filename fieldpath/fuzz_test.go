package fieldpath

import (
	"strings"
	"testing"
)

// FuzzSimplify checks that Simplify never panics, leaves paths that are not
// version 2 alone, and turns version-2 paths into simple paths that hold no
// bracket token, are not version 2, and simplify to themselves.
func FuzzSimplify(f *testing.F) {
	for _, s := range []string{
		"[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a.[type=long].f",
		"customer_id",
		"[version=2.0].[key=True].[type=SimpleNested].[type=InnerRcd].nestedRcd.[type=string].aStringField",
		"[version=2.0]",
		"[version=2.0]..a",
		"[version=2.0].[version=2.0].x",
		"[version=2.0].[type=com.acme.Foo].a",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		got := Simplify(path)
		if !IsV2(path) {
			if got != path {
				t.Fatalf("Simplify(%q) = %q, want it unchanged", path, got)
			}
			return
		}
		if IsV2(got) {
			t.Fatalf("Simplify(%q) = %q is still version 2", path, got)
		}
		if again := Simplify(got); again != got {
			t.Fatalf("Simplify(Simplify(%q)) = %q, want %q", path, again, got)
		}
		if len(got) > len(path) {
			t.Fatalf("Simplify(%q) = %q is longer than its input", path, got)
		}
		if got == "" {
			return
		}
		for tok := range strings.SplitSeq(got, ".") {
			if strings.HasPrefix(tok, "[") || strings.HasSuffix(tok, "]") {
				t.Fatalf("Simplify(%q) = %q keeps the bracket token %q", path, got, tok)
			}
		}
	})
}

// FuzzBuilder builds paths from arbitrary names and checks that a path Build
// accepts is version 2, is a key path exactly when started with NewKey, and
// simplifies to the field names joined with dots.
func FuzzBuilder(f *testing.F) {
	f.Add(false, "Foo", "a", "long", "f")
	f.Add(true, "SimpleNested", "nestedRcd", "string", "aStringField")
	f.Add(false, "com.acme.Foo", "a]", "", "[b")
	f.Fuzz(func(t *testing.T, key bool, type1, field1, type2, field2 string) {
		b := New()
		if key {
			b = NewKey()
		}
		b = b.Type(type1).Field(field1).Type(type2).Field(field2)
		path, err := b.Build()
		if err != nil {
			return
		}
		if path != b.String() {
			t.Fatalf("Build() = %q, String() = %q", path, b.String())
		}
		if !IsV2(path) || IsKey(path) != key {
			t.Fatalf("IsV2/IsKey(%q) = %v/%v, key %v", path, IsV2(path), IsKey(path), key)
		}
		if got, want := Simplify(path), field1+"."+field2; got != want {
			t.Fatalf("Simplify(%q) = %q, want %q", path, got, want)
		}
	})
}
