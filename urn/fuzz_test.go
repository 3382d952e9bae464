package urn

import (
	"encoding"
	"errors"
	"net/url"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// Seed corpora live in testdata/fuzz/<FuzzName>/; the f.Add calls below cover
// the golden shapes so that a plain `go test` exercises them too.

// FuzzBuildGenerated builds a URN of every generated type from the same
// parts and checks each as FuzzBuild does: an error is a *ParseError, a
// value prints, parses back equal and round-trips as text.
func FuzzBuildGenerated(f *testing.F) {
	f.Add("x", "hive", "prod", "urn:li:corpuser:jdoe")
	f.Add("a,(b)", "urn:li:dataPlatform:mlflow", "", "urn:li:dataFlow:(airflow,daily,PROD)")
	f.Add("", "urn:li:corpuser:x", "nope", "")
	f.Add("\u241f", "", "DEV", "urn:li:x")
	f.Fuzz(func(t *testing.T, s, platform, env, nested string) {
		var n URN
		if u, err := Parse(nested); err == nil {
			n = u
		}
		buildGenerated(t, s, platform, env, n)
	})
}

// FuzzParse checks that Parse never panics, that its errors are *ParseError
// values naming the input, and that every URN it accepts prints back as the
// same string and parses again to an equal value.
func FuzzParse(f *testing.F) {
	for _, s := range append(allSamples(),
		"urn:li:glossaryTerm:Classification.Sensitive",
		"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),Split 1 - final %28Investment Income Details)",
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
		"urn:li:x:(a,,b)",
		"urn:li:x:(a))(",
		" urn:li:corpuser:x",
		"urn:li:corpuser:\u241f",
	) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := PathEscape(s); len(got) != encodedLen(s) {
			t.Fatalf("len(PathEscape(%q)) = %d, encodedLen = %d", s, len(got), encodedLen(s))
		} else if back, err := url.PathUnescape(got); err != nil || back != s {
			t.Fatalf("PathUnescape(PathEscape(%q)) = %q, %v", s, back, err)
		}
		u, err := Parse(s)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, datahub.ErrValidation) {
				t.Fatalf("Parse(%q) error %v (%T) is not a *ParseError matching ErrValidation", s, err, err)
			}
			if pe.Input != s || pe.Reason == "" {
				t.Fatalf("Parse(%q) error %#v does not name the input and a reason", s, pe)
			}
			return
		}
		if u.String() != s {
			t.Fatalf("Parse(%q).String() = %q", s, u.String())
		}
		if !strings.HasPrefix(s, prefix+u.EntityType()+":") {
			t.Fatalf("Parse(%q).EntityType() = %q", s, u.EntityType())
		}
		again, err := Parse(u.String())
		if err != nil {
			t.Fatalf("Parse(%q) again: %v", u.String(), err)
		}
		if again != u {
			t.Fatalf("Parse(%q) again = %#v, want %#v", s, again, u)
		}
		if again.String() != u.String() {
			t.Fatalf("String() not stable: %q then %q", u.String(), again.String())
		}
		g, err := ParseGeneric(s)
		if err != nil || g.String() != s || g.EntityType() != u.EntityType() {
			t.Fatalf("ParseGeneric(%q) = %#v, %v after Parse accepted it", s, g, err)
		}
		if sf, ok := u.(SchemaField); ok {
			if _, err := ParseSchemaField(s); err != nil {
				t.Fatalf("ParseSchemaField(%q): %v", s, err)
			}
			if sf.Parent() == nil {
				t.Fatalf("Parse(%q): schema field without a parent", s)
			}
		}
	})
}

