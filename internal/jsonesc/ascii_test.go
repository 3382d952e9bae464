package jsonesc

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
)

// asciiRef is src with every non-ASCII character (each byte of invalid
// UTF-8 as U+FFFD) written as a \uXXXX escape, a surrogate pair above
// U+FFFF: what json.dumps writes by default, the first step of
// AppendASCIIString, by the plainest means.
func asciiRef(src string) string {
	var b strings.Builder
	for _, r := range src { // invalid UTF-8 reads as U+FFFD, a byte at a time
		switch {
		case r < 0x80:
			b.WriteRune(r)
		case r >= 0x10000:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

var asciiCases = append([]string{
	`{"a":"é 😀 \u2028 \"q\" \\ <&>"}`, "\x00\x1f\x7f\n\r\t\b\f\xff\xed\xa0\x80\xf0\x9f\x98",
	"\xef\xbf\xbd \u2029 \U0010ffff", `{"aspect":{"owners":[{"owner":"urn:li:corpuser:x","type":"DATAOWNER"}]}}`,
}, appendCases...)

// checkASCII checks AppendASCIIString, AppendASCIIBody and
// AppendStringInString on s against the two passes they stand for.
func checkASCII(t *testing.T, s string) {
	t.Helper()
	want := string(AppendString([]byte("x"), asciiRef(s)))
	if got := string(AppendASCIIString([]byte("x"), []byte(s))); got != want {
		t.Fatalf("AppendASCIIString(%q) = %s, want %s", s, got, want)
	}
	if got := `x"` + string(AppendASCIIBody(nil, []byte(s))) + `"`; got != want {
		t.Fatalf("AppendASCIIBody(%q) = %s, want %s", s, got, want)
	}
	inner := AppendString(nil, s)
	want = "x" + string(AppendASCIIBody(nil, inner))
	if got := string(AppendStringInString([]byte("x"), s)); got != want {
		t.Fatalf("AppendStringInString(%q) = %s, want %s", s, got, want)
	}
	for _, c := range AppendStringInString(nil, s) {
		if c >= 0x80 || c < 0x20 {
			t.Fatalf("AppendStringInString(%q) holds byte %#x", s, c)
		}
	}
}

func TestAppendASCII(t *testing.T) {
	t.Parallel()
	for _, s := range asciiCases {
		checkASCII(t, s)
		checkASCII(t, strings.Repeat(s, 3)) // the word-at-a-time path
	}
}

func FuzzAppendASCII(f *testing.F) {
	for _, s := range asciiCases {
		f.Add(s)
	}
	f.Fuzz(checkASCII)
}

// TestAppendStringInStringWords holds AppendStringInString, which copies
// a plain string a word at a time as it checks it (the last word
// overlapping, a byte at a time below a word), to the two passes it stands
// for: plain strings of every length from 0 to 40, and each with a byte
// that is not plain at every position (in a word, in the overlapping last
// one, in a short string), appended to a buffer whose spare capacity holds
// other bytes, so that a byte left unwritten shows.
func TestAppendStringInStringWords(t *testing.T) {
	t.Parallel()
	const plainText = "abcdefghijklmnopqrstuvwxyz0123456789 ,.:"
	check := func(s string) {
		t.Helper()
		checkASCII(t, s)
		dst := []byte(strings.Repeat("#", 4*len(s)+16))[:1]
		want := "#" + string(AppendASCIIBody(nil, AppendString(nil, s)))
		if got := string(AppendStringInString(dst, s)); got != want {
			t.Fatalf("AppendStringInString(%q) over other bytes = %s, want %s", s, got, want)
		}
	}
	for n := range len(plainText) + 1 {
		s := plainText[:n]
		check(s)
		for pos := range n {
			for _, odd := range []string{`"`, `\`, "\n", "\x1f", "\x7f", "é", "\xff", "\u2028"} {
				check(s[:pos] + odd + s[pos+1:])
			}
		}
	}
}
