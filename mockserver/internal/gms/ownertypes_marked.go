package gms

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// ownerMarkPaths are the places of an ownership value that its schema
// check notes for the ownerTypes hook (pdl.Held.Marking), so that the hook
// reads them and not the whole value again: each owner's owner, type and
// typeUrn, each owner (after its fields), and the ownerTypes. The mark IDs
// are their indexes plus one.
var ownerMarkPaths = []string{"owners/*/owner", "owners/*/type", "owners/*/typeUrn", "owners/*", "ownerTypes"}

// The IDs of ownerMarkPaths' marks.
const (
	markOwner uint8 = 1 + iota
	markType
	markTypeURN
	markOwnerEnd
	markOwnerTypes
)

// ownershipMarked returns the ownership record held as held with the marks
// of ownerMarkPaths, one copy for each held (entity types share theirs);
// held itself when it cannot be marked.
func ownershipMarked(held pdl.Held) pdl.Held {
	ownershipMarkedMu.Lock()
	defer ownershipMarkedMu.Unlock()
	if m, ok := ownershipMarkedOf[held]; ok {
		return m
	}
	m, ok := held.Marking(ownerMarkPaths...)
	if !ok {
		m = held
	}
	ownershipMarkedOf[held] = m
	return m
}

// ownershipMarkedOf holds ownershipMarked's copies.
var (
	ownershipMarkedMu sync.Mutex
	ownershipMarkedOf = map[pdl.Held]pdl.Held{}
)

// ownerTypesMarked is ownerTypesFast for a value whose schema check noted
// the places ownerMarkPaths name (marks, in the order of the walk, all of
// them): it reads those places only. value is the text the check walked,
// of hash h (not 0), so that every owner has an owner and a type (the
// schema requires them, null is refused) and the marks' hashes are exact.
// fast is false when an owner's owner, type or typeUrn is not plain text
// (a type written with an escape) or there are more than fastOwners
// owners: then the caller reads the value as ownerTypesFast does.
func ownerTypesMarked(value []byte, h uint64, marks []pdl.Mark, values *valueArena) (out json.RawMessage, oh uint64, changed, fast bool) {
	var (
		keyBuf              [fastKeyBytes]byte
		keys                = keyBuf[:0]
		groups              [fastOwners]fastGroup
		owners              [fastOwners][]byte // the owners read, in order
		hashes              [fastOwners]uint64 // their pdl.HashString
		ngroups, nowners    int
		owner, typ, typeURN []byte
		ownerHash           uint64
		typesAt, typesEnd   = -1, -1
		typesHash           uint64
	)
	for i := range marks {
		m := &marks[i]
		switch m.ID {
		case markOwner:
			owner, ownerHash = value[m.Start+1:m.End-1:m.End-1], m.Hash
		case markType:
			typ = value[m.Start+1 : m.End-1 : m.End-1]
		case markTypeURN:
			typeURN = value[m.Start+1 : m.End-1 : m.End-1]
		case markOwnerEnd:
			// A type the check accepted is a symbol of OwnershipType, all
			// plain text (TestOwnershipTypeSymbolsPlain), unless written
			// with an escape.
			if nowners == fastOwners || owner == nil || typ == nil || !plainTextWords(owner) ||
				bytes.IndexByte(typ, '\\') >= 0 || typeURN != nil && !plainTextWords(typeURN) {
				return nil, 0, false, false
			}
			owners[nowners], hashes[nowners] = owner, ownerHash
			nowners++
			start := len(keys)
			var ok bool
			if keys, ok = appendOwnerKey(keys, typ, typeURN); !ok {
				return nil, 0, false, false
			}
			var g int
			var key []byte
			if g, key, keys = keyGroup(groups[:ngroups], keys, start); g < 0 {
				g = ngroups
				groups[g].key, groups[g].list, groups[g].hashes = key, &owners, &hashes
				ngroups++
			}
			groups[g].add(owner, nowners-1)
			owner, typ, typeURN = nil, nil, nil
		case markOwnerTypes:
			typesAt, typesEnd, typesHash = m.Start, m.End, m.Hash
		}
	}
	if nowners == 0 {
		return value, 0, false, true
	}
	// The check's hash being exact, no two keys of the record, ownerTypes
	// among them, hash alike: no keys to look at for fastTypesHash.
	return fastAnswer(value, h, groups[:ngroups], typesAt, typesEnd, typesHash, nil, true, values)
}

// plainTextWords is plainText reading b eight bytes at a time (the last
// word overlapping the one before it), for strings of eight bytes or more.
func plainTextWords(b []byte) bool {
	n := len(b)
	if n < 8 {
		return plainEnd(b, 0) < 0
	}
	for i := 0; i+8 < n; i += 8 {
		if notPlainText(binary.LittleEndian.Uint64(b[i:])) != 0 {
			return false
		}
	}
	return notPlainText(binary.LittleEndian.Uint64(b[n-8:])) == 0
}

// notPlainText marks, in its high bit, each byte of w that is not plain
// text (plainText), and maybe bytes above the first: 0 when all eight are.
// The tests: below the space; 0x7f and above; '"' or '&' (0x22, 0x26: one
// bit apart); '<' or '>' (0x3c, 0x3e); the backslash.
func notPlainText(w uint64) uint64 {
	const lows, highs = 0x0101010101010101, 0x8080808080808080
	less := (w - 0x20*lows) &^ w
	more := (w + lows) | w
	return (less | more | zeroByte((w^0x22*lows)&^(0x04*lows)) |
		zeroByte((w^0x3c*lows)&^(0x02*lows)) | zeroByte(w^0x5c*lows)) & highs
}

// zeroByte marks (in its high bit) each zero byte of v, and maybe bytes
// above the first.
func zeroByte(v uint64) uint64 { return (v - 0x0101010101010101) &^ v }
