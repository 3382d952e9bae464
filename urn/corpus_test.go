package urn

import (
	"bufio"
	"crypto/sha256"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The corpus, testdata/corpus.jsonl, records what every builder and parser
// of the package answered for a fixed set of inputs, before the builders and
// the parser took fast paths: TestCorpus, TestCompareLengthLimit and
// TestCompareDepth check that they still answer the same. Its first line
// names the parsers and the builders; each further line is one input, a
// string to parse ("parse") or the parts to build from ("build": a string
// part, a platform, an env and a URN to nest), and "want": for each parser
// or builder, in the order of the first line, the first 18 bits of the
// SHA-256 of its outcome (see outcome), 3 characters of URL-safe base64.
// go test -run TestCorpus -update writes the corpus again from the package
// as it is, for a deliberate change of behaviour.

var update = flag.Bool("update", false, "write testdata/corpus.jsonl from the package as it is")

// corpusFile holds the corpus.
var corpusFile = filepath.Join("testdata", "corpus.jsonl")

// hashLen is how many base64 characters of an outcome's hash the corpus keeps.
const hashLen = 3

// corpusHead is the corpus's first line.
type corpusHead struct {
	Parsers  []string `json:"parsers"`
	Builders []string `json:"builders"`
}

// corpusCase is one input of the corpus and its outcomes' hashes.
type corpusCase struct {
	Parse *string    `json:"parse,omitempty"`
	Build *[4]string `json:"build,omitempty"`
	Long  string     `json:"long,omitempty"`
	Want  string     `json:"want"`
}

// longInput is the length from which the corpus names an input by its hash.
const longInput = 120

// entry returns the corpus's entry of an input to parse (s) or to build
// from (b), without its want: the input itself, or for a long one, its kind
// ("parse" or "build") and the first 72 bits of the SHA-256 of its JSON form.
func entry(s *string, b *[4]string) corpusCase {
	c := corpusCase{Parse: s, Build: b}
	j, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	if len(j) < longInput {
		return c
	}
	h := sha256.Sum256(j)
	kind := "parse"
	if b != nil {
		kind = "build"
	}
	return corpusCase{Long: kind + " " + base64.RawURLEncoding.EncodeToString(h[:9])}
}

// result is a builder's or parser's result.
type result struct {
	u   any
	err error
}

// resultOf keeps the result of a builder or parser.
func resultOf[T any](u T, err error) result { return result{u, err} }

// describe writes v as the corpus sees it: its type's name (without the
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

// zeroDescribed caches describe of the zero value of a type, which comes
// with every error.
var zeroDescribed sync.Map // reflect.Type → string

// outcome describes a result: the value (the zero value with an error) and
// the error's type name, text, Input and Reason.
func outcome(r result) string {
	if r.err == nil {
		return describe(r.u)
	}
	var d string
	if rv := reflect.ValueOf(r.u); rv.IsValid() && rv.IsZero() {
		c, ok := zeroDescribed.Load(rv.Type())
		if !ok {
			c, _ = zeroDescribed.LoadOrStore(rv.Type(), describe(r.u))
		}
		d = c.(string)
	} else {
		d = describe(r.u)
	}
	name, input, reason := fmt.Sprintf("%T", r.err), "", ""
	if v := reflect.ValueOf(r.err); v.Kind() == reflect.Pointer && v.Elem().Kind() == reflect.Struct {
		e := v.Elem()
		name = e.Type().Name()
		if f := e.FieldByName("Input"); f.IsValid() {
			input = f.String()
		}
		if f := e.FieldByName("Reason"); f.IsValid() {
			reason = f.String()
		}
	}
	return d + "\x00" + name + "\x00" + r.err.Error() + "\x00input " + input + "\x00reason " + reason
}

// typeless returns an outcome of a parser or builder of values of type t
// with t's name and entity type replaced by "<T>" and "<K>", so that the
// outcomes of types of the same shape are the same (see encodeWant).
func typeless(o string, t reflect.Type) string {
	if u, ok := reflect.New(t).Elem().Interface().(interface{ EntityType() string }); ok && u.EntityType() != "" {
		o = strings.ReplaceAll(o, u.EntityType(), "<K>")
	}
	return strings.ReplaceAll(o, t.Name(), "<T>")
}

// hashOf is the corpus's hash of an outcome.
func hashOf(outcome string) string {
	h := sha256.Sum256([]byte(outcome))
	return base64.RawURLEncoding.EncodeToString(h[:3])[:hashLen]
}

// encodeWant writes the hashes of outcomes as the corpus keeps them: a run
// of the same hash is written once and followed by "*", how many times more
// it comes and ".".
func encodeWant(outcomes []string) string {
	var b strings.Builder
	for i := 0; i < len(outcomes); {
		h := hashOf(outcomes[i])
		j := i + 1
		for j < len(outcomes) && hashOf(outcomes[j]) == h {
			j++
		}
		b.WriteString(h)
		if j > i+1 {
			b.WriteString("*" + strconv.Itoa(j-i-1) + ".")
		}
		i = j
	}
	return b.String()
}

// decodeWant reads the hashes encodeWant wrote.
func decodeWant(want string) ([]string, error) {
	var out []string
	for want != "" {
		if len(want) < hashLen {
			return nil, fmt.Errorf("short hash %q", want)
		}
		h := want[:hashLen]
		want = want[hashLen:]
		n := 1
		if rest, ok := strings.CutPrefix(want, "*"); ok {
			count, rest, ok := strings.Cut(rest, ".")
			more, err := strconv.Atoi(count)
			if !ok || err != nil || more < 1 {
				return nil, fmt.Errorf("bad run %q", count)
			}
			n += more
			want = rest
		}
		for ; n > 0; n-- {
			out = append(out, h)
		}
	}
	return out, nil
}

// samples are valid URNs of the hand-written types, and of an untyped one.
var samples = []string{
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

// allSamples returns samples and generatedSamples, sorted.
func allSamples() []string {
	all := append([]string(nil), samples...)
	for _, s := range generatedSamples {
		all = append(all, s)
	}
	sort.Strings(all)
	return all
}

// typedTypes returns every typed URN type of the package and Generic, in
// the order of the corpus's parsers after Parse: by their samples' text.
func typedTypes(t testing.TB) []reflect.Type {
	var types []reflect.Type
	for _, s := range allSamples() {
		if s == "urn:li:other:x" {
			continue
		}
		u, err := Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, reflect.TypeOf(u))
	}
	return append(types, reflect.TypeFor[Generic]())
}

// unmarshalAs parses s with UnmarshalText into a new value of type t.
func unmarshalAs(t reflect.Type, s string) result {
	p := reflect.New(t)
	err := p.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s))
	return result{p.Elem().Interface(), err}
}

