package emitter

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/jsonesc"
)

// outsideMarshaler is an aspect of another package than aspects whose
// MarshalJSON returns what it was given, compact or not.
type outsideMarshaler struct{ raw string }

func (outsideMarshaler) AspectName() string { return "outside" }

func (o outsideMarshaler) MarshalJSON() ([]byte, error) {
	if o.raw == "fail" {
		return nil, errors.New("outside: fails")
	}
	return []byte(o.raw), nil
}

// ptrMarshaler has MarshalJSON on its pointer only: the encoder calls it
// for a *ptrMarshaler and not for a ptrMarshaler.
type ptrMarshaler struct{ N int }

func (ptrMarshaler) AspectName() string { return "ptr" }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{"n" : 1}`), nil }

// plainAspect has no MarshalJSON.
type plainAspect struct {
	S string `json:"s"`
	M map[string]string
}

func (plainAspect) AspectName() string { return "plain" }

// checkEncodeJSON fails t unless encodeJSON and the json.Encoder path give
// the same bytes and the same error for a.
func checkEncodeJSON(t *testing.T, a aspects.Aspect) {
	t.Helper()
	var fast, slow bytes.Buffer
	fast.WriteString("prefix")
	slow.WriteString("prefix")
	errFast, errSlow := encodeJSON(&fast, a), encodeJSONSlow(&slow, a)
	if (errFast == nil) != (errSlow == nil) || (errFast != nil && errFast.Error() != errSlow.Error()) {
		t.Fatalf("%T: error %v, the encoder's %v", a, errFast, errSlow)
	}
	if errFast == nil && !bytes.Equal(fast.Bytes(), slow.Bytes()) {
		t.Fatalf("%T: encodeJSON wrote\n%s\nthe encoder\n%s", a, fast.Bytes(), slow.Bytes())
	}
	var me1, me2 *json.MarshalerError
	if errors.As(errFast, &me1) != errors.As(errSlow, &me2) {
		t.Fatalf("%T: *json.MarshalerError in %v but not in %v or the reverse", a, errFast, errSlow)
	}
	checkGenericAspect(t, a)
}

// checkGenericAspect fails t unless appendGenericAspect, which skips the
// buffer for some aspects, writes what encodeAspect's text gives, as a
// string and inline, and fails with encodeAspect's error.
func checkGenericAspect(t *testing.T, a aspects.Aspect) {
	t.Helper()
	var buf bytes.Buffer
	wantErr := encodeAspect(&buf, a)
	for _, inline := range []bool{false, true} {
		var want []byte
		if inline {
			want = append(append([]byte(`prefix{"json":`), buf.Bytes()...), '}')
		} else {
			want = jsonesc.AppendASCIIString([]byte(`prefix{"value":`), buf.Bytes())
			want = append(want, `,"contentType":"application/json"}`...)
		}
		got, err := appendGenericAspect([]byte("prefix"), a, ContentTypeJSON, inline)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("%T: appendGenericAspect's error %v, encodeAspect's %v", a, err, wantErr)
		}
		var me1, me2 *json.MarshalerError
		if errors.As(err, &me1) != errors.As(wantErr, &me2) || errors.Is(err, datahub.ErrValidation) != errors.Is(wantErr, datahub.ErrValidation) {
			t.Fatalf("%T: appendGenericAspect's error %v does not wrap what encodeAspect's %v does", a, err, wantErr)
		}
		if err == nil && !bytes.Equal(got, want) {
			t.Fatalf("%T (inline %v): appendGenericAspect wrote\n%s\nwant\n%s", a, inline, got, want)
		}
	}
}

// TestEncodeJSONMatchesEncoder holds encodeJSON's shortcuts to the
// json.Encoder path for every typed aspect (zero, and decoded from the
// aspects golden files), raw aspects, and aspects of other packages.
func TestEncodeJSONMatchesEncoder(t *testing.T) {
	for _, name := range aspects.TypedAspects() {
		a, ok := aspects.New(name)
		if !ok {
			t.Fatalf("New(%q) failed", name)
		}
		checkEncodeJSON(t, a)                                // a pointer to a zero value
		checkEncodeJSON(t, reflectDeref(a).(aspects.Aspect)) // the zero value itself
	}
	for _, data := range aspectGoldens(t) {
		a, err := aspects.Decode(data.name, data.json)
		if err != nil {
			t.Fatalf("%s: %v", data.name, err)
		}
		checkEncodeJSON(t, a)
		checkEncodeJSON(t, reflectDeref(a).(aspects.Aspect))
	}
	for _, a := range []aspects.Aspect{
		RawAspect{Name: "x", JSON: json.RawMessage(` { "a" : [1, 2, "<&>"] } `)},
		&RawAspect{Name: "x", JSON: json.RawMessage(`{"a":"\u00e9 é"}`)},
		RawAspect{Name: "x", JSON: json.RawMessage(`{"a":`)},
		RawAspect{Name: "x"},
		outsideMarshaler{raw: ` { "a" : "<b>" } `},
		outsideMarshaler{raw: `{"a":`},
		outsideMarshaler{raw: `"s"`},
		outsideMarshaler{raw: "fail"},
		&outsideMarshaler{raw: `[1, 2]`},
		ptrMarshaler{N: 2},
		&ptrMarshaler{N: 2},
		plainAspect{S: "<&>", M: map[string]string{"b": "1", "a": "\u2028"}},
		&plainAspect{},
		aspects.DatasetProperties{Description: aspects.Ptr("<b>\u2028 é \x00 \xff"), CustomProperties: map[string]string{"z": "1", "a": "&"}},
		aspects.SchemaMetadata{}, // fails: no platform schema
	} {
		checkEncodeJSON(t, a)
	}
}

// FuzzEncodeJSON decodes aspect JSON into the typed aspect and holds
// encodeJSON to the json.Encoder path for it.
func FuzzEncodeJSON(f *testing.F) {
	for _, data := range aspectGoldens(f) {
		f.Add(data.name, data.json)
	}
	f.Add("datasetProperties", []byte(`{"customProperties":{"b":"<\u2028>","a":"\ud800"},"description":"\u00e9\u0000","tags":["x"]}`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		a, err := aspects.Decode(name, data)
		if err != nil {
			if !json.Valid(data) {
				return
			}
			checkEncodeJSON(t, RawAspect{Name: name, JSON: data})
			return
		}
		checkEncodeJSON(t, a)
	})
}

type aspectGolden struct {
	name string
	json []byte
}

// aspectGoldens returns the aspect JSON files of the aspects package's
// testdata (<aspect>.<variant>.json).
func aspectGoldens(tb testing.TB) []aspectGolden {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("..", "aspects", "testdata", "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no aspect golden files: %v", err)
	}
	var out []aspectGolden
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		base := filepath.Base(f)
		out = append(out, aspectGolden{name: base[:bytes.IndexByte([]byte(base), '.')], json: data})
	}
	return out
}

// reflectDeref returns the value a points to, or a when it is no pointer.
func reflectDeref(a any) any {
	if v := reflect.ValueOf(a); v.Kind() == reflect.Pointer {
		return v.Elem().Interface()
	}
	return a
}

// TestAppendFilledSystemMetadata holds appendFilledSystemMetadata to
// appendSystemMetadata of the filled copy, and appendSystemMetadata to
// encoding/json's encoding of aspects.SystemMetadata.
func TestAppendFilledSystemMetadata(t *testing.T) {
	many := map[string]string{}
	for i := range 40 {
		many[string(rune('a'+i%26))+string(rune('0'+i))] = "v"
	}
	p := aspects.Ptr[string]
	stamp := &aspects.AuditStamp{Time: 9, Actor: "urn:li:corpuser:a", Message: p("m")}
	for _, sm := range []*aspects.SystemMetadata{
		nil,
		{},
		{LastObserved: 5, RunID: p("r"), LastRunID: p("l"), PipelineName: p("p"), RegistryName: p("n"), RegistryVersion: p("v"), Version: p("3")},
		{RunID: p(""), LastRunID: p("")},
		{SchemaVersion: aspects.Ptr[int64](2), AspectCreated: stamp, AspectModified: &aspects.AuditStamp{Actor: "x", Impersonator: p("i")}},
		{Properties: map[string]string{}},
		{Properties: map[string]string{"clientId": ""}},
		{Properties: map[string]string{"clientVersion": "x", "a": "1", "zz": "\u2028\""}},
		{Properties: map[string]string{"clientId": "me", "clientVersion": "x"}},
		{Properties: map[string]string{"clientIc": "1", "clientIe": "2", "clientVersiom": "3", "clientVersioo": "4"}},
		{Properties: many},
	} {
		filled := filledSystemMetadata(sm, 1700000000000)
		want := appendSystemMetadata([]byte("x"), &filled)
		got := appendFilledSystemMetadata([]byte("x"), sm, 1700000000000)
		if !bytes.Equal(got, want) {
			t.Errorf("%+v: got\n%s\nwant\n%s", sm, got, want)
		}
		std, err := json.Marshal(filled)
		if err != nil {
			t.Fatal(err)
		}
		var a, b any
		if err := json.Unmarshal(want[1:], &a); err != nil {
			t.Fatalf("%s: %v", want[1:], err)
		}
		if err := json.Unmarshal(std, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%+v: appendSystemMetadata wrote\n%s\nencoding/json\n%s", sm, want[1:], std)
		}
	}
}

// FuzzAppendEscapedString holds jsonesc.AppendASCIIString, which writes an
// aspect's JSON into a body, to appendString of escapeNonASCII's output.
func FuzzAppendEscapedString(f *testing.F) {
	f.Add([]byte(`{"a":"é 😀 \u2028 \"q\" \\ <&>"}`))
	f.Add([]byte("\x00\x1f\x7f\n\r\t\b\f\xff\xed\xa0\x80\xf0\x9f\x98"))
	f.Add([]byte("plain ascii"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, src []byte) {
		var buf bytes.Buffer
		buf.Write(src)
		want := appendString([]byte("x"), escapeNonASCII(&buf))
		if got := jsonesc.AppendASCIIString([]byte("x"), src); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", src, got, want)
		}
	})
}
