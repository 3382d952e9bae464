package gms

import (
	"bytes"
	"slices"
	"testing"

	"github.com/catalogkit/datahub-go/internal/jsonx"
)

// ownerTypesFastCases are ownership values of the shapes the fast path
// reads, and of shapes just past them, for FuzzOwnerTypesFast's seeds.
var ownerTypesFastCases = []string{
	`{"owners":[{"owner":"urn:li:corpuser:fbar1","type":"DATAOWNER"}],"ownerTypes":{},"lastModified":{"time":0,"actor":"urn:li:corpuser:fbar1"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":null}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":null}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":[null]}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:b","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:a","urn:li:corpuser:a"]}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","typeUrn":"urn:li:ownershipType:b.c","type":"X.Y"},{"owner":"urn:li:corpuser:a","type":"x.y"},{},{"type":null}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER","owner":"urn:li:corpuser:b"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:b","type":"TECHNICAL_OWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__dataowner":["urn:li:corpuser:a"]}}`,
	`{"owners":[null]}`,
	`{"owners":[1]}`,
	`{"owners":"x"}`,
	`{"owners":[{"owner":1}]}`,
	`{"owners":[{"owner":"a\u0062"}]}`,
	`{"owners":[{"owner":"<a>"}]}`,
	// A byte that is not plain text at several places of an owner's text.
	`{"owners":[{"owner":"urn:li:corpuser:abcdefgh>","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:abcdef=?;","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:abc&","type":"DATA<OWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:abcdefg` + "\x7f" + `","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:abcdefg` + "\x7e\x80" + `","type":"DATAOWNER"}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:b","type":"DATAOWNER"},{"owner":"urn:li:corpuser:a","type":"DATAOWNER"},{"owner":"urn:li:corpuser:c","type":"TECHNICAL_OWNER"}],"lastModified":{"time":1700000000000,"actor":"urn:li:corpuser:a"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"z":[true,false,null,-12.5e-3,{"t":1700000000000}]}`,
	`{"owners":[{"owner":"é"}]}`,
	`{"owners":[{"owner":"a\tb"}]}`,
	`{"owners":[{"owner":"a"}],"x":"` + "\xff\xfe" + `"}`,
	`{"owners":[{"owner":"a"}],"x":"\ud800"}`,
	`{"owners":[{"owner":"a"}],"x":"a` + "\x01" + `b"}`,
	`{"owners":[{"owner":"a"}],"owners":[]}`,
	`{"own\u0065rs":[{"owner":"a"}]}`,
	`{"owners": [{"owner":"a"}]}`,
	`{"owners":[{"owner":"a"}],"ownerTypes":{"k":["x"]},"z":[1,{"a":[]}]}`,
	`{"owners":[{"owner":"a","type":"A"},{"owner":"b","type":"B"},{"owner":"c","type":"C"},{"owner":"d","type":"D"},` +
		`{"owner":"e","type":"E"},{"owner":"f","type":"F"},{"owner":"g","type":"G"},{"owner":"h","type":"H"},{"owner":"i","type":"I"}]}`,
	`[1]`,
	`{}`,
	// The one-pass reading: members it skips, by their strings and brackets.
	`{"a":"x\"}\\","owners":[{"x":{"y":["]",{"}":1}]},"owner":"urn:li:corpuser:a","type":"DATAOWNER","z":[true,null,-1.5e3]}],"b":[{}]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"z":[1, 2]}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"z":"é\u00e9"}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","typeUrn":"urn:li:ownershipType:x.y"},{"owner":"urn:li:corpuser:b","type":"BUSINESS_OWNER"},{"owner":"urn:li:corpuser:c"}],"lastModified":{"time":1,"actor":"urn:li:corpuser:a"}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"ownerTypes":{"urn:li:ownershipType:__system__technical_owner":["urn:li:corpuser:a"]}}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}],"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16}`,
	`{"owners":[{"owner":"urn:li:corpuser:a","type":"DATAOWNER"}`,
	`{"owners":[{}`,
	`{"owners":[{"owner":null,"type":null,"typeUrn":null}]}`,
}

// FuzzOwnerTypesFast holds the fast path and the kept answers to
// ownerTypesOf, the general reading: the same bytes, changed flag and
// hash, for any input, on its first sight (not kept), its second (kept)
// and its third (a kept answer), with and without an arena.
func FuzzOwnerTypesFast(f *testing.F) {
	for _, in := range ownerTypesCases {
		f.Add([]byte(in))
	}
	for _, in := range ownerTypesFastCases {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkOwnerTypesFast(t, in)
	})
}

// TestOwnerTypesFastCases runs FuzzOwnerTypesFast's check on its seeds.
func TestOwnerTypesFastCases(t *testing.T) {
	for _, in := range slices.Concat(ownerTypesCases, ownerTypesFastCases) {
		checkOwnerTypesFast(t, []byte(in))
	}
}