// FuzzBuild builds every typed URN from arbitrary parts and checks that a
// value a builder returns parses back, through Parse, its ParseX function and
// UnmarshalText, to an equal value whose accessors hold the escaped parts.
func FuzzBuild(f *testing.F) {
	f.Add(uint8(0), "hive", "db.t", "")
	f.Add(uint8(0), "urn:li:dataPlatform:hive", "a,b(c)", "dev")
	f.Add(uint8(1), "my_ns", "my_feature", "")
	f.Add(uint8(2), "feast", "users", "")
	f.Add(uint8(3), "sagemaker", "churn", "prod")
	f.Add(uint8(4), "sagemaker", "churn", "SANDBOX")
	f.Add(uint8(5), "jdoe", "", "")
	f.Add(uint8(6), "urn:li:dataPlatform:hive", "", "")
	f.Add(uint8(7), "x", "", "")
	f.Add(uint8(8), "pii", "", "")
	f.Add(uint8(9), "Classification.Sensitive", "", "")
	f.Add(uint8(10), "hive", "db.t", "Split 1 - final (Investment Income Details")
	f.Add(uint8(11), "myEntity", "urn:li:dataFlow:(airflow,daily,PROD)", "load")
	f.Fuzz(func(t *testing.T, kind uint8, a, b, c string) {
		switch kind % 12 {
		case 0:
			x, err := NewDataset(a, b, c)
			if checkBuilt(t, x, err, ParseDataset) {
				checkPlatformNameEnv(t, x.Platform(), x.Name(), x.Env(), a, b, c)
			}
		case 1:
			x, err := NewMLFeature(a, b)
			if checkBuilt(t, x, err, ParseMLFeature) && (x.Namespace() != Escape(a) || x.Name() != Escape(b)) {
				t.Fatalf("NewMLFeature(%q, %q) = %#v", a, b, x)
			}
		case 2:
			x, err := NewMLFeatureTable(a, b)
			if checkBuilt(t, x, err, ParseMLFeatureTable) {
				checkPlatformNameEnv(t, x.Platform(), x.Name(), "PROD", a, b, "")
			}
		case 3:
			x, err := NewMLModel(a, b, c)
			if checkBuilt(t, x, err, ParseMLModel) {
				checkPlatformNameEnv(t, x.Platform(), x.Name(), x.Env(), a, b, c)
			}
		case 4:
			x, err := NewMLModelGroup(a, b, c)
			if checkBuilt(t, x, err, ParseMLModelGroup) {
				checkPlatformNameEnv(t, x.Platform(), x.Name(), x.Env(), a, b, c)
			}
		case 5:
			x, err := NewCorpUser(a)
			if checkBuilt(t, x, err, ParseCorpUser) {
				checkSingle(t, x.ID(), TypeCorpUser, a)
			}
		case 6:
			x, err := NewDataPlatform(a)
			if checkBuilt(t, x, err, ParseDataPlatform) {
				checkSingle(t, x.Name(), TypeDataPlatform, a)
			}
		case 7:
			x, err := NewTest(a)
			if checkBuilt(t, x, err, ParseTest) {
				checkSingle(t, x.ID(), TypeTest, a)
			}
		case 8:
			x, err := NewTag(a)
			if checkBuilt(t, x, err, ParseTag) {
				checkSingle(t, x.Name(), TypeTag, a)
			}
		case 9:
			x, err := NewGlossaryTerm(a)
			if checkBuilt(t, x, err, ParseGlossaryTerm) {
				checkSingle(t, x.Name(), TypeGlossaryTerm, a)
			}
		case 10:
			parent, err := NewDataset(a, b, "")
			if err != nil {
				return
			}
			x, err := NewSchemaField(parent, c)
			if checkBuilt(t, x, err, ParseSchemaField) && (x.Parent() != URN(parent) || x.FieldPath() != Escape(c)) {
				t.Fatalf("NewSchemaField(%v, %q) = %#v", parent, c, x)
			}
		case 11:
			x, err := NewGeneric(a, b, c)
			if !checkBuilt(t, x, err, ParseGeneric) {
				return
			}
			want := []string{b, c}
			for i, p := range want {
				if !strings.HasPrefix(p, prefix) {
					want[i] = Escape(p)
				}
			}
			if got := x.Parts(); strings.Join(got, "\x00") != strings.Join(want, "\x00") {
				t.Fatalf("NewGeneric(%q, %q, %q).Parts() = %q", a, b, c, got)
			}
		}
	})
}

// checkBuilt checks a builder's result and reports whether it succeeded.
func checkBuilt[T interface {
	URN
	comparable
	encoding.TextMarshaler
}, P interface {
	*T
	encoding.TextUnmarshaler
}](t *testing.T, x T, err error, parseX func(string) (T, error)) bool {
	t.Helper()
	var zero T
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, datahub.ErrValidation) || pe.Reason == "" {
			t.Fatalf("builder error %v (%T) is not a *ParseError matching ErrValidation", err, err)
		}
		if x != zero {
			t.Fatalf("builder returned %#v with error %v", x, err)
		}
		return false
	}
	s := x.String()
	if s == "" {
		t.Fatalf("builder returned %#v with an empty String()", x)
	}
	y, err := parseX(s)
	if err != nil || y != x {
		t.Fatalf("ParseX(%q) = %#v, %v; want %#v", s, y, err, x)
	}
	if _, generic := any(x).(Generic); !generic || !isTyped(x.EntityType()) {
		u, err := Parse(s)
		if err != nil || u != URN(x) {
			t.Fatalf("Parse(%q) = %#v, %v; want %#v", s, u, err, x)
		}
	}
	text, err := x.MarshalText()
	if err != nil || string(text) != s {
		t.Fatalf("MarshalText() = %q, %v; want %q", text, err, s)
	}
	var z T
	if err := P(&z).UnmarshalText(text); err != nil || z != x {
		t.Fatalf("UnmarshalText(%q) = %#v, %v; want %#v", text, z, err, x)
	}
	return true
}

// isTyped reports whether Parse returns a typed value for entity type et.
func isTyped(et string) bool {
	switch et {
	case TypeDataset, TypeMLFeature, TypeMLFeatureTable, TypeMLModel, TypeMLModelGroup,
		TypeCorpUser, TypeDataPlatform, TypeTest, TypeTag, TypeGlossaryTerm, TypeSchemaField:
		return true
	}
	_, generated := generatedSamples[et]
	return generated
}

// checkPlatformNameEnv checks the accessors of a built (platform,name,env) URN.
func checkPlatformNameEnv(t *testing.T, p DataPlatform, name, env, platform, wantName, wantEnv string) {
	t.Helper()
	checkSingle(t, p.Name(), TypeDataPlatform, platform)
	if name != Escape(wantName) {
		t.Fatalf("Name() = %q, want %q", name, Escape(wantName))
	}
	if wantEnv == "" {
		wantEnv = "PROD"
	}
	if env != strings.ToUpper(wantEnv) {
		t.Fatalf("Env() = %q, want %q", env, strings.ToUpper(wantEnv))
	}
}

// checkSingle checks the id accessor of a built single-id URN given arg.
func checkSingle(t *testing.T, got, kind, arg string) {
	t.Helper()
	want := strings.TrimPrefix(arg, prefix+kind+":")
	if want == arg {
		want = Escape(arg)
	}
	if got != want {
		t.Fatalf("id of %s built from %q = %q, want %q", kind, arg, got, want)
	}
}
