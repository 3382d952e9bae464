package gms

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// compactMembersRef is compactMembers as it was before keyEnd read its
// keys, kept as its reference.
func compactMembersRef(dst jsonx.Object, sm []byte) (jsonx.Object, bool) {
	n := len(dst)
	if len(sm) < 2 || sm[0] != '{' {
		return dst, false
	}
	for i := 1; i < len(sm) && sm[i] != '}'; {
		if sm[i] == ',' {
			i++
		}
		end := jsonx.ValueEnd(sm, i) - 1 // the closing quote
		if end+1 >= len(sm) {
			return dst[:n], false
		}
		key := sm[i+1 : end]
		if bytes.IndexByte(key, '\\') >= 0 || !utf8.Valid(key) {
			return dst[:n], false
		}
		start := end + 2 // past the colon
		if i = jsonx.CompactValueEnd(sm, start); i < 0 {
			return dst[:n], false
		}
		dst = append(dst, jsonx.Member{Key: memberKey(key), Value: sm[start:i:i]})
	}
	return dst, true
}

// checkCompactMembers holds compactMembers to its reference on the
// compaction of s, when s is a JSON object.
func checkCompactMembers(t *testing.T, s []byte) {
	t.Helper()
	c, ok := pdl.CompactShared(s)
	if !ok || len(c) == 0 || c[0] != '{' {
		return
	}
	prefix := jsonx.Object{{Key: "x", Value: []byte("1")}}
	got, gotOK := compactMembers(slices.Clone(prefix), c)
	want, wantOK := compactMembersRef(slices.Clone(prefix), c)
	if gotOK != wantOK || !slices.EqualFunc(got, want, func(a, b jsonx.Member) bool {
		return a.Key == b.Key && bytes.Equal(a.Value, b.Value)
	}) {
		t.Fatalf("compactMembers(%q) = %q, %v; want %q, %v", c, got, gotOK, want, wantOK)
	}
}

// TestCompactMembersKeys compares compactMembers with its reference on
// objects whose keys are plain, escaped, non-ASCII and not UTF-8.
func TestCompactMembersKeys(t *testing.T) {
	t.Parallel()
	keys := []string{`"runId"`, `"lastObserved"`, `"a\"b"`, `"\\"`, `"a\\"`, `"\u0061"`, `"é"`, "\"\xff\"", `""`, `"properties"`, `"x\/y"`}
	values := []string{`1`, `"v"`, `"a\"b\\"`, `{"k":"v","l":[1,{}]}`, `[]`, `null`, `true`, `-1.5e3`, `"é"`}
	r := rand.New(rand.NewPCG(17, 19))
	for range 20000 {
		var b bytes.Buffer
		b.WriteByte('{')
		for j := range r.IntN(5) {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(keys[r.IntN(len(keys))] + ": " + values[r.IntN(len(values))])
		}
		b.WriteByte('}')
		checkCompactMembers(t, b.Bytes())
	}
}

func FuzzCompactMembers(f *testing.F) {
	for _, s := range []string{`{"lastObserved":1618987484580,"runId":"no-run-id-provided","properties":{"clientId":"acryl-datahub"}}`,
		`{"a\"":1}`, `{"é":"x","\\":[]}`, "{\"\xff\":1}", `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, s []byte) { checkCompactMembers(t, s) })
}

// checkShortLong holds shortLong to strconv.ParseInt: the same number
// whenever it reads b, and it reads every b of at most 18 digits.
func checkShortLong(t *testing.T, b []byte) {
	t.Helper()
	got, ok := shortLong(b)
	want, err := strconv.ParseInt(string(b), 10, 64)
	if ok && (err != nil || got != want) {
		t.Fatalf("shortLong(%q) = %d; ParseInt %d, %v", b, got, want, err)
	}
	digits := bytes.TrimPrefix(b, []byte("-"))
	if !ok && len(digits) > 0 && len(digits) <= 18 && bytes.Trim(digits, "0123456789") == nil {
		t.Fatalf("shortLong(%q) refuses it", b)
	}
}

func TestShortLong(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"0", "-0", "1618987484580", "007", "-5", "999999999999999999", "-999999999999999999",
		"9223372036854775807", "-9223372036854775808", "9223372036854775808", "1e3", "1.0", "+1", "", "-", "--1", " 1", "١", "1_000"} {
		checkShortLong(t, []byte(s))
	}
	r := rand.New(rand.NewPCG(23, 29))
	for range 100000 {
		b := []byte(strconv.FormatInt(int64(r.Uint64())>>r.IntN(64), 10))
		checkShortLong(t, b)
		checkShortLong(t, b[:r.IntN(len(b)+1)])
	}
}

func FuzzShortLong(f *testing.F) {
	for _, s := range []string{"1618987484580", "-12", "1e3", "0012", "99999999999999999999"} {
		f.Add([]byte(s))
	}
	f.Fuzz(checkShortLong)
}
