package urn

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/urn/internal/urnold"
)

// These tests compare the builders and parsers with those of urnold, the
// package as it was before they took fast paths: the same text, type,
// accessors and errors for every input.

// result is a builder's or parser's result, kept for comparing.
type result struct {
	u   any
	err error
}

// resultOf keeps the result of a builder or parser.
func resultOf[T any](u T, err error) result { return result{u, err} }

// describe writes v as the comparison sees it: its type's name (without the
// package), its text, and the results of its accessors, nested URNs
// described alike.
func describe(v any) string {
	if v == nil {
		return "nil"
	}
	rv := reflect.ValueOf(v)
	t := rv.Type()
	if t.Kind() == reflect.Slice {
		return fmt.Sprintf("%q", v)
	}
	s, ok := v.(fmt.Stringer)
	if !ok {
		return fmt.Sprintf("%T(%v)", v, v)
	}
	out := []string{fmt.Sprintf("%s %q", t.Name(), s.String())}
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		switch m.Name {
		case "String", "MarshalText", "UnmarshalText":
			continue
		}
		if m.Type.NumIn() != 1 || m.Type.NumOut() != 1 {
			continue
		}
		r := rv.Method(i).Call(nil)[0]
		var d string
		if r.Kind() == reflect.Interface && r.IsNil() {
			d = "nil"
		} else {
			d = describe(r.Interface())
		}
		out = append(out, m.Name+"="+d)
	}
	return strings.Join(out, " ")
}

// differ returns how got, of this package, differs from old, of urnold, or "".
func differ(got, old result) string {
	if got.err != nil || old.err != nil {
		if got.err == nil || old.err == nil || got.err.Error() != old.err.Error() {
			return fmt.Sprintf("error %v, old %v", got.err, old.err)
		}
		var pe *ParseError
		var ope *urnold.ParseError
		if !errors.As(got.err, &pe) || !errors.As(old.err, &ope) || pe.Input != ope.Input || pe.Reason != ope.Reason {
			return fmt.Sprintf("error %#v, old %#v", got.err, old.err)
		}
		if d, od := describe(got.u), describe(old.u); d != od {
			return fmt.Sprintf("value with the error %s, old %s", d, od)
		}
		return ""
	}
	if d, od := describe(got.u), describe(old.u); d != od {
		return fmt.Sprintf("%s, old %s", d, od)
	}
	return ""
}

// typedPairs returns, for every typed URN of this package, a new zero value
// of it and of its urnold twin, to parse into with UnmarshalText (which
// calls the type's ParseX function).
func typedPairs(t testing.TB) (got, old []reflect.Type) {
	samples := []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
		"urn:li:mlFeature:(my_ns,my_feature)",
		"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)",
		"urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)",
		"urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn,DEV)",
		"urn:li:corpuser:jdoe",
		"urn:li:dataPlatform:hive",
		"urn:li:tag:x",
		"urn:li:glossaryTerm:x",
		"urn:li:test:x",
		"urn:li:schemaField:(urn:li:corpuser:x,f)",
		"urn:li:other:x",
	}
	for _, s := range generatedSamples {
		samples = append(samples, s)
	}
	sort.Strings(samples)
	for _, s := range samples {
		u, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		ou, err := urnold.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, reflect.TypeOf(u))
		old = append(old, reflect.TypeOf(ou))
	}
	got = append(got, reflect.TypeFor[Generic]())
	old = append(old, reflect.TypeFor[urnold.Generic]())
	return got, old
}

// unmarshalAs parses s with UnmarshalText into a new value of type t.
func unmarshalAs(t reflect.Type, s string) result {
	p := reflect.New(t)
	err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
	return result{p.Elem().Interface(), err}
}

// compareParse compares Parse, ParseGeneric and every typed ParseX function
// (through UnmarshalText) of s with urnold's.
func compareParse(t *testing.T, s string, got, old []reflect.Type) {
	t.Helper()
	if d := differ(resultOf(Parse(s)), resultOf(urnold.Parse(s))); d != "" {
		t.Fatalf("Parse(%q): %s", s, d)
	}
	for i := range got {
		if d := differ(unmarshalAs(got[i], s), unmarshalAs(old[i], s)); d != "" {
			t.Fatalf("%s.UnmarshalText(%q): %s", got[i].Name(), s, d)
		}
	}
}

