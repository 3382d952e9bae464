package gms

import (
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
	if e := items[1].trace; !e.hasVer || e.ver != 12 || e.version != "" {
		t.Errorf("version 12 kept as %+v, want the number alone", *e)
	}
	if e := items[3].trace; e.hasVer || e.version != "012" {
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
