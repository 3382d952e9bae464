package urn

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzFastPath builds a URN of every typed kind from the same parts with its
// builder, which takes the fast path when it can, and with the builder's
// general path (write the URN, parse it), and checks that both give the same
// value, text, accessors and error.
func FuzzFastPath(f *testing.F) {
	for _, b := range buildSeeds(f) {
		f.Add(b[0], b[1], b[2], b[3])
	}
	for _, b := range lengthBuildInputs() {
		f.Add(b[0], b[1], b[2], b[3])
	}
	all := append(append([]builder(nil), handBuilders...), generatedBuilders...)
	f.Fuzz(func(t *testing.T, s, platform, env, nested string) {
		var n URN
		if u, err := Parse(nested); err == nil {
			n = u
		}
		for _, b := range all {
			if b.general == nil {
				continue
			}
			got, want := b.build(s, platform, env, n), b.general(s, platform, env, n)
			if !sameResult(got, want) {
				t.Fatalf("%s(%q, %q, %q, %q): %q; general path: %q", b.name, s, platform, env, nested, outcome(got), outcome(want))
			}
		}
	})
}

// sameResult reports whether two results are the same: equal values (so
// equal text and accessors) and errors of the same text, Input and Reason.
func sameResult(a, b result) bool {
	if a.u != b.u || (a.err == nil) != (b.err == nil) {
		return false
	}
	if a.err == nil {
		return true
	}
	var pa, pb *ParseError
	return errors.As(a.err, &pa) && errors.As(b.err, &pb) &&
		pa.Error() == pb.Error() && pa.Input == pb.Input && pa.Reason == pb.Reason
}

// TestFastPathTaken checks that the builders take their fast path for plain
// parts, so that FuzzFastPath compares two paths: a value built from the
// fast path allocates nothing.
func TestFastPathTaken(t *testing.T) {
	var flow URN // boxed once: a conversion in the loop would allocate
	flow, err := NewDataFlow("airflow", "daily", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		build func()
	}{
		{"NewMLFeature", func() { _, _ = NewMLFeature("users", "age") }},
		{"NewMLFeatureTable", func() { _, _ = NewMLFeatureTable("feast", "users") }},
		{"NewMLModel", func() { _, _ = NewMLModel("sagemaker", "churn", "prod") }},
		{"NewCorpUser", func() { _, _ = NewCorpUser("jdoe") }},
		{"NewDataJob", func() { _, _ = NewDataJob(flow, "load") }},
		{"NewChart", func() { _, _ = NewChart("looker", "c1") }},
	} {
		if n := testing.AllocsPerRun(10, tc.build); n != 0 {
			t.Errorf("%s allocates %v times: not the fast path", tc.name, n)
		}
	}
}

// FuzzParseAgrees checks properties of the parser that need no other
// parser to compare with: every ParseX function accepts what Parse returns
// as its type, with the same value, and refuses what Parse refuses or types
// otherwise; Parse's error is the ParseX function's of the input's type; and
// a URN rebuilt from its parts (NewGeneric of ParseGeneric's parts, and the
// hand-written builders of their types' accessors) has the same text.
func FuzzParseAgrees(f *testing.F) {
	for _, s := range parseInputs(f) {
		f.Add(s)
	}
	types := typedTypes(f)
	kinds := map[string]reflect.Type{}
	for _, ty := range types {
		if u, ok := reflect.New(ty).Elem().Interface().(URN); ok && u.EntityType() != "" {
			kinds[u.EntityType()] = ty
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := Parse(s)
		for _, ty := range types {
			r := unmarshalAs(ty, s)
			switch {
			case ty == reflect.TypeFor[Generic]():
				// ParseGeneric accepts more than Parse; FuzzParse checks it.
			case err == nil && reflect.TypeOf(u) == ty:
				if r.err != nil || r.u != u {
					t.Fatalf("Parse%s(%q) = %v, %v; Parse gave %#v", ty.Name(), s, r.u, r.err, u)
				}
			case s == "":
				// UnmarshalText of empty text gives the zero value.
			case r.err == nil:
				t.Fatalf("Parse%s(%q) = %#v; Parse gave %#v, %v", ty.Name(), s, r.u, u, err)
			}
		}
		if err != nil {
			if g, gerr := ParseGeneric(s); gerr == nil {
				if ty, ok := kinds[g.EntityType()]; ok {
					if r := unmarshalAs(ty, s); outcome(r) != outcome(result{reflect.Zero(ty).Interface(), err}) {
						t.Fatalf("Parse(%q): %v; Parse%s: %v", s, err, ty.Name(), r.err)
					}
				}
			}
			return
		}
		g, gerr := ParseGeneric(s)
		if gerr != nil {
			t.Fatalf("ParseGeneric(%q): %v after Parse accepted it", s, gerr)
		}
		// NewGeneric escapes a part that is not a URN and checks one that
		// is: a part of a generic URN may hold reserved characters, which it
		// would escape, or start with "urn:li:" and be no URN.
		parts, escaped := g.Parts(), true
		for _, p := range parts {
			if _, err := ParseGeneric(p); strings.HasPrefix(p, prefix) && err != nil || !strings.HasPrefix(p, prefix) && Escape(p) != p {
				escaped = false
			}
		}
		// It writes one part without parentheses: a tuple of one part
		// cannot be rebuilt.
		if escaped && !(len(parts) == 1 && strings.HasSuffix(s, ":("+parts[0]+")")) {
			back, berr := NewGeneric(g.EntityType(), parts...)
			if berr != nil || back.String() != s {
				t.Fatalf("NewGeneric(%q, %q) = %v, %v; want %q", g.EntityType(), parts, back, berr, s)
			}
		}
		// A single id that starts with "urn:li:" is given as the whole URN.
		single := func(kind, id string) string {
			if strings.HasPrefix(id, prefix) {
				return prefix + kind + ":" + id
			}
			return id
		}
		var rebuilt URN
		var berr error
		switch v := u.(type) {
		case Dataset:
			rebuilt, berr = NewDataset(v.Platform().String(), v.Name(), v.Env())
		case MLModel:
			rebuilt, berr = NewMLModel(v.Platform().String(), v.Name(), v.Env())
		case MLModelGroup:
			rebuilt, berr = NewMLModelGroup(v.Platform().String(), v.Name(), v.Env())
		case MLFeature:
			rebuilt, berr = NewMLFeature(v.Namespace(), v.Name())
		case MLFeatureTable:
			rebuilt, berr = NewMLFeatureTable(v.Platform().String(), v.Name())
		case CorpUser:
			rebuilt, berr = NewCorpUser(single(TypeCorpUser, v.ID()))
		case DataPlatform:
			rebuilt, berr = NewDataPlatform(single(TypeDataPlatform, v.Name()))
		case Test:
			rebuilt, berr = NewTest(single(TypeTest, v.ID()))
		case Tag:
			rebuilt, berr = NewTag(single(TypeTag, v.Name()))
		case GlossaryTerm:
			rebuilt, berr = NewGlossaryTerm(single(TypeGlossaryTerm, v.Name()))
		case SchemaField:
			rebuilt, berr = NewSchemaField(v.Parent(), v.FieldPath())
		default:
			return
		}
		if berr != nil || rebuilt.String() != s || rebuilt != u {
			t.Fatalf("%T of %q rebuilt from its accessors: %#v, %v", u, s, rebuilt, berr)
		}
	})
}
