package pdl

import (
	"bytes"
	"encoding/json"
	"testing"
)

// withoutOuterSpace is the reference of appendUnquotedCompact's output: the
// decoded text t with the white space outside its strings (told apart as
// JSON's lexer does) left out, and whether there was any.
func withoutOuterSpace(t []byte) ([]byte, bool) {
	var out []byte
	in, esc, dropped := false, false, false
	for _, c := range t {
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case in && c == '"':
			in = false
		case in:
		case c == '"':
			in = true
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			dropped = true
			continue
		}
		out = append(out, c)
	}
	return out, dropped
}

// checkAppendCompact holds appendUnquotedCompact, appending to buffers of
// several capacities after a prefix, to the ASCII-only unquote of the
// literal at d[i] and withoutOuterSpace of its decoding: the same verdict
// and end; when it left white space out, the reference's text, which is
// valid JSON exactly when the decoding is, then with the decoding's
// compaction; else the decoding itself.
func checkAppendCompact(t *testing.T, d []byte, i int) {
	t.Helper()
	dec, wantEnd, wantOK := appendUnquotedOf(nil, d, i, true)
	for _, c := range []int{0, 3, 8, len(d), len(d) + 8} {
		b := append(make([]byte, 0, c), "pre"...)
		got, end, dropped, ok := appendUnquotedCompact(b, d, i)
		if ok != wantOK || ok && end != wantEnd {
			t.Fatalf("appendUnquotedCompact(cap %d, %q, %d) = %q, %d, %v; the unquote %q, %d, %v", c, d, i, got, end, ok, dec, wantEnd, wantOK)
		}
		if !ok {
			if string(got) != "pre" {
				t.Fatalf("appendUnquotedCompact(cap %d, %q, %d) failed with %q, not dst", c, d, i, got)
			}
			continue
		}
		if !bytes.HasPrefix(got, []byte("pre")) {
			t.Fatalf("appendUnquotedCompact(cap %d, %q, %d) = %q: not after dst", c, d, i, got)
		}
		got = got[3:]
		if !dropped {
			if !bytes.Equal(got, dec) {
				t.Fatalf("appendUnquotedCompact(%q, %d) = %q, nothing dropped; the decoding %q", d, i, got, dec)
			}
			continue
		}
		want, any := withoutOuterSpace(dec)
		if !any || !bytes.Equal(got, want) {
			t.Fatalf("appendUnquotedCompact(%q, %d) = %q, dropped; want %q", d, i, got, want)
		}
		if json.Valid(got) != json.Valid(dec) {
			t.Fatalf("appendUnquotedCompact(%q, %d) = %q, valid JSON %v; the decoding %q %v", d, i, got, json.Valid(got), dec, json.Valid(dec))
		}
		if json.Valid(dec) {
			var c bytes.Buffer
			if err := json.Compact(&c, dec); err != nil || !bytes.Equal(c.Bytes(), got) {
				t.Fatalf("appendUnquotedCompact(%q, %d) = %q; the compaction %q", d, i, got, c.Bytes())
			}
		}
	}
}

// appendCompactSeeds are literals whose decodings are JSON text with white
// space of every kind, in strings and out, valid and not.
var appendCompactSeeds = []string{
	`"{\"owners\": [{\"owner\": \"urn:li:corpuser:fbar\", \"type\": \"DATAOWNER\"}], \"ownerTypes\": {}, \"lastModified\": {\"time\": 1000000000001, \"actor\": \"urn:li:corpuser:fbar\"}}"`,
	`"{\"a\":1,\"b\":[true,false,null]}"`,
	`" {\n  \"a\" : [ 1 , 2 ],\n\t\"b\":\r\n\"x y\"\n} "`,
	`"[1 2]"`, `"[1, 2 ]"`, `"[true false]"`, `"[\"a\" \"b\"]"`, `"[1 \"b\"]"`, `"{\"a\": 1 }"`, `"1 "`, `" 1"`, `"1 2"`,
	`"{\"a\\\" b\": \"c \\\\\", \"d\": \"\\u0020 \"}"`, `"{\"a\": \"b\\\\\" , \"c\": 1}"`,
	`"{\"a\": \"unterminated }"`, `"{\"a\":\u0020\"b\"\u000a}"`, `"[1\u00202]"`, `"[1\n2]"`, `"{\"a\":\n\t1\n}"`,
	`"{\"a\": \"\u00e9\"}"`, `"{\"a\": \"\t\"}"`, `"{\"a\": \"b\"} x"`, `"{}   "`, `"    "`, `""`, `" "`, `"a b"`,
	`"{\"a\": -1.5e+3 , \"b\": [ ] , \"c\": { } }"`, `"[ \"\\\"\" , \"\\\\\" ]"`, `"{\"a\":\"\\u0022\" }"`,
	`"{\"x\": 1} {\"y\": 2}"`, "\"[1, \x7f, \\\"\x7f\\\"]\"", "\"{\\\"a\\\": \x01}\"", `"{\"a\": 1}`, `"{\"a\" 1}"`, `"\/ \/"`, `"[0 ,1]"`,
}

