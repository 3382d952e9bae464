package gms

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestTraceLogLaterHides: the write log finds, for a (URN, aspect) of a
// trace, the entry of its last write, within one request's writes and
// across requests of the trace, whether it was looked up in between or
// not; a deleted entity's write has no entry, and other traces none of
// these.
func TestTraceLogLaterHides(t *testing.T) {
	t.Parallel()
	var l traceLog
	begin := func(trace string, ws ...store.Write) []item {
		items := make([]item, len(ws))
		l.begin(trace, items, ws)
		return items
	}
	check := func(trace, urn, aspect, want string) {
		t.Helper()
		e, ok := l.lookup(trace, urn, aspect)
		if got := map[bool]string{true: e.version, false: "none"}[ok]; got != want {
			t.Errorf("lookup(%s, %s, %s) = %s, want %s", trace, urn, aspect, got, want)
		}
	}
	a, b, c := "urn:li:corpuser:a", "urn:li:corpuser:b", "urn:li:corpuser:c"
	items := begin("t1", store.Write{URN: a, Aspect: "x"}, store.Write{URN: b, Aspect: "x"},
		store.Write{URN: a, Aspect: "x"}, store.Write{URN: c, Aspect: "corpUserKey", DeleteEntity: true})
	for i, it := range items[:3] {
		l.setText(it.trace, traceText{version: string(rune('0' + i))})
	}
	if items[3].trace != nil {
		t.Error("a deleted entity's write got an entry")
	}
	check("t1", a, "x", "2")
	check("t1", b, "x", "1")
	check("t1", c, "corpUserKey", "none")
	check("t2", a, "x", "none")
	// A later request of the trace, after a lookup and before the next.
	items = begin("t1", store.Write{URN: b, Aspect: "x"}, store.Write{URN: b, Aspect: "y"})
	l.setText(items[0].trace, traceText{version: "3"})
	l.setText(items[1].trace, traceText{version: "4"})
	l.setText(begin("t2", store.Write{URN: a, Aspect: "x"})[0].trace, traceText{version: "5"})
	check("t1", b, "x", "3")
	check("t1", b, "y", "4")
	check("t1", a, "x", "2")
	check("t2", a, "x", "5")
	l.reset()
	check("t1", a, "x", "none")
}
