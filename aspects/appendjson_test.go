package aspects_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/catalogkit/datahub-go/internal/pdl/gen/gotypes"
	"github.com/catalogkit/datahub-go/internal/testshared"
)

// oddStrings are appended to every string of TestAppendJSONMatchesReflection's
// second pass: HTML characters (not escaped), quotes, control characters,
// U+2028, non-ASCII, a rune above U+FFFF and invalid UTF-8.
const oddStrings = "<a href=\"x\">&amp;</a>\\\n\r\t\b\f\x01\x1f\u2028\u2029é😀\xff\xc3"

// oddValues rewrites a JSON value of valueGen: every string gets oddStrings
// appended, every number becomes one of a few floats and integers that
// encoding/json formats in different ways.
func oddValues(v any, n *int) any {
	switch v := v.(type) {
	case string:
		return v + oddStrings
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			out[k] = oddValues(x, n)
		}
		return out
	case []any:
		out := make([]any, len(v), len(v)+1)
		for i, x := range v {
			out[i] = oddValues(x, n)
		}
		if len(v) == 1 { // a second item, to check the separators
			out = append(out, oddValues(v[0], n))
		}
		return out
	case float64:
		*n++
		return []float64{1.5, 1e21, 1e-7, 0.1, 123456789, -2.5e-9, 3.4028234663852886e38, 0, 1e20}[*n%9]
	case int:
		*n++
		return []int{7, -1, 0, math.MaxInt32, math.MinInt32}[*n%5]
	}
	return v
}

// TestAppendJSONMatchesReflection holds the generated, reflection-free
// encoding of every aspect to the encoding/json one it replaced (each
// type's MarshalJSON, before, encoded a method-less copy of the value with
// its defaults filled in): for a value of each of the 255 aspects with
// every field set, each union member in turn, with plain and odd strings
// and numbers, and for each aspect's zero value, MarshalJSON and AppendJSON
// give the same bytes, or fail with the same error.
func TestAppendJSONMatchesReflection(t *testing.T) {
	// Not parallel: it switches MarshalJSON's path for the package.
	m, err := gotypes.Load(testshared.Path(t, "reference", "datahub-pegasus"), ".")
	if err != nil {
		t.Fatal(err)
	}
	g := &valueGen{decls: m.Decls, entities: map[string]bool{}}
	compared := 0
	for _, a := range m.Aspects {
		var inputs [][]byte
		for member := range 4 {
			g.member = member
			value := g.record(a.Record, 0)
			n := member
			for _, v := range []any{value, oddValues(value, &n)} {
				in, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, in)
			}
		}
		zero, ok := aspects.New(a.Name)
		if !ok {
			t.Fatalf("aspects.New(%q) fails", a.Name)
		}
		for _, in := range inputs {
			v, err := aspects.Decode(a.Name, in)
			if err != nil {
				t.Fatalf("Decode(%s, %s): %v", a.Name, in, err)
			}
			compareEncodings(t, a.Name, v)
			compared++
		}
		compareEncodings(t, a.Name, zero)
		compared++
	}
	if compared < 255*9 {
		t.Errorf("%d values compared, want at least %d", compared, 255*9)
	}
}

// compareEncodings checks that v encodes to the same bytes (or fails in
// both) through the generated path and through encoding/json.
func compareEncodings(t *testing.T, name string, v aspects.Aspect) {
	t.Helper()
	aspects.SetReflectEncoding(true)
	want, wantErr := encode(v)
	aspects.SetReflectEncoding(false)
	got, gotErr := encode(v)
	app, appErr := aspects.AppendJSON([]byte("prefix"), v)
	var direct []byte
	directErr := wantErr
	if m, ok := v.(json.Marshaler); ok {
		direct, directErr = m.MarshalJSON()
	}
	if (wantErr != nil) != (gotErr != nil) || (wantErr != nil) != (appErr != nil) || (wantErr != nil) != (directErr != nil) {
		t.Fatalf("%s: errors: reflection %v, generated %v, AppendJSON %v, MarshalJSON %v", name, wantErr, gotErr, appErr, directErr)
	}
	if wantErr != nil {
		if gotErr.Error() != wantErr.Error() || appErr.Error() != wantErr.Error() {
			t.Fatalf("%s: errors: reflection %q, generated %q, AppendJSON %q", name, wantErr, gotErr, appErr)
		}
		compareString(t, name, v, nil, appErr)
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: generated encoding\n%s\nwant (encoding/json)\n%s", name, got, want)
	}
	if direct != nil && !bytes.Equal(direct, want) {
		t.Fatalf("%s: MarshalJSON gives\n%s\nwant\n%s", name, direct, want)
	}
	if !bytes.Equal(app, append([]byte("prefix"), want...)) {
		t.Fatalf("%s: AppendJSON gives\n%s\nwant prefix and\n%s", name, app, want)
	}
	compareString(t, name, v, want, nil)
}

