package gms

import (
	"strings"
	"testing"
)

// fastKeyCases are object texts whose key is at 0: the keys fastTopKey and
// fastOwnerKey match as literals, near misses of them, and each cut short.
var fastKeyCases = cutShort([]string{
	`"owners":`, `"ownerTypes":`, `"lastModified":`, `"owner":`, `"type":`, `"typeUrn":`,
	`"owners"`, `"ownersX":`, `"owner":`, `"Owners":`, `"ownerTypes" :`, `"lastModifie":`,
	`"typeUrn";`, `"type" :`, `"typ":`, `"a\"b":`, `"<":`, `"x":`, `"":`,
}, []string{`[]}`, `"urn:li:corpuser:a"}`, `{"time":1700000000000}}`, ``})

// cutShort returns each head followed by each tail, and every such text
// cut short at each length.
func cutShort(heads, tails []string) []string {
	var out []string
	for _, h := range heads {
		for _, tail := range tails {
			s := h + tail
			for n := range len(s) + 1 {
				out = append(out, s[:n])
			}
		}
	}
	return out
}

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

// auditStampCases are lastModified texts of the shape auditStampEnd
// matches, and of shapes just past it, each followed by the byte after a
// member (or nothing), and each cut short.
var auditStampCases = cutShort([]string{
	`{"time":1700000000000,"actor":"urn:li:corpuser:a"}`,
	`{"time":0,"actor":""}`,
	`{"time":1,"actor":"a\"}b"}`,
	`{"time":1,"actor":"a\\"}`,
	`{"time":1,"actor":"a` + "\x01" + `"}`,
	`{"time":-1,"actor":"a"}`,
	`{"time":1.5,"actor":"a"}`,
	`{"time":1e3,"actor":"a"}`,
	`{"time":,"actor":"a"}`,
	`{"time":1,"actor":"a","impersonator":"b"}`,
	`{"time":1,"actor":"a"}}`,
	`{"actor":"a","time":1}`,
	`{"time":1,"actor":null}`,
	`{"time":1,"actor":"a"` + "\t" + `}`,
	`null`,
	`{}`,
}, []string{`,`, `}`, `]`, ``, `x`, ` `})

// checkAuditStampEnd holds auditStampEnd to compactValueEnd, the general
// reading, for the value of b at i.
func checkAuditStampEnd(t *testing.T, b []byte, i int) {
	t.Helper()
	if got, want := auditStampEnd(b, i), compactValueEnd(b, i); got != want {
		t.Errorf("auditStampEnd(%q, %d) = %d; compactValueEnd gives %d", b, i, got, want)
	}
}

// TestAuditStampEnd runs checkAuditStampEnd on auditStampCases, at 0 and
// after a prefix, and checks the end it finds in the seed value's shape.
func TestAuditStampEnd(t *testing.T) {
	for _, s := range auditStampCases {
		checkAuditStampEnd(t, []byte(s), 0)
		checkAuditStampEnd(t, []byte(`"lastModified":`+s), len(`"lastModified":`))
		checkAuditStampEnd(t, []byte(s), len(s))
	}
	v := `{"time":1700000000000,"actor":"urn:li:corpuser:a"}`
	if !strings.Contains(ownerTypesFastCases[0], `"lastModified":{"time":0,"actor":"urn:li:corpuser:fbar1"}}`) {
		t.Errorf("the seed value has no lastModified of the common shape")
	}
	if got := auditStampEnd([]byte(v+`}`), 0); got != len(v) {
		t.Errorf("auditStampEnd(%s}) = %d, want %d", v, got, len(v))
	}
}

// FuzzAuditStampEnd holds auditStampEnd to compactValueEnd for any text
// and place.
func FuzzAuditStampEnd(f *testing.F) {
	for _, s := range auditStampCases {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, at uint8) {
		checkAuditStampEnd(t, b, min(int(at), len(b)))
	})
}
