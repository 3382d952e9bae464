package jsonesc

import (
	"strings"
	"testing"
)

// plainSlow is Plain one byte at a time.
func plainSlow(s string, i int) int {
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

func TestPlain(t *testing.T) {
	t.Parallel()
	base := strings.Repeat("abcdefgh", 4)
	// Every byte value at every position of a word, after plain bytes
	// and before plain or special ones.
	for b := range 256 {
		for pos := range 20 {
			for _, tail := range []string{"", "xyz", "\"\\", "\x00\x80"} {
				s := base[:pos] + string([]byte{byte(b)}) + tail + base[:7]
				for from := range min(pos+1, 3) {
					if got, want := Plain(s, from), plainSlow(s, from); got != want {
						t.Fatalf("Plain(%q, %d) = %d, want %d", s, from, got, want)
					}
					if got, want := Plain([]byte(s), from), plainSlow(s, from); got != want {
						t.Fatalf("Plain([]byte(%q), %d) = %d, want %d", s, from, got, want)
					}
				}
			}
		}
	}
}

func FuzzPlain(f *testing.F) {
	for _, s := range []string{"", "plain ascii text", "a\"b", "tab\there", "\xff\xfe", "é", "12345678\\"} {
		f.Add(s, 0)
	}
	f.Fuzz(func(t *testing.T, s string, from int) {
		if from < 0 || from > len(s) {
			return
		}
		if got, want := Plain(s, from), plainSlow(s, from); got != want {
			t.Fatalf("Plain(%q, %d) = %d, want %d", s, from, got, want)
		}
	})
}

func BenchmarkPlain(b *testing.B) {
	s := strings.Repeat("urn:li:dataset:(urn:li:dataPlatform:hive,db.table_00001,PROD)", 2)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if Plain(s, 0) != len(s) {
			b.Fatal("not plain")
		}
	}
}

func BenchmarkPlainSlow(b *testing.B) {
	s := strings.Repeat("urn:li:dataset:(urn:li:dataPlatform:hive,db.table_00001,PROD)", 2)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if plainSlow(s, 0) != len(s) {
			b.Fatal("not plain")
		}
	}
}