// compareString checks that AppendJSONString of v gives the JSON want (or
// the error wantErr) escaped as a string (jsonesc.AppendASCIIString): the
// one-pass escaped form of the types of this package against their JSON
// escaped afterwards.
func compareString(t *testing.T, name string, v aspects.Aspect, want []byte, wantErr error) {
	t.Helper()
	got, err := aspects.AppendJSONString([]byte("prefix"), v)
	if wantErr != nil || err != nil {
		if wantErr == nil || err == nil || err.Error() != wantErr.Error() || string(got) != "prefix" {
			t.Fatalf("%s: AppendJSONString gives %q, %v; want the error %v", name, got, err, wantErr)
		}
		return
	}
	if w := jsonesc.AppendASCIIString([]byte("prefix"), want); !bytes.Equal(got, w) {
		t.Fatalf("%s: AppendJSONString gives\n%s\nwant\n%s", name, got, w)
	}
}

// FuzzAppendJSON compares the generated encoding with encoding/json's on
// aspects whose fields are strings, floats, integers, maps and unions, from
// fuzzed strings and numbers.
func FuzzAppendJSON(f *testing.F) {
	f.Add("daily <orders> & \"more\"", 1.5, int64(7), "k")
	f.Add("\u2028\xff\x00", 1e21, int64(-1), "")
	f.Add("é😀", 1e-7, int64(1<<40), "\x1f")
	f.Add("", 0.0, int64(0), "<")
	f.Fuzz(func(t *testing.T, s string, x float64, n int64, k string) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		vs := []aspects.Aspect{
			aspects.DatasetProperties{Description: &s, Name: &k, CustomProperties: map[string]string{k: s, s: k}, Tags: []string{s, k}},
			aspects.DatasetProfile{TimestampMillis: n, RowCount: &n, FieldProfiles: []aspects.DatasetFieldProfile{
				{FieldPath: s, Mean: &k, SampleValues: []string{s}}}},
			aspects.EditableSchemaMetadata{Created: aspects.AuditStamp{Time: n, Actor: s, Message: &k}},
			aspects.MLModelProperties{Name: &s, CustomProperties: map[string]string{k: s},
				HyperParams: []aspects.MLHyperParam{{Name: s}}},
			aspects.Operation{TimestampMillis: n, OperationType: aspects.OperationType(s), CustomProperties: map[string]string{k: s}},
			aspects.StructuredProperties{Properties: []aspects.StructuredPropertyValueAssignment{{
				PropertyURN: s, Values: []aspects.PrimitivePropertyValue{{Double: &x}, {String: &k}}}}},
			aspects.AssertionInfo{Type: aspects.AssertionType(k), CustomProperties: map[string]string{s: k},
				VolumeAssertion: &aspects.VolumeAssertionInfo{Entity: s, RowCountTotal: &aspects.RowCountTotal{
					Operator: aspects.AssertionStdOperator(k), Parameters: aspects.AssertionStdParameters{
						Value: &aspects.AssertionStdParameter{Value: strings.Repeat(s, 2)}}}}},
			aspects.MLTrainingRunProperties{TrainingMetrics: []aspects.MLMetric{{Name: s, Value: &k}}},
		}
		for _, v := range vs {
			compareEncodings(t, v.AspectName(), v)
		}
	})
}

// encode is v's JSON as a json.Encoder without HTML escaping writes it (the
// emitter's encoding), without the newline.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// FuzzAppendJSONString holds the one-pass escaped form (AppendJSONString)
// of every aspect to its JSON escaped afterwards, on values of every field
// (the member-th member of each union) whose strings all end with the
// fuzzed s, and whose numbers take the fuzzed integer or float.
func FuzzAppendJSONString(f *testing.F) {
	m, err := gotypes.Load(testshared.Path(f, "reference", "datahub-pegasus"), ".")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(0, "", int64(7), 1.5)
	f.Add(1, oddStrings, int64(-1), 1e21)
	f.Add(2, `"\`, int64(1<<40), 1e-7)
	f.Add(3, "é😀\u2028\xff\x00\x7f", int64(0), -2.5e-9)
	f.Fuzz(func(t *testing.T, member int, s string, n int64, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		g := &valueGen{decls: m.Decls, entities: map[string]bool{}, member: member & 3}
		compared := 0
		for _, a := range m.Aspects {
			in, err := json.Marshal(fuzzValues(g.record(a.Record, 0), s, n, x))
			if err != nil {
				t.Fatal(err)
			}
			v, err := aspects.Decode(a.Name, in)
			if err != nil {
				continue // a value the type cannot hold (an integer too large, say)
			}
			want, wantErr := aspects.AppendJSON(nil, v)
			compareString(t, a.Name, v, want, wantErr)
			compared++
		}
		if compared < 200 {
			t.Fatalf("%d of %d aspects compared", compared, len(m.Aspects))
		}
	})
}

// fuzzValues rewrites a JSON value of valueGen: every string gets s
// appended, every integer becomes n and every other number x.
func fuzzValues(v any, s string, n int64, x float64) any {
	switch v := v.(type) {
	case string:
		return v + s
	case map[string]any:
		out := map[string]any{}
		for k, e := range v {
			out[k] = fuzzValues(e, s, n, x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = fuzzValues(e, s, n, x)
		}
		return out
	case float64:
		return x
	case int:
		return n
	}
	return v
}
