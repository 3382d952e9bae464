package pdl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// decodeStd is what DecodeJSON must match: encoding/json's Decoder with
// UseNumber over exactly one value.
func decodeStd(data []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return v, true
}

var jsonSeeds = []string{
	`{}`, `[]`, ` {"a":1} `, `{"a":[1,2.5,-3e+2,true,false,null,"x"]}`, `"\u00e9\ud83d\ude00"`,
	`"\ud800"`, "\"\xff\"", `{"a":1,"a":2}`, `{"a":1}x`, `{"a":}`, `01`, `-`, `1.`, `1e`, `"\x"`,
	"\"a\tb\"", `{"k\"q":"v\\/"}`, `[1,]`, `{,}`, `nul`, `  `, ``, `{"a":{"b":{"c":[{}]}}}`,
	`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}],"ownerTypes":{}}`,
	"{\"a\":\"\u2028<&>\"}", `-0.0E-0`, `[1 2]`, `{"a" 1}`, `tru`, `"unterminated`,
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range jsonSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := pdl.Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, json.Valid %v", data, got, want)
		}
		want, wantOK := decodeStd(data)
		got, gotOK := pdl.DecodeJSON(data)
		if wantOK != gotOK {
			t.Fatalf("DecodeJSON(%q) ok = %v, encoding/json ok = %v", data, gotOK, wantOK)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("DecodeJSON(%q) (-want +got):\n%s", data, diff)
		}
		var m map[string]json.RawMessage
		stdErr := json.Unmarshal(data, &m)
		gm, ok := pdl.ObjectMap(data)
		if (stdErr == nil && m != nil) != ok {
			t.Fatalf("ObjectMap(%q) ok = %v, encoding/json err = %v", data, ok, stdErr)
		}
		if ok {
			if diff := cmp.Diff(m, gm); diff != "" {
				t.Fatalf("ObjectMap(%q) (-want +got):\n%s", data, diff)
			}
		}
		var cb bytes.Buffer
		cerr := json.Compact(&cb, data)
		gotC, cok := pdl.AppendCompact([]byte("x"), data)
		if (cerr == nil) != cok || (cok && "x"+cb.String() != string(gotC)) {
			t.Fatalf("AppendCompact(%q) = %q, %v; json.Compact %q, %v", data, gotC, cok, cb.String(), cerr)
		}
		gotS, sok := pdl.CompactShared(data)
		if sok != cok || (sok && string(gotS) != cb.String()) {
			t.Fatalf("CompactShared(%q) = %q, %v; json.Compact %q, %v", data, gotS, sok, cb.String(), cerr)
		}
		if sok && (cb.String() == string(data)) != (&gotS[0] == &data[0]) {
			t.Fatalf("CompactShared(%q) = %q shares its input: %v", data, gotS, &gotS[0] == &data[0])
		}
		var raws []json.RawMessage
		stdErr = json.Unmarshal(data, &raws)
		ga, ok := pdl.ArrayElements(data)
		if (stdErr == nil && raws != nil) != ok {
			t.Fatalf("ArrayElements(%q) ok = %v, encoding/json err = %v", data, ok, stdErr)
		}
		for i := range ga {
			if !bytes.Equal(raws[i], ga[i]) {
				t.Fatalf("ArrayElements(%q)[%d] = %q, encoding/json %q", data, i, ga[i], raws[i])
			}
		}
		var s string
		stdErr = json.Unmarshal(data, &s)
		gs, ok := pdl.UnquoteJSON(data)
		if ok && (stdErr != nil || s != gs) {
			t.Fatalf("UnquoteJSON(%q) = %q, encoding/json %q, %v", data, gs, s, stdErr)
		}
		if gb, bok := pdl.UnquoteJSONBytes(data); bok != ok || (ok && string(gb) != gs) {
			t.Fatalf("UnquoteJSONBytes(%q) = %q, %v; UnquoteJSON %q, %v", data, gb, bok, gs, ok)
		}
	})
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	for _, s := range jsonSeeds {
		t.Run(s, func(t *testing.T) {
			t.Parallel()
			want, wantOK := decodeStd([]byte(s))
			got, gotOK := pdl.DecodeJSON([]byte(s))
			if diff := cmp.Diff([]any{want, wantOK}, []any{got, gotOK}); diff != "" {
				t.Errorf("DecodeJSON(%q) (-want +got):\n%s", s, diff)
			}
		})
	}
}

func TestUnquoteJSON(t *testing.T) {
	t.Parallel()
	for _, lit := range []string{`"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`,
		`"\ude00\ud83d"`, "\"\xff\xfe a\"", `"\uD83D\uDE00"`, `"\ud83d\ud83d\ude00"`, `"\ud83d\n"`, `"abcdefgh\u00e9ijklmnop"`, `"{\"owners\": [{\"owner\": \"urn:li:corpuser:fbar\"}]}"`} {
		var want string
		if err := json.Unmarshal([]byte(lit), &want); err != nil {
			t.Fatal(err)
		}
		got, ok := pdl.UnquoteJSON([]byte(lit))
		if diff := cmp.Diff([]any{want, true}, []any{got, ok}); diff != "" {
			t.Errorf("UnquoteJSON(%s) (-want +got):\n%s", lit, diff)
		}
		gotBytes, ok := pdl.UnquoteJSONBytes([]byte(lit))
		if diff := cmp.Diff([]any{want, true}, []any{string(gotBytes), ok}); diff != "" {
			t.Errorf("UnquoteJSONBytes(%s) (-want +got):\n%s", lit, diff)
		}
	}
	// Not literals: a bad escape (also as the second half of a pair), a
	// control character, no end, text after the end.
	for _, lit := range []string{`"\ud83d\u00zz"`, `"\ud83d\x"`, `"\ud83d\`, `"\ud83d\u12"`, `"\q"`, "\"a\nb\"", `"abc`,
		`"abcdefghij\"`, `"a"b`, `x`, `""""`} {
		if s, ok := pdl.UnquoteJSON([]byte(lit)); ok {
			t.Errorf("UnquoteJSON(%s) = %q, want false", lit, s)
		}
		if b, ok := pdl.UnquoteJSONBytes([]byte(lit)); ok {
			t.Errorf("UnquoteJSONBytes(%s) = %q, want false", lit, b)
		}
	}
}