func FuzzAppendCompact(f *testing.F) { fuzzUnquoteSeeds(f, checkAppendCompact, appendCompactSeeds...) }

func TestAppendCompact(t *testing.T) {
	t.Parallel()
	for _, s := range append(appendCompactSeeds[:len(appendCompactSeeds):len(appendCompactSeeds)], appendUnquotedSeeds...) {
		for i := range len(s) + 1 {
			checkAppendCompact(t, []byte(s), i)
		}
	}
}

// TestAppendCompactLeavesOut pins what the compact unquote leaves out for
// texts of each kind: the emitters' Python-style separators, pretty
// printing, and white space it must keep (within strings, and between
// two tokens it would join, where the whole decoding is appended).
func TestAppendCompactLeavesOut(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lit, want string
		dropped   bool
	}{
		{`"{\"a\": [1, 2], \"b\": \"x y\"}"`, `{"a":[1,2],"b":"x y"}`, true},
		{`"{\n  \"a\": 1\n}"`, `{"a":1}`, true},
		{`"{\"a\":1}"`, `{"a":1}`, false},
		{`"[1 2]"`, `[1 2]`, false},
		{`"[1 ,2]"`, `[1,2]`, true},
		{`"{\"a\": \"b\\\" c\"}"`, `{"a":"b\" c"}`, true},
		{`"{\"a\": true }"`, `{"a":true}`, true},
		{`"{\"a\": true\u0020}"`, `{"a": true }`, false},
		{`"[true\u0020false]"`, `[true false]`, false},
	} {
		var s Scanner
		s.Reset([]byte(tc.lit))
		got, dropped, ok := s.AppendASCIIStringCompact(nil)
		if !ok || string(got) != tc.want || dropped != tc.dropped || !s.Done() {
			t.Errorf("AppendASCIIStringCompact(%s) = %s, %v, %v; want %s, %v", tc.lit, got, dropped, ok, tc.want, tc.dropped)
		}
	}
	var s Scanner
	s.Reset([]byte(`"{\"a\": \"é\"}"`))
	if got, _, ok := s.AppendASCIIStringCompact([]byte("pre")); ok || string(got) != "pre" {
		t.Errorf("AppendASCIIStringCompact of a non-ASCII decoding = %q, %v; want dst, false", got, ok)
	}
}

// benchAspectLiterals are an emitter's ownership value as the Rest.li body
// carries it, written by Python (a space after each colon and comma) and
// compact (as Java and Go emitters write it).
var benchAspectLiterals = []struct{ name, lit string }{
	{"python", `"{\"owners\": [{\"owner\": \"urn:li:corpuser:fbar\", \"type\": \"DATAOWNER\"}], \"ownerTypes\": {}, \"lastModified\": {\"time\": 1000000000001, \"actor\": \"urn:li:corpuser:fbar\"}}"`},
	{"compact", `"{\"owners\":[{\"owner\":\"urn:li:corpuser:fbar\",\"type\":\"DATAOWNER\"}],\"ownerTypes\":{},\"lastModified\":{\"time\":1000000000001,\"actor\":\"urn:li:corpuser:fbar\"}}"`},
}

// BenchmarkUnquoteCompact is the compact unquote of benchAspectLiterals
// into memory with room (as the Rest.li decode's chunks have), beside
// BenchmarkUnquoteASCII, the plain one.
func BenchmarkUnquoteCompact(b *testing.B) {
	for _, l := range benchAspectLiterals {
		b.Run(l.name, func(b *testing.B) {
			lit := []byte(l.lit)
			buf := make([]byte, 0, 2*len(lit))
			for b.Loop() {
				if _, _, dropped, ok := appendUnquotedCompact(buf, lit, 0); !ok || dropped != (l.name == "python") {
					b.Fatal()
				}
			}
		})
	}
}

// BenchmarkUnquoteASCII is the ASCII-only unquote of benchAspectLiterals.
func BenchmarkUnquoteASCII(b *testing.B) {
	for _, l := range benchAspectLiterals {
		b.Run(l.name, func(b *testing.B) {
			lit := []byte(l.lit)
			buf := make([]byte, 0, 2*len(lit))
			for b.Loop() {
				if _, _, ok := appendUnquotedOf(buf, lit, 0, true); !ok {
					b.Fatal()
				}
			}
		})
	}
}