// parsers returns the names of the parsers the corpus records and a
// function giving their outcomes of a string in that order: Parse, then
// every ParseX function (through UnmarshalText).
func parsers(t testing.TB) ([]string, func(s string) []string) {
	types := typedTypes(t)
	names := []string{"Parse"}
	for _, ty := range types {
		names = append(names, "Parse"+ty.Name())
	}
	return names, func(s string) []string {
		out := []string{outcome(resultOf(Parse(s)))}
		for _, ty := range types {
			out = append(out, typeless(outcome(unmarshalAs(ty, s)), ty))
		}
		return out
	}
}

// builder is a builder of the corpus: it builds from a string part (every
// string part), a platform, an env and a URN to nest (every URN part), with
// the builder (build) and with its general path, which writes the URN and
// parses it (general, nil for a builder without a fast path).
type builder struct {
	name           string
	build, general func(s, platform, env string, nested URN) result
}

// handBuilders are the hand-written builders.
var handBuilders = []builder{
	{
		"NewDataset",
		func(s, platform, env string, _ URN) result { return resultOf(NewDataset(platform, s, env)) },
		func(s, platform, env string, _ URN) result {
			return resultOf(buildPlatformNameEnv(TypeDataset, platform, s, env, datasetFrom))
		},
	},
	{
		"NewMLModel",
		func(s, platform, env string, _ URN) result { return resultOf(NewMLModel(platform, s, env)) },
		func(s, platform, env string, _ URN) result {
			return resultOf(buildPlatformNameEnv(TypeMLModel, platform, s, env, mlModelFrom))
		},
	},
	{
		"NewMLModelGroup",
		func(s, platform, env string, _ URN) result { return resultOf(NewMLModelGroup(platform, s, env)) },
		func(s, platform, env string, _ URN) result {
			return resultOf(buildPlatformNameEnv(TypeMLModelGroup, platform, s, env, mlModelGroupFrom))
		},
	},
	{
		"NewMLFeature",
		func(s, platform, _ string, _ URN) result { return resultOf(NewMLFeature(s, platform)) },
		func(s, platform, _ string, _ URN) result { return resultOf(generalMLFeature(s, platform)) },
	},
	{
		"NewMLFeatureTable",
		func(s, platform, _ string, _ URN) result { return resultOf(NewMLFeatureTable(platform, s)) },
		func(s, platform, _ string, _ URN) result { return resultOf(generalMLFeatureTable(platform, s)) },
	},
	{
		"NewCorpUser",
		func(s, _, _ string, _ URN) result { return resultOf(NewCorpUser(s)) },
		func(s, _, _ string, _ URN) result {
			return resultOf(generalSingle(TypeCorpUser, "id", s, corpUserFrom))
		},
	},
	{
		"NewDataPlatform",
		func(s, _, _ string, _ URN) result { return resultOf(NewDataPlatform(s)) },
		func(s, _, _ string, _ URN) result {
			return resultOf(generalSingle(TypeDataPlatform, "name", s, dataPlatformFrom))
		},
	},
	{
		"NewTest",
		func(s, _, _ string, _ URN) result { return resultOf(NewTest(s)) },
		func(s, _, _ string, _ URN) result { return resultOf(generalSingle(TypeTest, "id", s, testFrom)) },
	},
	{
		"NewTag",
		func(s, _, _ string, _ URN) result { return resultOf(NewTag(s)) },
		func(s, _, _ string, _ URN) result { return resultOf(generalSingle(TypeTag, "name", s, tagFrom)) },
	},
	{
		"NewGlossaryTerm",
		func(s, _, _ string, _ URN) result { return resultOf(NewGlossaryTerm(s)) },
		func(s, _, _ string, _ URN) result {
			return resultOf(generalSingle(TypeGlossaryTerm, "name", s, glossaryTermFrom))
		},
	},
	{
		"NewSchemaField",
		func(s, _, _ string, nested URN) result { return resultOf(NewSchemaField(nested, s)) },
		func(s, _, _ string, nested URN) result { return resultOf(generalSchemaField(nested, s)) },
	},
	{
		"NewGeneric",
		func(s, platform, env string, _ URN) result { return resultOf(NewGeneric(env, s, platform)) },
		nil,
	},
}