func checkOwnerTypesFast(t *testing.T, in []byte) {
	t.Helper()
	want, wantChanged := ownerTypesOf(slices.Clone(in))
	var wantHash uint64
	if wantChanged {
		wantHash = jsonx.Hash(want)
	}
	// Text that is no valid JSON is never given to it; it stops there all
	// the same (nothing read past the end).
	ownerTypesFast(slices.Clone(in), 1, nil)
	if h := jsonx.Hash(in); h != 0 {
		got, oh, changed, fast := ownerTypesFast(slices.Clone(in), h, nil)
		if fast && (changed != wantChanged || string(got) != string(want)) {
			t.Errorf("ownerTypesFast(%s)\n= %s, %v\nwant %s, %v", in, got, changed, want, wantChanged)
		}
		// The hash worked out from h is the changed value's (0: not worked out).
		if oh != 0 && (!fast || !changed || oh != wantHash) {
			t.Errorf("ownerTypesFast(%s): hash %x (fast %v, changed %v), want %x", in, oh, fast, changed, wantHash)
		}
	}
	for i := range 3 {
		var arena *valueArena
		if i%2 == 1 {
			arena = &valueArena{size: 2 * len(in)}
		}
		got, h, changed := ownerTypesHashed(slices.Clone(in), 0, arena)
		if changed != wantChanged || string(got) != string(want) || h != wantHash {
			t.Errorf("call %d: ownerTypesHashed(%s)\n= %s, %x, %v\nwant %s, %x, %v", i, in, got, h, changed, want, wantHash, wantChanged)
		}
	}
}

// TestOwnerTypesFastTaken: the emitters' shapes take the fast path.
func TestOwnerTypesFastTaken(t *testing.T) {
	for _, in := range []string{
		ownerTypesCases[0], ownerTypesCases[2], ownerTypesCases[3], ownerTypesCases[5],
		ownerTypesCases[6], ownerTypesCases[7], ownerTypesCases[13], ownerTypesFastCases[0],
	} {
		if _, _, _, fast := ownerTypesFast([]byte(in), jsonx.Hash([]byte(in)), nil); !fast {
			t.Errorf("%s: not the fast path", in)
		}
	}
}

// TestOwnerTypesKeptOnSecondSight: a value is kept the second time it is
// seen, not the first, and its answer then serves it.
func TestOwnerTypesKeptOnSecondSight(t *testing.T) {
	in := []byte(`{"owners":[{"owner":"urn:li:corpuser:second-sight","type":"DATAOWNER"}],"ownerTypes":{}}`)
	h := jsonx.Hash(in)
	slot := &ownerTypesSeen[h%uint64(len(ownerTypesSeen))]
	kept := func() bool { a := slot.Load(); return a != nil && bytes.Equal(a.in, in) }
	for i, want := range []bool{false, true, true} {
		if _, _, ok := ownerTypesHashed(in, h, nil); !ok {
			t.Fatal("unchanged")
		}
		if kept() != want {
			t.Fatalf("after call %d: kept %v, want %v", i+1, kept(), want)
		}
	}
}

// TestStringEnd compares stringEnd with a byte at a time, for a quote, a
// backslash, a control byte or one of 0x20..0xff at every place of strings
// of 0 to 20 bytes (closed by a quote or not).
func TestStringEnd(t *testing.T) {
	slow := func(b []byte, i int) int {
		for ; i < len(b); i++ {
			switch c := b[i]; {
			case c == '"':
				return i
			case c == '\\':
				i++
			case c < 0x20:
				return -1
			}
		}
		return -1
	}
	for n := range 21 {
		for at := range n {
			for _, c := range []byte{'"', '\\', 0, 0x1f, 0x20, 0x7f, 0x80, 0x9f, 0xff} {
				for _, closed := range []bool{false, true} {
					b := bytes.Repeat([]byte{'a'}, n)
					b[at] = c
					if closed {
						b = append(b, '"')
					}
					if got, want := stringEnd(b, 0), slow(b, 0); got != want {
						t.Errorf("stringEnd(%q) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}

// TestAppendKeyText: the constant prefixes are written by appendKeyText
// as appendTypeKey writes them, and where it finds room.
func TestAppendKeyText(t *testing.T) {
	for _, s := range []string{ownerSystemType, ownerNoneType} {
		for room := 0; room <= len(s)+4; room++ {
			want, wantOK := appendTypeKey(make([]byte, 0, room), []byte(s), false)
			got, ok := appendKeyText(make([]byte, 0, room), s)
			if ok != wantOK || ok && string(got) != string(want) {
				t.Errorf("room %d: appendKeyText(%q) = %q, %v; appendTypeKey gives %q, %v", room, s, got, ok, want, wantOK)
			}
		}
	}
}