// FuzzCompareParse parses s with every parser of this package and of urnold
// and compares the results.
func FuzzCompareParse(f *testing.F) {
	for _, s := range []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,prod)",
		"urn:li:dataset:(urn:li:dataPlatform:hive,a%2Cb%28c%29,PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:hive,a(b),PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:hive ,db.t,PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:hive,,PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:hive,a,b,PROD)",
		"urn:li:dataset:(urn:li:corpuser:x,db.t,PROD)",
		"urn:li:dataset:(hive,db.t,PROD)",
		"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),[version=2.0].[type=Foo].a.[type=long].f)",
		"urn:li:schemaField:(urn:li:schemaField:(urn:li:schemaField:(urn:li:corpuser:x,a),b),c)",
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),lo(ad)",
		"urn:li:x:(a,,b)",
		"urn:li:x:(,)",
		"urn:li:x:(a))(",
		"urn:li:x:a)(",
		"urn:li:x:(a,b,c,d,e)",
		" urn:li:corpuser:x",
		"urn:li:corpuser:x\u2003",
		"urn:li:corpuser:\u241f",
		"urn:li:Corpuser:x",
		"urn:li:corpuser:",
		"urn:li:corpuser",
		"urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("a", 470) + ",PROD)",
		"urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("a", 460) + ",PROD)",
		"",
	} {
		f.Add(s)
	}
	for _, s := range generatedSamples {
		f.Add(s)
	}
	got, old := typedPairs(f)
	f.Fuzz(func(t *testing.T, s string) {
		compareParse(t, s, got, old)
	})
}

// compareBuild builds a URN of every typed kind from the same parts with
// this package's builders and urnold's and compares the results, and checks
// that the fast path is the general one (buildGenerated's checkBuilt).
func compareBuild(t *testing.T, s, platform, env, nested string) {
	t.Helper()
	var n URN
	var on urnold.URN
	if u, err := Parse(nested); err == nil {
		n = u
		if on, err = urnold.Parse(nested); err != nil {
			t.Fatalf("urnold.Parse(%q): %v", nested, err)
		}
	}
	got := []result{
		resultOf(NewDataset(platform, s, env)),
		resultOf(NewMLModel(platform, s, env)),
		resultOf(NewMLModelGroup(platform, s, env)),
		resultOf(NewMLFeature(s, platform)),
		resultOf(NewMLFeatureTable(platform, s)),
		resultOf(NewCorpUser(s)),
		resultOf(NewDataPlatform(s)),
		resultOf(NewTest(s)),
		resultOf(NewTag(s)),
		resultOf(NewGlossaryTerm(s)),
		resultOf(NewSchemaField(n, s)),
		resultOf(NewGeneric(env, s, platform)),
	}
	old := []result{
		resultOf(urnold.NewDataset(platform, s, env)),
		resultOf(urnold.NewMLModel(platform, s, env)),
		resultOf(urnold.NewMLModelGroup(platform, s, env)),
		resultOf(urnold.NewMLFeature(s, platform)),
		resultOf(urnold.NewMLFeatureTable(platform, s)),
		resultOf(urnold.NewCorpUser(s)),
		resultOf(urnold.NewDataPlatform(s)),
		resultOf(urnold.NewTest(s)),
		resultOf(urnold.NewTag(s)),
		resultOf(urnold.NewGlossaryTerm(s)),
		resultOf(urnold.NewSchemaField(on, s)),
		resultOf(urnold.NewGeneric(env, s, platform)),
	}
	g, o := buildGeneratedOld(s, platform, env, n, on)
	got, old = append(got, g...), append(old, o...)
	for i := range got {
		if d := differ(got[i], old[i]); d != "" {
			t.Fatalf("builder %d (%T) of (%q, %q, %q, %q): %s", i, got[i].u, s, platform, env, nested, d)
		}
	}
	buildGenerated(t, s, platform, env, n)
}