// builders returns the names of the builders the corpus records and a
// function giving their outcomes of the same parts in that order.
func builders() ([]string, func(s, platform, env, nested string) []string) {
	all := append(append([]builder(nil), handBuilders...), generatedBuilders...)
	var names []string
	for _, b := range all {
		names = append(names, b.name)
	}
	return names, func(s, platform, env, nested string) []string {
		var n URN
		if u, err := Parse(nested); err == nil {
			n = u
		}
		var out []string
		for _, b := range all {
			r := b.build(s, platform, env, n)
			out = append(out, typeless(outcome(r), reflect.TypeOf(r.u)))
		}
		return out
	}
}

// corpus is the corpus as read: its first line, and the hashes of each
// input's outcomes by its entry's JSON form (see entry).
type corpus struct {
	head corpusHead
	want map[string][]string
}

// key is the JSON form of c without its want.
func (c corpusCase) key() string {
	c.Want = ""
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// readCorpus reads the corpus.
func readCorpus(t testing.TB) *corpus {
	t.Helper()
	f, err := os.Open(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	c := &corpus{want: map[string][]string{}}
	for first := true; sc.Scan(); first = false {
		if first {
			if err := json.Unmarshal(sc.Bytes(), &c.head); err != nil {
				t.Fatal(err)
			}
			continue
		}
		var k corpusCase
		if err := json.Unmarshal(sc.Bytes(), &k); err != nil {
			t.Fatalf("%s: %v", sc.Bytes(), err)
		}
		want, err := decodeWant(k.Want)
		if err != nil {
			t.Fatalf("%s: %v", sc.Bytes(), err)
		}
		n := len(c.head.Parsers)
		if k.Build != nil || strings.HasPrefix(k.Long, "build ") {
			n = len(c.head.Builders)
		}
		if len(want) != n {
			t.Fatalf("%s: %d hashes, want %d", sc.Bytes(), len(want), n)
		}
		c.want[k.key()] = want
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return c
}

// checker compares the package's outcomes with the corpus's.
type checker struct {
	c          *corpus
	parseNames []string
	parse      func(string) []string
	parseCols  []int // parseNames' columns in the corpus, -1 if missing
	buildNames []string
	build      func(s, platform, env, nested string) []string
	buildCols  []int
}

// newChecker reads the corpus.
func newChecker(t testing.TB) *checker {
	k := &checker{c: readCorpus(t)}
	k.parseNames, k.parse = parsers(t)
	k.buildNames, k.build = builders()
	k.parseCols = columns(t, k.parseNames, k.c.head.Parsers)
	k.buildCols = columns(t, k.buildNames, k.c.head.Builders)
	return k
}

// columns returns the index of each name in the corpus's names. Every name
// of the corpus must be known: one the package lost fails the test, and a
// new one (-1) has no record to compare with.
func columns(t testing.TB, names, corpusNames []string) []int {
	t.Helper()
	at := map[string]int{}
	for i, n := range corpusNames {
		at[n] = i
	}
	var cols []int
	for _, n := range names {
		i, ok := at[n]
		if !ok {
			i = -1
		}
		delete(at, n)
		cols = append(cols, i)
	}
	for n := range at {
		t.Fatalf("the corpus records %s, which the package lacks", n)
	}
	return cols
}

// compare compares outcomes with the corpus's hashes of them.
func compare(t *testing.T, input string, names []string, cols []int, outcomes, want []string) {
	t.Helper()
	for i, o := range outcomes {
		c := cols[i]
		if c < 0 {
			continue
		}
		if h := hashOf(o); h != want[c] {
			t.Errorf("%s of %s: %q, which the corpus does not record (hash %s, corpus %s)", names[i], input, o, h, want[c])
		}
	}
}

// checkParse checks every parser's outcome of s with the corpus.
func (k *checker) checkParse(t *testing.T, s string) {
	t.Helper()
	want, ok := k.c.want[entry(&s, nil).key()]
	if !ok {
		t.Fatalf("the corpus has no parse of %q", s)
	}
	compare(t, fmt.Sprintf("%q", s), k.parseNames, k.parseCols, k.parse(s), want)
}

// checkBuild checks every builder's outcome of the parts with the corpus, and
// checks the generated builders' values with checkBuilt.
func (k *checker) checkBuild(t *testing.T, s, platform, env, nested string) {
	t.Helper()
	b := [4]string{s, platform, env, nested}
	want, ok := k.c.want[entry(nil, &b).key()]
	if !ok {
		t.Fatalf("the corpus has no build of %q", b)
	}
	compare(t, fmt.Sprintf("%q", b), k.buildNames, k.buildCols, k.build(s, platform, env, nested), want)
	var n URN
	if u, err := Parse(nested); err == nil {
		n = u
	}
	buildGenerated(t, s, platform, env, n)
}

// parseSeeds are odd inputs to parse.
var parseSeeds = []string{
	"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,prod)",
	"urn:li:dataset:(urn:li:dataPlatform:hive,a%2Cb%28c%29,PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:hive,a(b),PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:hive ,db.t,PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:hive,,PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:hive,a,b,PROD)",
	"urn:li:dataset:(urn:li:corpuser:x,db.t,PROD)",
	"urn:li:dataset:(hive,db.t,PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:,db.t,PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:a:b,db.t,PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:(a,b),db.t,PROD)",
	"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),[version=2.0].[type=Foo].a.[type=long].f)",
	"urn:li:schemaField:(urn:li:schemaField:(urn:li:schemaField:(urn:li:corpuser:x,a),b),c)",
	"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),Split 1 - final %28Investment Income Details)",
	"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
	"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),lo(ad)",
	"urn:li:mlFeature:(my_ns,my_feature)",
	"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)",
	"urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)",
	"urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn,DEV)",
	"urn:li:glossaryTerm:Classification.Sensitive",
	"urn:li:x:(a,,b)",
	"urn:li:x:(,)",
	"urn:li:x:(a))(",
	"urn:li:x:a)(",
	"urn:li:x:(a,b,c,d,e)",
	"urn:li:x:(a,(b,c),d)",
	"urn:li:x:((a)",
	"urn:li:x:a b",
	"urn:li:x:a,b",
	"urn:li:x:a%",
	"urn:li:x:a\u00e9",
	"urn:li:x:a\x00b",
	"urn:li:x:a\tb",
	"urn:li:x-y:a",
	"urn:li:1x:a",
	"urn:li::a",
	"urn:li:x:",
	"urn:li:x",
	"urn:li:",
	"urn:li",
	"urn:lix:a",
	"URN:li:corpuser:x",
	" urn:li:corpuser:x",
	"urn:li:corpuser:x ",
	"urn:li:corpuser:x\n",
	"urn:li:corpuser:x\u2003",
	"urn:li:corpuser:\u241f",
	"urn:li:corpuser:x\u241fy",
	"urn:li:Corpuser:x",
	"urn:li:corpuser:",
	"urn:li:corpuser",
	"urn:li:corpuser:urn:li:corpuser:x",
	"urn:li:corpuser:(x)",
	"urn:li:corpuser:(x,y)",
	"urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("a", 470) + ",PROD)",
	"urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("a", 460) + ",PROD)",
	"",
}

// fuzzSeeds reads the strings of the seed corpus files of testdata/fuzz/name.
func fuzzSeeds(t testing.TB, name string) [][]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", name, "*"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var vals []string
		for _, line := range strings.Split(string(b), "\n")[1:] {
			if v, ok := strings.CutPrefix(line, "string("); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(v, ")"))
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				vals = append(vals, s)
			}
		}
		out = append(out, vals)
	}
	return out
}

