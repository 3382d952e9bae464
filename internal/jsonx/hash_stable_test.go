package jsonx

import (
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonrand"
)

// TestHashStable pins Hash's output: hashes are stored beside the values
// they hash, so a change to the function, however fast, must not change
// what it returns. The documents cover every kind of value, strings of
// every length up to 40 (plain, escaped, not UTF-8), and generated ones.
func TestHashStable(t *testing.T) {
	t.Parallel()
	_, schema := schema100()
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{`{"owners":[{"owner":"urn:li:corpuser:fbar","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:fbar"}}`, 0xa4c7f37a2ecc83cc},
		{string(schema), 0xde9eea6c7e00119f},
		{`{}`, 0x2df07fa2c6ffa2c7},
		{`[]`, 0xf88bb8a8724c81ec},
		{`"a\u00e9\ud83d\ude00\n"`, 0x2d7b9a5a4eb134dc},
		{`-12.5e+3`, 0xd5f1e53ac8aa5ee6},
	} {
		if got := Hash([]byte(tc.in)); got != tc.want {
			t.Errorf("Hash(%.40s) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
	var docs []string
	for _, p := range append(equalPairs, unequalPairs...) {
		docs = append(docs, p[0], p[1])
	}
	for n := range 41 {
		s := strings.Repeat("abcdefghij", 5)[:n]
		docs = append(docs, `"`+s+`"`, `{"`+s+`":"`+s+`"}`, `"\t`+s+`\"`+s+`"`, "\"\xff"+s+"\"", `"é`+s+`"`, `["`+s+`",`+strings.Repeat("7", n+1)+`]`)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 2000 {
		v := genValue(r, 0)
		a, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(a), jsonrand.Rewrite(r, v))
	}
	sum := fnv.New64a()
	for _, d := range docs {
		_, _ = sum.Write(binary.LittleEndian.AppendUint64(nil, Hash([]byte(d))))
	}
	if got, want := sum.Sum64(), uint64(0xf6b2161a7d085fdf); got != want {
		t.Errorf("the hashes of %d documents fold to %#x, want %#x", len(docs), got, want)
	}
}
