package pdl

// The parts Hash builds a hash of from, for a caller that changes one
// member of a value it knows the hash of and wants the hash of the result
// without reading the whole of it again: an object's hash is
// HashObject of the sum of its members' HashMember, an array's is
// HashEmptyArray folded with HashElement over its elements, a string's
// is HashString of its decoding. They are Hash's own functions, so they
// never change either.

// HashString returns the hash Hash gives a string, or an object's key,
// that decodes to s.
func HashString(s []byte) uint64 { return hashBytes(tagString, s) }

// HashMember returns the hash of an object's member whose key hashes to kh
// (HashString) and whose value to v.
func HashMember(kh, v uint64) uint64 { return memberHash(kh, v) }

// HashObject returns the hash of an object whose members' hashes
// (HashMember) sum to sum. Hash gives up (0) on an object with two keys of
// one HashString, which the sum cannot tell; the caller checks that.
func HashObject(sum uint64) uint64 { return mix(hashObject ^ sum) }

// HashObjectSum returns the sum of the members' hashes of an object of
// hash h: HashObject(HashObjectSum(h)) == h.
func HashObjectSum(h uint64) uint64 { return unmix(h) ^ hashObject }

// HashEmptyArray returns the hash of an empty array, which HashElement
// folds an array's elements into, in order.
func HashEmptyArray() uint64 { return hashArray }

// HashElement returns the hash of an array whose elements before the last
// hash to sum (HashEmptyArray when none) and whose last element hashes to v.
func HashElement(sum, v uint64) uint64 { return elementHash(sum, v) }

// unmix is the inverse of mix.
func unmix(x uint64) uint64 {
	x ^= x>>31 ^ x>>62
	x *= mixInv2
	x ^= x>>27 ^ x>>54
	x *= mixInv1
	x ^= x>>30 ^ x>>60
	return x
}

// The inverses, modulo 2^64, of mix's multipliers.
var (
	mixInv1 = oddInverse(mixMul1)
	mixInv2 = oddInverse(mixMul2)
)

// oddInverse returns the inverse of the odd c modulo 2^64 (Newton's
// iteration doubles the bits that are right each step: 3, 6, ..., 96).
func oddInverse(c uint64) uint64 {
	x := c // right to 3 bits for any odd c
	for range 5 {
		x *= 2 - c*x
	}
	return x
}