// topParts splits the id of a tuple URN s at its top-level commas, or
// returns nil.
func topParts(s string) (head string, parts []string) {
	i := strings.Index(s, ":(")
	if i < 0 || !strings.HasSuffix(s, ")") {
		return "", nil
	}
	head, id := s[:i+2], s[i+2:len(s)-1]
	depth, start := 0, 0
	for j := 0; j < len(id); j++ {
		switch id[j] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, id[start:j])
				start = j + 1
			}
		}
	}
	return head, append(parts, id[start:])
}

// variants returns odd variants of a valid URN s: each top-level part (or
// the id) replaced by an empty, escaped, reserved or nested one, a part more
// or less, white space after it and its entity type's case changed.
func variants(s string) []string {
	out := []string{s, s + " ", s + ",x", s[:len(s)-1]}
	kind := strings.TrimPrefix(s, prefix)
	out = append(out, prefix+strings.ToUpper(kind[:1])+kind[1:])
	repl := []string{"", "a%2Cb", "a(b)", "a,b", "a b"}
	head, parts := topParts(s)
	if parts == nil {
		i := strings.LastIndex(s, ":")
		for _, r := range repl {
			out = append(out, s[:i+1]+r)
		}
		return append(out, s[:i+1]+"urn:li:corpuser:x")
	}
	for i, p := range parts {
		rs := repl
		switch {
		case strings.HasPrefix(p, platformPrefix):
			rs = append(rs, "urn:li:dataPlatform:a b", "urn:li:corpuser:x", "hive")
		case strings.HasPrefix(p, prefix):
			rs = append(rs, "urn:li:corpuser:x", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
		case p == "PROD" || p == "DEV":
			rs = append(rs, "prod", "Dev", "NOPE")
		}
		for _, r := range rs {
			ps := append([]string(nil), parts...)
			ps[i] = r
			out = append(out, head+strings.Join(ps, ",")+")")
		}
	}
	out = append(out, head+strings.Join(parts[:len(parts)-1], ",")+")")
	return append(out, head+strings.Join(parts, ",")+",x)")
}

// lengthParseInputs are the inputs TestCompareLengthLimit parses: URNs
// around DataHub's 512-byte limit.
func lengthParseInputs() []string {
	var out []string
	for n := 440; n <= 512; n++ {
		a := strings.Repeat("a", n)
		out = append(out,
			"urn:li:dataset:(urn:li:dataPlatform:hive,"+a+",PROD)",
			"urn:li:x:(a,(b),"+a[:n/2]+strings.Repeat(",", n/6)+")",
			"urn:li:x:(a,(b),"+a[:n/2]+strings.Repeat(")(", n/12)+")",
			"urn:li:corpuser:"+strings.Repeat(":", n/3)+a[:n%3])
	}
	return out
}

// lengthBuildInputs are the parts TestCompareLengthLimit builds from: a
// part given to one, two or three of a type's string parts that brings it
// around the length limit (420 to 500, 220 to 245 and 150 to 165 bytes), and
// a data job of a long flow or dataset (the limit falls at 412 and 434
// bytes).
func lengthBuildInputs() [][4]string {
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	flow := "urn:li:dataFlow:(airflow,daily,PROD)"
	var out [][4]string
	for _, r := range [][2]int{{150, 165}, {220, 245}, {420, 500}} {
		for n := r[0]; n <= r[1]; n++ {
			a := strings.Repeat("a", n)
			out = append(out,
				[4]string{a, "hive", "", flow},
				[4]string{strings.Repeat(":", n/3) + a[:n%3], "h:i", "dev", ds})
			if r[0] == 420 {
				out = append(out, [4]string{"x", a, "", flow})
			}
		}
	}
	for n := 400; n <= 445; n++ {
		out = append(out,
			[4]string{"job", "hive", "", "urn:li:dataFlow:(airflow," + strings.Repeat("d", n) + ",PROD)"},
			[4]string{"job", "hive", "", "urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("d", n) + ",PROD)"})
	}
	return out
}

// depthParseInputs are the inputs TestCompareDepth parses: schema fields
// nested around every depth limit, of a dataset (whose platform is nested
// once more), a feature table, a data job and a user.
func depthParseInputs() []string {
	var out []string
	for _, inner := range []string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
		"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)",
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
		"urn:li:corpuser:x",
	} {
		s := inner
		for k := 0; k <= maxDepth+2; k++ {
			out = append(out, s)
			s = "urn:li:schemaField:(" + s + ",f)"
		}
	}
	return out
}

// buildSeeds are odd parts to build from.
func buildSeeds(t testing.TB) [][4]string {
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	flow := "urn:li:dataFlow:(airflow,daily,PROD)"
	out := [][4]string{
		{"db.t", "hive", "", ds},
		{"db.t", "urn:li:dataPlatform:hive", "prod", flow},
		{"[version=2.0].[type=Foo].a.[type=long].f", "hive", "Dev", ds},
		{"a,b(c)", "hi,ve", "PROD", flow},
		{"a b", "hive ", "PRODUCTION", "urn:li:corpuser:x"},
		{"abc", "x", "ABC", "urn:li:dataFlow:(a,b,c)"},
		{"a,b", "c,d", "", "urn:li:dataFlow:(a,b,c)"},
		{"a(b", "c)d", "", ds},
		{"a)b", "c(d", "", "urn:li:dataFlow:(a,b,c)"},
		{"x\u241f", "\u241f", "sandbox", "urn:li:dataFlow:(a,b,c)"},
		{"urn:li:corpuser:jdoe", "urn:li:corpuser:x", "", "urn:li:x:(a,b)"},
		{"urn:li:corpuserjdoe", "urn:li:dataPlatform:", "proſ", ""},
		{"%2C", "urn:li:dataPlatform:a(b", "\u0130", ds},
		{"", "", "", ""},
		{" x", "x\t", "DEV", "urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("a", 460) + ",PROD)"},
		{"x", "hive", "prod", "urn:li:corpuser:jdoe"},
		{"a,(b)", "urn:li:dataPlatform:mlflow", "", flow},
		{"", "urn:li:corpuser:x", "nope", ""},
		{"\u241f", "", "DEV", "urn:li:x"},
	}
	odd := []string{"", "x", "a,b", "a(b)", "a)b", "a b", " x", "x\t", "%2C", "a%b", "a:b", "a/b?c#d",
		"urn:li:corpuser:x", "urn:li:dataPlatform:hive", "urn:li:dataPlatform:", "urn:li:dataPlatform:a b",
		"urn:li:x", "urn:li:tag:x", "urn:li:glossaryTerm:a,b", "urn:li:test:(x)", "\u241f", "\u00e9", "\ufb00", "x\x7f", "x\x00"}
	for _, s := range odd {
		out = append(out, [4]string{s, "hive", "", flow}, [4]string{"x", s, "", ds})
	}
	for _, e := range []string{"PROD", "prod", "Dev", "nope", "proſ", "\u0130", "CORP", "sandbox", "QA", " PROD", "PROD "} {
		out = append(out, [4]string{"x", "hive", e, flow})
	}
	for _, n := range []string{ds, flow, "urn:li:corpuser:x", "urn:li:x:(a,b)", "urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
		"urn:li:schemaField:(" + ds + ",f)", "urn:li:dataPlatform:hive", "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)",
		"urn:li:dataFlow:(a%2Cb,c,d)", "urn:li:dataset:(urn:li:dataPlatform:hive,a%28b,PROD)"} {
		out = append(out, [4]string{"x", "hive", "", n}, [4]string{"a b", "hive", "", n})
	}
	for _, seed := range fuzzSeeds(t, "FuzzBuild") {
		if len(seed) == 3 {
			a, b, c := seed[0], seed[1], seed[2]
			out = append(out, [4]string{b, a, c, b}, [4]string{a, a, c, ""}, [4]string{c, b, "", a})
		}
	}
	return out
}

// parseInputs are the corpus's inputs to parse.
func parseInputs(t testing.TB) []string {
	out := append([]string(nil), parseSeeds...)
	for _, seed := range fuzzSeeds(t, "FuzzParse") {
		out = append(out, seed...)
	}
	for _, s := range allSamples() {
		out = append(out, variants(s)...)
	}
	out = append(out, lengthParseInputs()...)
	return append(out, depthParseInputs()...)
}

// corpusInput is an input of the corpus: a string to parse or parts to build
// from.
type corpusInput struct {
	parse *string
	build *[4]string
}

// corpusInputs are the corpus's inputs, each once, in order; sweeps are
// the inputs of TestCompareLengthLimit and TestCompareDepth, which
// TestCorpus leaves to them.
func corpusInputs(t testing.TB) (all []corpusInput, sweeps map[string]bool) {
	seen := map[string]bool{}
	add := func(in corpusInput) {
		if k := entry(in.parse, in.build).key(); !seen[k] {
			seen[k] = true
			all = append(all, in)
		}
	}
	for _, s := range parseInputs(t) {
		add(corpusInput{parse: &s})
	}
	for _, b := range buildSeeds(t) {
		add(corpusInput{build: &b})
	}
	sweeps = map[string]bool{}
	for _, s := range append(lengthParseInputs(), depthParseInputs()...) {
		add(corpusInput{parse: &s})
		sweeps[entry(&s, nil).key()] = true
	}
	for _, b := range lengthBuildInputs() {
		add(corpusInput{build: &b})
		sweeps[entry(nil, &b).key()] = true
	}
	return all, sweeps
}

// writeCorpus writes the corpus of the outcomes the functions give. Its
// columns are ordered so that those with the same hashes for every input
// come together and encodeWant writes each run once.
func writeCorpus(t testing.TB, head corpusHead, parse func(string) []string, build func(s, platform, env, nested string) []string) {
	inputs, _ := corpusInputs(t)
	outcomes := make([][]string, len(inputs))
	var pcols, bcols []string // each column's hashes, to order them by
	pcols, bcols = make([]string, len(head.Parsers)), make([]string, len(head.Builders))
	for i, in := range inputs {
		cols := bcols
		if in.parse != nil {
			outcomes[i] = parse(*in.parse)
			cols = pcols
		} else {
			outcomes[i] = build(in.build[0], in.build[1], in.build[2], in.build[3])
		}
		for j, o := range outcomes[i] {
			cols[j] += hashOf(o)
		}
	}
	order := func(names, cols []string) []int {
		perm := make([]int, len(names))
		for i := range perm {
			perm[i] = i
		}
		sort.SliceStable(perm, func(a, b int) bool { return cols[perm[a]] < cols[perm[b]] })
		return perm
	}
	pperm, bperm := order(head.Parsers, pcols), order(head.Builders, bcols)
	permute := func(xs []string, perm []int) []string {
		out := make([]string, len(perm))
		for i, p := range perm {
			out[i] = xs[p]
		}
		return out
	}
	var b strings.Builder
	line := func(v any) {
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	line(corpusHead{permute(head.Parsers, pperm), permute(head.Builders, bperm)})
	for i, in := range inputs {
		c := entry(in.parse, in.build)
		perm := bperm
		if in.parse != nil {
			perm = pperm
		}
		c.Want = encodeWant(permute(outcomes[i], perm))
		line(c)
	}
	if err := os.WriteFile(corpusFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCorpus checks every parser and builder with every input of the corpus
// but the sweeps, and that the corpus holds no more inputs than it should.
func TestCorpus(t *testing.T) {
	if *update {
		pn, parse := parsers(t)
		bn, build := builders()
		writeCorpus(t, corpusHead{pn, bn}, parse, build)
	}
	k := newChecker(t)
	inputs, sweeps := corpusInputs(t)
	if got, want := len(k.c.want), len(inputs); got != want {
		t.Errorf("the corpus has %d inputs, want %d", got, want)
	}
	for _, in := range inputs {
		if sweeps[entry(in.parse, in.build).key()] {
			continue
		}
		if in.parse != nil {
			k.checkParse(t, *in.parse)
		} else {
			k.checkBuild(t, in.build[0], in.build[1], in.build[2], in.build[3])
		}
	}
}

// TestCompareLengthLimit builds and parses URNs around DataHub's 512-byte
// limit (see lengthBuildInputs and lengthParseInputs) and compares them with
// the corpus, so that the fast path's sum of the encoded length is checked at
// the boundary of each type.
func TestCompareLengthLimit(t *testing.T) {
	k := newChecker(t)
	for _, b := range lengthBuildInputs() {
		k.checkBuild(t, b[0], b[1], b[2], b[3])
	}
	for _, s := range lengthParseInputs() {
		k.checkParse(t, s)
	}
}

// TestCompareDepth parses URNs nested around every depth limit (see
// depthParseInputs) and compares them with the corpus.
func TestCompareDepth(t *testing.T) {
	k := newChecker(t)
	for _, s := range depthParseInputs() {
		k.checkParse(t, s)
	}
}
