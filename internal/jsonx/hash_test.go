package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonrand"
)

// equalPairs are texts Equal takes for the same data, written differently.
var equalPairs = [][2]string{
	{`{"a":1,"b":[true,null]}`, ` { "b" : [ true , null ] , "a" : 1 } `},
	{`{"a":{"c":"x","d":[]},"b":{}}`, "{\"b\":{},\n\t\"a\":{\"d\":[],\"c\":\"x\"}}"},
	{`"a/b"`, `"a\/b"`},
	{`{"k":"é"}`, `{"\u006b":"\u00e9"}`},
	{`{"k":"😀"}`, `{"k":"\ud83d\ude00"}`},
	{"\"\xff\"", "\"\xfe\""}, // invalid UTF-8 decodes to U+FFFD either way
	{"\"\xff\"", `"\ufffd"`},
	{`[1,"2",[3]]`, "[1, \"2\", [3]]"},
	{`{}`, `{ }`},
	{`[]`, ` [ ] `},
}

// unequalPairs differ as data.
var unequalPairs = [][2]string{
	{`{"a":1}`, `{"a":2}`},
	{`{"a":1}`, `{"b":1}`},
	{`{"a":1}`, `{"a":1.0}`}, // numbers compare as written
	{`[1,2]`, `[2,1]`},
	{`{"a":[1],"b":[2]}`, `{"a":[2],"b":[1]}`},
	{`{"a":"b"}`, `{"b":"a"}`},
	{`{"a":{}}`, `{"a":[]}`},
	{`"1"`, `1`},
	{`null`, `"null"`},
	{`true`, `false`},
	{`{"a":1,"b":2}`, `{"a":1}`},
	{`[[]]`, `[]`},
	{`{"ab":"c"}`, `{"a":"bc"}`},
}

func TestHash(t *testing.T) {
	t.Parallel()
	for _, p := range equalPairs {
		a, b := []byte(p[0]), []byte(p[1])
		if !Equal(a, b) {
			t.Fatalf("Equal(%s, %s) = false: not a test of Hash", a, b)
		}
		ha, hb := Hash(a), Hash(b)
		if ha == 0 || ha != hb {
			t.Errorf("Hash(%s) = %#x, Hash(%s) = %#x; want equal, non-zero", a, ha, b, hb)
		}
	}
	for _, p := range unequalPairs {
		a, b := []byte(p[0]), []byte(p[1])
		if Equal(a, b) {
			t.Fatalf("Equal(%s, %s) = true: not a test of Hash", a, b)
		}
		if ha, hb := Hash(a), Hash(b); ha == 0 || hb == 0 || ha == hb {
			t.Errorf("Hash(%s) = %#x, Hash(%s) = %#x; want different, non-zero", a, ha, b, hb)
		}
	}
	deep := strings.Repeat("[", maxHashDepth+1) + strings.Repeat("]", maxHashDepth+1)
	for _, in := range []string{``, ` `, `{`, `{"a":1`, `{"a" 1}`, `{"a":1,}`, `[1,]`, `{"a":1} x`, `1 2`, `nul`,
		`{"a":1,"a":1}`, `{"a":1,"\u0061":2}`, deep} {
		if h := Hash([]byte(in)); h != 0 {
			t.Errorf("Hash(%q) = %#x, want 0", in, h)
		}
	}
	if Hash([]byte(strings.Repeat("[", maxHashDepth)+strings.Repeat("]", maxHashDepth))) == 0 {
		t.Error("Hash of the deepest nesting it follows = 0")
	}
}

// TestHashGenerated checks the property on generated documents: each one
// and a rewriting of it (members shuffled, strings escaped differently,
// white space added) that Equal takes for the same data hash alike, and no
// two of the distinct documents share a hash.
func TestHashGenerated(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	seen := map[uint64]string{}
	for range 2000 {
		v := genValue(r, 0)
		a, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		b := []byte(jsonrand.Rewrite(r, v))
		if !Equal(a, b) {
			t.Fatalf("Equal(%s, %s) = false: the rewriting changed the data", a, b)
		}
		ha, hb := Hash(a), Hash(b)
		if ha == 0 || ha != hb {
			t.Fatalf("Hash(%s) = %#x, Hash(%s) = %#x; want equal, non-zero", a, ha, b, hb)
		}
		canon := string(Canonical(a))
		if other, ok := seen[ha]; ok && other != canon {
			t.Fatalf("Hash(%s) = Hash(%s) = %#x", other, canon, ha)
		}
		seen[ha] = canon
	}
}

// genValue returns a random JSON value as encoding/json decodes one.
func genValue(r *rand.Rand, depth int) any {
	n := r.IntN(8)
	if depth > 4 {
		n = r.IntN(4)
	}
	switch n {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return json.Number(fmt.Sprint(r.IntN(1000) - 500))
	case 3, 4:
		return genString(r)
	case 5:
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = genValue(r, depth+1)
		}
		return a
	default:
		m := map[string]any{}
		for range r.IntN(6) {
			m[genString(r)] = genValue(r, depth+1)
		}
		return m
	}
}

func genString(r *rand.Rand) string {
	const alphabet = "ab/\"\\\n é😀<"
	runes := []rune(alphabet)
	var sb strings.Builder
	for range r.IntN(6) {
		sb.WriteRune(runes[r.IntN(len(runes))])
	}
	return sb.String()
}

// FuzzHash checks that Equal implies equal hashes: for any two texts, and
// for a text and the rewritings of it that Equal takes for the same data
// (Canonical, Compact, indented).
func FuzzHash(f *testing.F) {
	for _, p := range append(equalPairs, unequalPairs...) {
		f.Add([]byte(p[0]), []byte(p[1]))
	}
	f.Add([]byte(`{"a":1,"a":2}`), []byte(`{"a":2}`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		check := func(x, y []byte) {
			if !Equal(x, y) {
				return
			}
			if hx, hy := Hash(x), Hash(y); hx != 0 && hy != 0 && hx != hy {
				t.Fatalf("Equal(%q, %q), but Hash = %#x, %#x", x, y, hx, hy)
			}
		}
		check(a, b)
		check(a, Canonical(a))
		check(a, Compact(a))
		var buf bytes.Buffer
		if json.Indent(&buf, a, "", " ") == nil {
			check(a, buf.Bytes())
		}
	})
}

// BenchmarkHash hashes an ownership aspect as the Python emitter sends it
// and the 100-field schemaMetadata of BenchmarkCompact.
func BenchmarkHash(b *testing.B) {
	_, schema := schema100()
	for _, in := range []struct {
		name string
		doc  []byte
	}{
		{"ownership", []byte(`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:fbar"}}`)},
		{"schema100", schema},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.doc)))
			b.ReportAllocs()
			for b.Loop() {
				if Hash(in.doc) == 0 {
					b.Fatal("no hash")
				}
			}
		})
	}
}
