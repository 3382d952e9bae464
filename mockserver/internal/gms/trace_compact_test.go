package gms

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// FuzzPlainVersion holds plainVersion to strconv: it finds a number
// exactly when the text is that number's decimal text of at most 19
// digits, so that the write log gives back the store's version text as it
// came.
func FuzzPlainVersion(f *testing.F) {
	for _, s := range []string{"0", "1", "12", "007", "", "-1", "+1", "1a", " 1", "18446744073709551615",
		"18446744073709551616", "9999999999999999999", "99999999999999999999", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := plainVersion(s)
		want, err := strconv.ParseUint(s, 10, 64)
		wantOK := err == nil && strconv.FormatUint(want, 10) == s && len(s) <= 19
		if ok != wantOK || (ok && v != want) {
			t.Fatalf("plainVersion(%q) = %d %v, want %d %v", s, v, ok, want, wantOK)
		}
	})
}

// TestTraceLogKeepsVersionsAsNumbers: an applied write whose version is a
// plain number keeps it as one (no string the collector follows), any
// other keeps the store's text, and lookup gives back the text either way;
// writes without an entry between others leave the others' keys as they
// were.
func TestTraceLogKeepsVersionsAsNumbers(t *testing.T) {
	t.Parallel()
	var l traceLog
	a, b := "urn:li:corpuser:a", "urn:li:corpuser:b"
	ws := []store.Write{{URN: "urn:li:corpuser:c", Aspect: "corpUserKey", DeleteEntity: true}, {URN: a, Aspect: "x"},
		{URN: b, Aspect: "corpUserKey", DeleteEntity: true}, {URN: b, Aspect: "y"}, {}}
	items := make([]item, len(ws))
	l.begin("t", items, ws)
	if items[0].trace != nil || items[2].trace != nil {
		t.Fatal("a deleted entity's write got an entry")
	}
	l.applied(items[1:2], []store.Result{{Version: "12"}}, 7)
	l.applied(items[3:4], []store.Result{{Version: "012"}}, 8)
	if e := items[1].trace; !e.hasVer || e.ver != 12 || e.hasText {
		t.Errorf("version 12 kept as %+v, want the number alone", *e)
	}
	if e := items[3].trace; e.hasVer || l.texts[e].version != "012" {
		t.Errorf("version 012 kept as %+v, want the text", *e)
	}
	for _, c := range []struct{ urn, aspect, want string }{
		{a, "x", "12"}, {b, "y", "012"}, {b, "corpUserKey", "none"}, {"urn:li:corpuser:c", "corpUserKey", "none"}, {"", "", "none"},
	} {
		e, ok := l.lookup("t", c.urn, c.aspect)
		if got := map[bool]string{true: e.version, false: "none"}[ok]; got != c.want {
			t.Errorf("lookup(%s, %s) = %s, want %s", c.urn, c.aspect, got, c.want)
		}
	}
	if e, _ := l.lookup("t", a, "x"); e.seq != 7 || e.state != stateApplied {
		t.Errorf("lookup(%s, x) = %+v, want applied at 7", a, e)
	}
}

// TestTraceEntryHoldsNoPointer: the write log's entries, kept for up to
// maxTraces requests, are memory the collector does not scan; a field
// that holds a pointer (a string, a slice, a map...) fails this.
func TestTraceEntryHoldsNoPointer(t *testing.T) {
	t.Parallel()
	var walk func(reflect.Type) bool
	walk = func(typ reflect.Type) bool {
		switch typ.Kind() {
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
			return true
		case reflect.Array:
			return walk(typ.Elem())
		case reflect.Struct:
			for i := range typ.NumField() {
				if !walk(typ.Field(i).Type) {
					t.Errorf("traceEntry.%s is a %s", typ.Field(i).Name, typ.Field(i).Type)
					return false
				}
			}
			return true
		}
		return false
	}
	walk(reflect.TypeFor[traceEntry]())
}

// TestTraceLogTexts: a version that is not a plain number and a failure's
// message are kept beside their entries and given back by lookup, each
// with the entry's other text as it was; a write applied again with a
// plain version drops its text; the texts of a trace id go when the log
// forgets it (eviction, reset), so that they are kept no longer than
// their entries.
func TestTraceLogTexts(t *testing.T) {
	t.Parallel()
	var l traceLog
	a, b, c, d := "urn:li:corpuser:a", "urn:li:corpuser:b", "urn:li:corpuser:c", "urn:li:corpuser:d"
	items := make([]item, 4)
	l.begin("t", items, []store.Write{{URN: a, Aspect: "x"}, {URN: b, Aspect: "x"}, {URN: c, Aspect: "x"}, {URN: d, Aspect: "x"}})
	l.applied(items[:2], []store.Result{{Version: "v1"}, {Version: "v2"}}, 1)
	l.failed(items[1:4], &Error{Message: "refused"})
	l.applied(items[:1], []store.Result{{Version: "3"}}, 2)
	l.applied(items[3:4], []store.Result{{Version: "w"}}, 2)
	for _, k := range []struct {
		urn                    string
		version, message, from string
	}{{a, "3", "", "the plain version applied last"}, {b, "v2", "refused", "both texts"}, {c, "", "refused", "the message alone"},
		{d, "w", "refused", "a version after the message"}} {
		e, ok := l.lookup("t", k.urn, "x")
		if !ok || e.version != k.version || e.message != k.message {
			t.Errorf("lookup(%s) = %+v %v, want version %q and message %q (%s)", k.urn, e, ok, k.version, k.message, k.from)
		}
	}
	if len(l.texts) != 3 || items[0].trace.hasText {
		t.Errorf("texts %v, entry a %+v: want b's, c's and d's alone", l.texts, *items[0].trace)
	}
	// maxTraces later trace ids evict "t", whose texts go with it.
	for i := range maxTraces {
		l.begin(strconv.Itoa(i), make([]item, 1), []store.Write{{URN: a, Aspect: "x"}})
	}
	if _, ok := l.lookup("t", b, "x"); ok || len(l.texts) != 0 {
		t.Errorf("after eviction: found %v, %d texts kept, want neither", ok, len(l.texts))
	}
	items = make([]item, 1)
	l.begin("u", items, []store.Write{{URN: a, Aspect: "x"}})
	l.applied(items, []store.Result{{Version: "v"}}, 3)
	l.reset()
	if len(l.texts) != 0 {
		t.Errorf("after reset: %d texts kept", len(l.texts))
	}
}
