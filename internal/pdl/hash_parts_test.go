package pdl

import (
	"math/rand/v2"
	"testing"
)

// TestUnmix: unmix undoes mix.
func TestUnmix(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, x := range []uint64{0, 1, ^uint64(0), 1 << 63} {
		if got := unmix(mix(x)); got != x {
			t.Fatalf("unmix(mix(%#x)) = %#x", x, got)
		}
	}
	for range 10000 {
		x := r.Uint64()
		if got := unmix(mix(x)); got != x {
			t.Fatalf("unmix(mix(%#x)) = %#x", x, got)
		}
	}
}

// TestHashParts builds the hashes of texts from the parts and compares
// them with Hash's.
func TestHashParts(t *testing.T) {
	str := func(s string) uint64 { return HashString([]byte(s)) }
	arr := func(vs ...uint64) uint64 {
		sum := HashEmptyArray()
		for _, v := range vs {
			sum = HashElement(sum, v)
		}
		return sum
	}
	for _, c := range []struct {
		text string
		want uint64
	}{
		{`"abc"`, str("abc")},
		{`[]`, arr()},
		{`["a","b"]`, arr(str("a"), str("b"))},
		{`{}`, HashObject(0)},
		{`{"k":["a"],"j":"x"}`, HashObject(HashMember(str("k"), arr(str("a"))) + HashMember(str("j"), str("x")))},
	} {
		if got := Hash([]byte(c.text)); got != c.want {
			t.Errorf("Hash(%s) = %#x, the parts give %#x", c.text, got, c.want)
		}
	}
	// One member swapped for another, by the sum.
	before := []byte(`{"owners":[1],"ownerTypes":{},"z":null}`)
	after := []byte(`{"owners":[1],"ownerTypes":{"k":["a"]},"z":null}`)
	sum := HashObjectSum(Hash(before)) - HashMember(str("ownerTypes"), Hash([]byte(`{}`))) +
		HashMember(str("ownerTypes"), HashObject(HashMember(str("k"), arr(str("a")))))
	if got, want := HashObject(sum), Hash(after); got != want {
		t.Errorf("swapped member: %#x, Hash gives %#x", got, want)
	}
}