// FuzzCompareBuild builds every typed URN from the same parts with this
// package's builders and urnold's and compares the results.
func FuzzCompareBuild(f *testing.F) {
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	flow := "urn:li:dataFlow:(airflow,daily,PROD)"
	f.Add("db.t", "hive", "", ds)
	f.Add("db.t", "urn:li:dataPlatform:hive", "prod", flow)
	f.Add("[version=2.0].[type=Foo].a.[type=long].f", "hive", "Dev", ds)
	f.Add("a,b(c)", "hi,ve", "PROD", flow)
	f.Add("a b", "hive ", "PRODUCTION", "urn:li:corpuser:x")
	f.Add("abc", "x", "ABC", "urn:li:dataFlow:(a,b,c)")
	f.Add("a,b", "c,d", "", "urn:li:dataFlow:(a,b,c)")
	f.Add("a(b", "c)d", "", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	f.Add("a)b", "c(d", "", "urn:li:dataFlow:(a,b,c)")
	f.Add("x\u241f", "\u241f", "sandbox", "urn:li:dataFlow:(a,b,c)")
	f.Add("urn:li:corpuser:jdoe", "urn:li:corpuser:x", "", "urn:li:x:(a,b)")
	f.Add("urn:li:corpuserjdoe", "urn:li:dataPlatform:", "proſ", "")
	f.Add("%2C", "urn:li:dataPlatform:a(b", "\u0130", ds)
	f.Add("", "", "", "")
	f.Add(" x", "x\t", "DEV", "urn:li:dataset:(urn:li:dataPlatform:hive,"+strings.Repeat("a", 460)+",PROD)")
	f.Fuzz(func(t *testing.T, s, platform, env, nested string) {
		compareBuild(t, s, platform, env, nested)
	})
}

// TestCompareLengthLimit builds every typed URN from parts of every length
// around those that bring it to DataHub's 512-byte limit (a part given to
// one, two or three of its string parts: 420 to 500, 220 to 245 and 150 to
// 165 bytes), so that the fast path's sum of the encoded length is checked
// at the boundary of each type.
func TestCompareLengthLimit(t *testing.T) {
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	flow := "urn:li:dataFlow:(airflow,daily,PROD)"
	for _, r := range [][2]int{{150, 165}, {220, 245}, {420, 500}} {
		for n := r[0]; n <= r[1]; n++ {
			a := strings.Repeat("a", n)
			compareBuild(t, a, "hive", "", flow)
			compareBuild(t, strings.Repeat(":", n/3)+a[:n%3], "h:i", "dev", ds)
			if r[0] == 420 {
				compareBuild(t, "x", a, "", flow)
			}
		}
	}
	got, old := typedPairs(t)
	for n := 440; n <= 512; n++ {
		a := strings.Repeat("a", n)
		compareParse(t, "urn:li:dataset:(urn:li:dataPlatform:hive,"+a+",PROD)", got, old)
		compareParse(t, "urn:li:x:(a,(b),"+a[:n/2]+strings.Repeat(",", n/6)+")", got, old)
		compareParse(t, "urn:li:x:(a,(b),"+a[:n/2]+strings.Repeat(")(", n/12)+")", got, old)
		compareParse(t, "urn:li:corpuser:"+strings.Repeat(":", n/3)+a[:n%3], got, old)
	}
	// A data job of a long flow: the limit falls at 412 and 434 bytes.
	for n := 400; n <= 445; n++ {
		compareBuild(t, "job", "hive", "", "urn:li:dataFlow:(airflow,"+strings.Repeat("d", n)+",PROD)")
		compareBuild(t, "job", "hive", "", "urn:li:dataset:(urn:li:dataPlatform:hive,"+strings.Repeat("d", n)+",PROD)")
	}
}

// TestCompareDepth parses URNs nested around every depth limit: schema
// fields of schema fields of a dataset (whose platform is nested once more)
// and of a data job.
func TestCompareDepth(t *testing.T) {
	got, old := typedPairs(t)
	for _, inner := range []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
		"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)",
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
		"urn:li:corpuser:x",
	} {
		s := inner
		for k := 0; k <= maxDepth+2; k++ {
			compareParse(t, s, got, old)
			s = "urn:li:schemaField:(" + s + ",f)"
		}
	}
}
