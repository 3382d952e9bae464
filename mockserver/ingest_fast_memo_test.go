package mockserver

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// quickMemoBatch is a batch whose proposals repeat, change and respell the
// strings and keys the quick decode matches by their text (quickMemo,
// quickKeys): each proposal must decode as the general decode decodes it.
func quickMemoBatch() string {
	one := `{"entityType":"dataset","entityUrn":"` + dsURN + `","changeType":"UPSERT","aspectName":"status",` +
		`"aspect":{"value":"{\"removed\": false}","contentType":"application/json"}}`
	ps := []string{
		one,
		one, // every string and key a repeat
		strings.Replace(one, `"UPSERT"`, `"CREATE"`, 1),                      // a string changed
		strings.Replace(one, `"UPSERT"`, `"UPS\u0045RT"`, 1),                 // the same string, spelled otherwise
		strings.Replace(one, `"status"`, `"statu"`, 1),                       // a prefix of the last one
		strings.Replace(one, `"application/json"`, `"application/json2"`, 1), // the last one a prefix of it
		`{"changeType":"UPSERT","entityType":"dataset","aspectName":"status","entityUrn":"` + dsURN + `",` + // another order
			`"aspect":{"contentType":"application/json","value":"{\"removed\": true}"}}`,
		`{"entityType" : "dataset", "entityUrn" :"` + dsURN + `", "changeType":  "UPSERT" ,"aspectName":"status",` + // white space around the colons
			`"aspect":{"value" :"{}" , "contentType": "application/json"}}`,
		`{"entityType":"chart","entityUrn":"urn:li:chart:(looker,a)","changeType":"UPSERT","aspectName":"status",` +
			`"aspect":{"value":"{\"removed\": false}","contentType":"application/json"}}`,
		one,
	}
	return `{"proposals":[` + strings.Join(ps, ",") + `]}`
}

// TestDecodeIngestQuickMemo: the quick decode reads a batch whose strings
// and keys it partly matches by the text it read before, as the general
// decode reads it; keys that only look like the expected ones (a longer
// key, an escaped one) are not taken for them.
func TestDecodeIngestQuickMemo(t *testing.T) {
	t.Parallel()
	one := `{"entityType":"dataset","entityUrn":"` + dsURN + `","changeType":"UPSERT","aspectName":"status",` +
		`"aspect":{"value":"{\"removed\": false}","contentType":"application/json"}}`
	for _, tc := range []struct {
		name  string
		body  string
		quick bool
	}{
		{"repeats and changes", quickMemoBatch(), true},
		{"a longer key after a repeat", `{"proposals":[` + one + `,` + strings.Replace(one, `"entityType":`, `"entityTypes":`, 1) + `]}`, false},
		{"an escaped key after a repeat", `{"proposals":[` + one + `,` + strings.Replace(one, `"aspectName":`, `"aspect\u004eame":`, 1) + `]}`, false},
		{"a value key twice", `{"proposals":[` + strings.Replace(one, `"contentType":"application/json"`, `"value":"{}"`, 1) + `]}`, false},
		{"a repeated member after a repeat", `{"proposals":[` + one + `,` + strings.Replace(one, `"changeType":"UPSERT",`, `"changeType":"UPSERT","changeType":"UPSERT",`, 1) + `]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkQuickAsGeneral(t, tc.body, tc.quick)
		})
	}
}

// TestDecodeIngestQuickValueMemo: the quick decode shares the decoding of
// an aspect value whose literal repeats the last one's text, and only
// then: a literal that the last one is a prefix of, one that is a prefix
// of the last one, the same value spelled with other escapes and a value
// that is not all ASCII after a repeat all decode as the general decode
// decodes them.
func TestDecodeIngestQuickValueMemo(t *testing.T) {
	t.Parallel()
	withValue := func(lit string) string {
		return `{"entityType":"dataset","entityUrn":"` + dsURN + `","changeType":"UPSERT","aspectName":"status",` +
			`"aspect":{"value":` + lit + `,"contentType":"application/json"}}`
	}
	batch := func(lits ...string) string {
		ps := make([]string, len(lits))
		for i, l := range lits {
			ps[i] = withValue(l)
		}
		return `{"proposals":[` + strings.Join(ps, ",") + `]}`
	}
	const v = `"{\"removed\": false}"`
	for _, tc := range []struct {
		name  string
		body  string
		quick bool
	}{
		{"repeats", batch(v, v, v), true},
		{"a longer literal after a repeat", batch(v, v, `"{\"removed\": false} "`, v), true},
		{"a shorter literal after a longer one", batch(`"{\"removed\": false} "`, v, `"{\"removed\": false} "`), true},
		{"the same value spelled otherwise", batch(v, `"{\"removed\": fals\u0065}"`, `"{\u0022removed\": false}"`, v), true},
		{"an ASCII escape after a repeat", batch(v, v, `"{\"removed\": false, \"x\": \"\\u00e9\"}"`), true},
		{"not ASCII after a repeat", batch(v, v, `"{\"removed\": false, \"x\": \"\u00e9\"}"`), false},
		{"raw UTF-8 after a repeat", batch(v, v, "\"{\\\"removed\\\": false, \\\"x\\\": \\\"é\\\"}\""), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checkQuickAsGeneral(t, tc.body, tc.quick)
		})
	}
}

// checkQuickAsGeneral: the quick decode of body takes it when quick says
// so, and then decodes it as the general decode does.
func checkQuickAsGeneral(t *testing.T, body string, quick bool) {
	t.Helper()
	got, gotAsync, ok := decodeIngestQuick([]byte(body), true)
	if ok != quick {
		t.Fatalf("quick decode of %s: ok = %v, want %v", body, ok, quick)
	}
	if !ok {
		return
	}
	want, wantAsync, wantErr := decodeIngestWith(nil, []byte(body), true)
	if diff := cmp.Diff([]any{want, wantAsync, wantErr}, []any{got, gotAsync, (*restliError)(nil)},
		cmp.AllowUnexported(restliError{})); diff != "" {
		t.Fatalf("(-general +quick):\n%s", diff)
	}
}
