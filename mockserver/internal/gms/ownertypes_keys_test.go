package gms

import (
	"strings"
	"testing"
)

// fastKeyCases are object texts whose key is at 0: the keys fastTopKey and
// fastOwnerKey match as literals, near misses of them, and each cut short.
var fastKeyCases = func() []string {
	var out []string
	for _, k := range []string{
		`"owners":`, `"ownerTypes":`, `"lastModified":`, `"owner":`, `"type":`, `"typeUrn":`,
		`"owners"`, `"ownersX":`, `"owner":`, `"Owners":`, `"ownerTypes" :`, `"lastModifie":`,
		`"typeUrn";`, `"type" :`, `"typ":`, `"a\"b":`, `"<":`, `"x":`, `"":`,
	} {
		for _, tail := range []string{`[]}`, `"urn:li:corpuser:a"}`, `{"time":1700000000000}}`, ``} {
			s := k + tail
			for n := range len(s) + 1 {
				out = append(out, s[:n])
			}
		}
	}
	return out
}()

// checkFastKeys holds fastTopKey and fastOwnerKey to fastKey, the general
// reading, for the key of obj at i.
func checkFastKeys(t *testing.T, obj []byte, i int) {
	t.Helper()
	wantKey, wantNext, wantOK := fastKey(obj, i)
	for name, read := range map[string]func([]byte, int) ([]byte, int, bool){
		"fastTopKey": fastTopKey, "fastOwnerKey": fastOwnerKey,
	} {
		key, next, ok := read(obj, i)
		if ok != wantOK || ok && (string(key) != string(wantKey) || next != wantNext) {
			t.Errorf("%s(%q, %d) = %q, %d, %v; fastKey gives %q, %d, %v",
				name, obj, i, key, next, ok, wantKey, wantNext, wantOK)
		}
	}
}

// TestFastKeyLiterals runs checkFastKeys on fastKeyCases, at 0 and after
// a prefix, and checks that the literals are what the hook's values
// carry.
func TestFastKeyLiterals(t *testing.T) {
	for _, s := range fastKeyCases {
		checkFastKeys(t, []byte(s), 0)
		checkFastKeys(t, []byte(`{"a":1,`+s), 7)
		checkFastKeys(t, []byte(s), len(s))
	}
	for _, k := range []string{"owners", "ownerTypes", "lastModified", "owner", "type", "typeUrn"} {
		if !strings.Contains(ownerTypesFastCases[0]+ownerTypesFastCases[5], `"`+k+`":`) {
			t.Errorf("no seed value carries the key %s", k)
		}
	}
}

// FuzzFastKeyLiterals holds fastTopKey and fastOwnerKey to fastKey for
// any text and place.
func FuzzFastKeyLiterals(f *testing.F) {
	for _, s := range fastKeyCases {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, obj []byte, at uint8) {
		checkFastKeys(t, obj, min(int(at), len(obj)))
	})
}

// checkAppendTypeKey holds appendTypeKey to appendTypeKeyEach, which
// checks the room of its buffer a byte at a time: the same key and the
// same refusal, for a buffer holding pre with room cap in all.
func checkAppendTypeKey(t *testing.T, pre, s []byte, room int, lower bool) {
	t.Helper()
	room = max(room, len(pre))
	buf := func() []byte { return append(make([]byte, 0, room), pre...) }
	want, wantOK := appendTypeKeyEach(buf(), s, lower)
	got, ok := appendTypeKey(buf(), s, lower)
	if ok != wantOK || ok && string(got) != string(want) {
		t.Errorf("appendTypeKey(%q (room %d), %q, %v) = %q, %v; appendTypeKeyEach gives %q, %v",
			pre, room, s, lower, got, ok, want, wantOK)
	}
}

// TestAppendTypeKey runs checkAppendTypeKey on types with dots and
// letters of both cases, for every room from none to more than enough.
func TestAppendTypeKey(t *testing.T) {
	for _, s := range []string{"", "DATAOWNER", "Technical_Owner", "a.B.c", "...", "urn:li:ownershipType:x.Y", "\xc0Z@[`{"} {
		for _, pre := range []string{"", ownerSystemType} {
			for room := len(pre); room <= len(pre)+3*len(s)+2; room++ {
				for _, lower := range []bool{false, true} {
					checkAppendTypeKey(t, []byte(pre), []byte(s), room, lower)
				}
			}
		}
	}
}

// FuzzAppendTypeKey is TestAppendTypeKey for any text and room.
func FuzzAppendTypeKey(f *testing.F) {
	f.Add([]byte(ownerSystemType), []byte("DATA.OWNER"), uint16(80), true)
	f.Fuzz(func(t *testing.T, pre, s []byte, room uint16, lower bool) {
		checkAppendTypeKey(t, pre, s, int(room), lower)
	})
}
