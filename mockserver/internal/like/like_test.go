package like

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// regexpLike is the reference: the regexp translation the mock used before.
func regexpLike(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	esc := false
	for _, r := range p {
		switch {
		case esc:
			b.WriteString(regexp.QuoteMeta(string(r)))
			esc = false
		case r == '\\':
			esc = true
		case r == '%':
			b.WriteString("(?s:.*)")
		case r == '_':
			b.WriteString("(?s:.)")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	if esc {
		b.WriteString(`\\`)
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

func TestMatchAgreesWithRegexp(t *testing.T) {
	t.Parallel()
	patterns := []string{"", "%", "%%", "_", "a", "a%", "%a", "%a%", "a%b", "a_b", "a%%b", "%a%b%", "a%b%c",
		"urn:li:dataset:%", "%prod)", `a\%b`, `a\_b`, `a\\%`, `\`, `a\`, "_%_", "%_%", "ab%ab", "%aa", "é_", "%é%"}
	subjects := []string{"", "a", "b", "ab", "aab", "abb", "a%b", "a_b", "axb", "abc", "axbxc", "aa", "aaa", "ab ab", "abab",
		"urn:li:dataset:(urn:li:dataPlatform:hive,x,prod)", `a\`, `a\x`, `\`, "é", "éx", "xéx", "a\nb"}
	for _, p := range patterns {
		re := regexpLike(p)
		pat := Compile(p)
		for _, s := range subjects {
			if got, want := pat.Match(s), re.MatchString(s); got != want {
				t.Errorf("Compile(%q).Match(%q) = %v, want %v", p, s, got, want)
			}
		}
	}
}

func TestPrefix(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]string{"": "", "abc": "abc", "ab%c": "ab", "a_": "a", `a\%`: "a", "%a": ""} {
		if got := Compile(p).Prefix(); got != want {
			t.Errorf("Compile(%q).Prefix() = %q, want %q", p, got, want)
		}
	}
}

// TestHugePattern is the reviewer's getCount probe: a 3 MB pattern of %
// once panicked in regexp.MustCompile.
func TestHugePattern(t *testing.T) {
	t.Parallel()
	for _, p := range []string{strings.Repeat("%", 3_000_000), strings.Repeat("_", 3_000_000), strings.Repeat("a%", 1_500_000)} {
		pat := Compile(p)
		if got, want := pat.Match("urn:li:corpuser:a"), p[0] == '%'; got != want {
			t.Errorf("Match on a %d-byte pattern %q... = %v, want %v", len(p), p[:4], got, want)
		}
	}
}

// FuzzMatch checks the matcher against the regexp translation.
func FuzzMatch(f *testing.F) {
	f.Add("a%b_c", "axxbyc")
	f.Add(`%\%%`, "50%")
	f.Add("%a%a%", "aba")
	f.Fuzz(func(t *testing.T, p, s string) {
		if len(p) > 64 || len(s) > 64 || !utf8.ValidString(p) || !utf8.ValidString(s) {
			return
		}
		if got, want := Compile(p).Match(s), regexpLike(p).MatchString(s); got != want {
			t.Errorf("Compile(%q).Match(%q) = %v, want %v", p, s, got, want)
		}
	})
}