// canonicalEqual is what EqualJSON must match: equal re-encodings of the
// decoded values.
func canonicalEqual(a, b []byte) (equal, ok bool) {
	av, aok := decodeStd(a)
	bv, bok := decodeStd(b)
	if !aok || !bok {
		return false, false
	}
	ab, err1 := json.Marshal(av)
	bb, err2 := json.Marshal(bv)
	return err1 == nil && err2 == nil && bytes.Equal(ab, bb), true
}

var equalSeeds = [][2]string{
	{`{"a":1,"b":[1,2]}`, `{"b":[1,2],"a":1}`}, {`{"a":1}`, `{"a":1.0}`}, {`{"a":"\u0041"}`, `{"a":"A"}`},
	{`{"a":1,"a":2}`, `{"a":2}`}, {`[1,2]`, `[2,1]`}, {`{"a":{}}`, `{"a":[]}`}, {` {"a" : null} `, `{"a":null}`},
	{"\"\xff\"", "\"\xfe\""}, {`{"\u0061":1}`, `{"a":1}`}, {`{"a":1}`, `{"a":1,"b":2}`}, {`{}`, `{}x`},
	{`{"x":[{"b":1,"a":2}]}`, `{"x":[{"a":2,"b":1}]}`}, {`"a"`, `"b"`}, {`true`, `false`}, {`{"a":1}`, `{"b":1}`},
	{"0\v", "0"}, {"\f{}", "{}"}, {"{}\u00a0", "{}"}, // only space, tab, LF and CR surround JSON
}

func FuzzEqualJSON(f *testing.F) {
	for _, s := range equalSeeds {
		f.Add([]byte(s[0]), []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		wantEq, wantOK := canonicalEqual(a, b)
		gotEq, gotOK := pdl.EqualJSON(a, b)
		if wantEq != gotEq || wantOK != gotOK {
			t.Fatalf("EqualJSON(%q, %q) = %v, %v; canonical comparison %v, %v", a, b, gotEq, gotOK, wantEq, wantOK)
		}
	})
}

func TestEqualJSON(t *testing.T) {
	t.Parallel()
	for _, s := range equalSeeds {
		t.Run(s[0]+" "+s[1], func(t *testing.T) {
			t.Parallel()
			wantEq, wantOK := canonicalEqual([]byte(s[0]), []byte(s[1]))
			gotEq, gotOK := pdl.EqualJSON([]byte(s[0]), []byte(s[1]))
			if diff := cmp.Diff([]bool{wantEq, wantOK}, []bool{gotEq, gotOK}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// deepPairs are equal JSON texts nested as deep as encoding/json allows,
// spelled differently so that EqualJSON cannot compare them byte for byte.
func deepPairs() [][2][]byte {
	const d = 10000
	return [][2][]byte{
		{[]byte(strings.Repeat(`{"a":`, d) + "1" + strings.Repeat("}", d)), []byte(strings.Repeat(`{"a" :`, d) + "1" + strings.Repeat("}", d))},
		{[]byte(strings.Repeat(`[`, d) + "1" + strings.Repeat("]", d)), []byte(strings.Repeat(`[ `, d) + "1" + strings.Repeat("]", d))},
	}
}

// TestEqualJSONDeep checks EqualJSON on the deepest values; its cost there
// (it once re-scanned every level below the current one, seconds for 1 MB)
// is measured by BenchmarkEqualJSONDeep, not asserted here.
func TestEqualJSONDeep(t *testing.T) {
	t.Parallel()
	for _, pair := range deepPairs() {
		if eq, ok := pdl.EqualJSON(pair[0], pair[1]); !eq || !ok {
			t.Errorf("EqualJSON(%.20s..., %.20s...) = %v, %v; want true, true", pair[0], pair[1], eq, ok)
		}
	}
}

// BenchmarkEqualJSONDeep compares EqualJSON on the deepest values with
// decoding both: the two should stay within a small factor.
func BenchmarkEqualJSONDeep(b *testing.B) {
	for i, pair := range deepPairs() {
		b.Run(fmt.Sprintf("equal/%d", i), func(b *testing.B) {
			for b.Loop() {
				pdl.EqualJSON(pair[0], pair[1])
			}
		})
		b.Run(fmt.Sprintf("decode/%d", i), func(b *testing.B) {
			for b.Loop() {
				pdl.DecodeJSON(pair[0])
				pdl.DecodeJSON(pair[1])
			}
		})
	}
}
