package pdl

import (
	"bytes"
	"testing"

	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// appendUnquotedRef is the appendUnquoted this package had before its
// word-at-a-time copy, kept as its reference. It appends the decoding (see unquote) of the string literal
// at d[i] to b, validating it as scanStr does in the same pass, and returns
// the position after the literal; ok false when there is none.
func appendUnquotedRef(b, d []byte, i int) (_ []byte, end int, ok bool) {
	if i >= len(d) || d[i] != '"' {
		return b, 0, false
	}
	i++
	for {
		j, seen := plainRun(d, i)
		if seen&swarHigh == 0 {
			b = append(b, d[i:j]...)
		} else {
			b = appendUTF8(b, d[i:j])
		}
		i = j
		if i >= len(d) || d[i] < 0x20 {
			return b, 0, false
		}
		if d[i] == '"' {
			return b, i + 1, true
		}
		if i+1 < len(d) && unescaped[d[i+1]] != 0 {
			b = append(b, unescaped[d[i+1]])
			i += 2
			continue
		}
		next := escapeEnd(d, i) // a \u escape or none
		if next < 0 {
			return b, 0, false
		}
		r := hex4(d[i+2:])
		if utf16.IsSurrogate(r) {
			// A pair is two \u escapes; anything else is U+FFFD (and an
			// invalid second escape fails on the next turn).
			if next+1 < len(d) && d[next] == '\\' && d[next+1] == 'u' && escapeEnd(d, next) > 0 {
				if p := utf16.DecodeRune(r, hex4(d[next+2:])); p != unicode.ReplacementChar {
					b = utf8.AppendRune(b, p)
					i = next + 6
					continue
				}
			}
			r = unicode.ReplacementChar
		}
		b = utf8.AppendRune(b, r)
		i = next
	}
}

// checkAppendUnquoted holds appendUnquoted to appendUnquotedRef for the
// literal at d[i], appending to buffers of several capacities with a prefix.
func checkAppendUnquoted(t *testing.T, d []byte, i int) {
	t.Helper()
	want, wantEnd, wantOK := appendUnquotedRef([]byte("pre"), d, i)
	for _, c := range []int{0, 3, 8, len(d), len(d) + 8, 2*len(d) + 16} {
		b := append(make([]byte, 0, c), "pre"...)
		got, end, ok := appendUnquoted(b, d, i)
		if ok != wantOK || ok && (end != wantEnd || !bytes.Equal(got, want)) {
			t.Fatalf("appendUnquoted(cap %d, %q, %d) = %q, %d, %v; want %q, %d, %v", c, d, i, got, end, ok, want, wantEnd, wantOK)
		}
	}
}

var appendUnquotedSeeds = []string{
	`"{\"owners\": [{\"owner\": \"urn:li:corpuser:fbar\", \"type\": \"DATAOWNER\"}], \"ownerTypes\": {}}"`,
	`""`, `"a"`, `"abcdefgh"`, `"abcdefghijklmnop\"q"`, `"é ö € 😀 and more ascii text"`, "\"a\xffb\xc3\"", "\"\xe2\x82\"",
	`"\u00e9\ud83d\ude00\ud800x\udc00\u0041"`, `"\ud83d\u0041"`, `"\ud83d\uZZZZ"`, `"\x"`, `"abc`, "\"a\tb\"", `"\\\/\b\f\n\r\t"`,
	`"0123456789abcdef" trailing`,
	`"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"x"`, `"abcdefg\"`, `"abcdefg\`, `"abcdefg\q12345678"`, `"abcdef\\\\\n\tz\u0041\/xyzw"`,
	"\"abcdefg\\\"\xc3\xa9\\\"\"",
}

// checkAppendASCII holds the ASCII-only unquote to appendUnquotedRef
// followed by a check that the decoding is all ASCII.
func checkAppendASCII(t *testing.T, d []byte, i int) {
	t.Helper()
	want, wantEnd, wantOK := appendUnquotedRef([]byte("pre"), d, i)
	if wantOK {
		for _, c := range want {
			if c >= 0x80 {
				wantOK = false
			}
		}
	}
	for _, c := range []int{0, 3, 8, len(d), len(d) + 8} {
		b := append(make([]byte, 0, c), "pre"...)
		got, end, ok := appendUnquotedOf(b, d, i, true)
		if ok != wantOK || ok && (end != wantEnd || !bytes.Equal(got, want)) {
			t.Fatalf("appendUnquotedOf(cap %d, %q, %d, ascii) = %q, %d, %v; want %q, %d, %v", c, d, i, got, end, ok, want, wantEnd, wantOK)
		}
	}
}

func FuzzAppendASCII(f *testing.F)    { fuzzUnquoteSeeds(f, checkAppendASCII) }
func TestAppendASCII(t *testing.T)    { testUnquoteSeeds(t, checkAppendASCII) }
func FuzzAppendUnquoted(f *testing.F) { fuzzUnquoteSeeds(f, checkAppendUnquoted) }
func TestAppendUnquoted(t *testing.T) { testUnquoteSeeds(t, checkAppendUnquoted) }

// fuzzUnquoteSeeds fuzzes check from more and appendUnquotedSeeds, each
// read from its start.
func fuzzUnquoteSeeds(f *testing.F, check func(t *testing.T, d []byte, i int), more ...string) {
	for _, s := range more {
		f.Add([]byte(s), 0)
	}
	for _, s := range appendUnquotedSeeds {
		f.Add([]byte(s), 0)
	}
	f.Fuzz(func(t *testing.T, d []byte, i int) {
		if i < 0 || i > len(d) {
			i = 0
		}
		check(t, d, i)
	})
}

// testUnquoteSeeds runs check on every seed of appendUnquotedSeeds from
// every offset.
func testUnquoteSeeds(t *testing.T, check func(t *testing.T, d []byte, i int)) {
	t.Parallel()
	for _, s := range appendUnquotedSeeds {
		for i := range len(s) + 1 {
			check(t, []byte(s), i)
		}
	}
}

// TestAppendUnquotedKeepsDst: AppendUnquoted appends after dst's bytes, and
// on a bad literal gives dst back as it came.
func TestAppendUnquotedKeepsDst(t *testing.T) {
	t.Parallel()
	dst := append(make([]byte, 0, 64), "ab"...)
	got, ok := AppendUnquoted(dst, []byte(`"x\"y\u00e9"`))
	if !ok || string(got) != "abx\"y\u00e9" {
		t.Errorf("AppendUnquoted = %q, %v", got, ok)
	}
	for _, bad := range []string{`"x`, `"x" `, `x`, `"\q"`} {
		if got, ok := AppendUnquoted(dst, []byte(bad)); ok || string(got) != "ab" || cap(got) != cap(dst) {
			t.Errorf("AppendUnquoted(%q) = %q (cap %d), %v", bad, got, cap(got), ok)
		}
	}
}
