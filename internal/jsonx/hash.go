package jsonx

import "github.com/catalogkit/datahub-go/internal/pdl"

// Hash returns a hash of JSON text that Equal respects: Equal(a, b) implies
// Hash(a) == Hash(b), so two texts whose hashes are both non-zero and
// differ are not equal, without comparing them. Members are hashed whatever
// their order, strings as they decode, numbers and literals as written,
// and white space is ignored. It returns 0 (which implies nothing) for text
// it does not hash: not valid JSON, an object with a repeated key, or
// nesting deeper than it follows.
//
// Hashes are stored beside the values they hash, so the function must never
// change: a different one needs a new stored format. It is [pdl.Hash],
// which pdl's schema check also computes on its way through a value (see
// [pdl.ConformsCompactHash]).
func Hash(b []byte) uint64 { return pdl.Hash(b) }

// maxHashDepth bounds the nesting Hash follows.
const maxHashDepth = pdl.MaxHashDepth
