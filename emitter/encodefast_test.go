package emitter

import (
	"bytes"
	"strings"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/jsonesc"
)

// TestAppendAspectValueMatchesGeneral holds the aspect value written in
// place (appendAspectValue) to the general path's: the aspect's JSON
// encoded on its own, then escaped into the body.
func TestAppendAspectValueMatchesGeneral(t *testing.T) {
	t.Parallel()
	many := map[string]string{}
	for i := range 1024 { // a value of more than 1 KiB
		many[strings.Repeat("k", i%7+1)+string(rune('a'+i%26))+strings.Repeat("v", i%5)] = `q"uote\` + string(rune('a'+i%26))
	}
	for _, a := range []aspects.Aspect{
		aspects.DatasetProperties{Description: aspects.Ptr("One row per order.")},
		aspects.DatasetProperties{Description: aspects.Ptr("tab\tnew\nline \"quoted\" back\\slash \x01 <&>")},
		aspects.DatasetProperties{Description: aspects.Ptr("naïve ✓ 𝄞 \u2028")},
		&aspects.DatasetProperties{CustomProperties: many},
		aspects.Status{Removed: true},
		// A type without a one-pass escaped form, small and large.
		&aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:naïve \"q\""}}},
		&aspects.EditableDatasetProperties{Description: aspects.Ptr(strings.Repeat("é\"\\x", 400))},
	} {
		for _, ct := range []string{ContentTypeJSON, ContentTypeJSONPatch, `odd "type"`} {
			var buf bytes.Buffer
			if err := encodeAspect(&buf, a); err != nil {
				t.Fatal(err)
			}
			want := jsonesc.AppendASCIIString(append([]byte(`x{"value":`), nil...), buf.Bytes())
			want = appendContentType(want, ct)
			got, err := appendAspectValue([]byte("x"), a, ct)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s %q:\n got %s\nwant %s", a.AspectName(), ct, got, want)
			}
		}
	}
}

// TestDefaultSystemMetadata holds the system metadata a call's proposals
// share to what appendFilledSystemMetadata writes for each.
func TestDefaultSystemMetadata(t *testing.T) {
	t.Parallel()
	for _, now := range []int64{0, 1, 1700000000000, -5} {
		if got, want := defaultSystemMetadata([]byte("x"), now), appendFilledSystemMetadata([]byte("x"), nil, now); !bytes.Equal(got, want) {
			t.Errorf("%d: got %s, want %s", now, got, want)
		}
	}
}

// FuzzAppendPlainBody holds appendPlainBody to appendStringBody.
func FuzzAppendPlainBody(f *testing.F) {
	for _, s := range []string{"", "hive", "db.table_00012", "PROD", `we"ird\name`, "tab\tle\x01", "naïve ✓ 𝄞 \u2028", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendPlainBody([]byte("x"), s), appendStringBody([]byte("x"), s); !bytes.Equal(got, want) {
			t.Fatalf("%q: got %q, want %q", s, got, want)
		}
	})
}

// TestDefaultSMConcurrent holds the system metadata text REST keeps for
// the last millisecond to defaultSystemMetadata, from several goroutines
// asking for different milliseconds at once.
func TestDefaultSMConcurrent(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 200 {
				ms := int64(1700000000000 + i%3 + g)
				if got, want := r.defaultSM(ms), defaultSystemMetadata(nil, ms); !bytes.Equal(got, want) {
					t.Errorf("%d: got %s, want %s", ms, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestPlainString holds plainString to a byte-by-byte check, for every
// length up to 24 and a byte that is not plain at every position.
func TestPlainString(t *testing.T) {
	t.Parallel()
	for n := range 25 {
		base := []byte(strings.Repeat("a", n))
		if !plainString(string(base)) {
			t.Errorf("%q: not plain", base)
		}
		for i := range n {
			for _, c := range []byte{'"', '\\', 0x1f, 0x80, 0xff} {
				s := bytes.Clone(base)
				s[i] = c
				if plainString(string(s)) {
					t.Errorf("%q: plain", s)
				}
			}
		}
	}
}
