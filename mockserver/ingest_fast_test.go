package mockserver

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzIngestDecodeQuick checks that a body the quick decode accepts
// decodes as the general decode decodes it, without an error.
func FuzzIngestDecodeQuick(f *testing.F) {
	addIngestDecodeSeeds(f)
	f.Fuzz(func(t *testing.T, body string, batch bool) {
		got, gotAsync, ok := decodeIngestQuick([]byte(body), batch)
		if !ok {
			return
		}
		want, wantAsync, wantErr := decodeIngestWith(nil, []byte(body), batch)
		if diff := cmp.Diff([]any{want, wantAsync, wantErr}, []any{got, gotAsync, (*restliError)(nil)},
			cmp.AllowUnexported(restliError{})); diff != "" {
			t.Fatalf("quick decode of %q (-general +quick):\n%s", body, diff)
		}
	})
}

// TestDecodeIngestQuick pins which bodies the quick decode reads itself:
// the emitters' (so that it is not left unused), and none that it would
// read differently from the general decode.
func TestDecodeIngestQuick(t *testing.T) {
	t.Parallel()
	tmpl, err := os.ReadFile(filepath.Join("testdata", "python_emitter_ingest_proposal.json"))
	if err != nil {
		t.Fatal(err)
	}
	single := string(tmpl)
	batch := string(ingestBodies(&testing.B{}, 200)[0])
	one := `{"entityType":"dataset","entityUrn":"` + dsURN + `","changeType":"UPSERT","aspectName":"status",` +
		`"aspect":{"value":"{\"removed\": false}","contentType":"application/json"}}`
	for _, tc := range []struct {
		name  string
		body  string
		batch bool
		quick bool
	}{
		{"python single", single, false, true},
		{"python batch", batch, true, true},
		{"batch of one, no systemMetadata", `{"proposals":[` + one + `]}`, true, true},
		{"empty batch", `{"proposals":[],"async":"true"}`, true, true},
		{"escaped aspect text", `{"proposal":` + strings.Replace(one, `false}`, `false, \"x\": \"\\u0041\\n\"}`, 1) + `}`, false, true},
		{"single body to the batch action", single, true, false},
		{"batch body to the single action", batch, false, false},
		{"async not a string", `{"proposals":[` + one + `],"async":true}`, true, false},
		{"unknown parameter", `{"proposals":[` + one + `],"x":1}`, true, false},
		{"repeated parameter", `{"proposals":[` + one + `],"proposals":[]}`, true, false},
		{"headers", `{"proposals":[` + strings.Replace(one, `{"entityType"`, `{"headers":{"If-Version-Match":"3", "a":"\u0062"},"entityType"`, 1) + `]}`, true, true},
		{"empty headers", `{"proposals":[` + strings.Replace(one, `{"entityType"`, `{"headers":{},"entityType"`, 1) + `]}`, true, true},
		{"repeated header", `{"proposals":[` + strings.Replace(one, `{"entityType"`, `{"headers":{"a":"b","a":"c"},"entityType"`, 1) + `]}`, true, false},
		{"header not a string", `{"proposals":[` + strings.Replace(one, `{"entityType"`, `{"headers":{"a":1},"entityType"`, 1) + `]}`, true, false},
		{"entity key aspect", `{"proposals":[` + strings.Replace(one, `{"entityType"`, `{"entityKeyAspect":{"value":"{}","contentType":"application/json"},"entityType"`, 1) + `]}`, true, false},
		{"null member", `{"proposals":[` + strings.Replace(one, `{"entityType"`, `{"entityUrn":null,"entityType"`, 1) + `]}`, true, false},
		{"repeated member", `{"proposals":[` + strings.Replace(one, `{"entityType"`, `{"entityType":"x","entityType"`, 1) + `]}`, true, false},
		{"unknown change type", `{"proposals":[` + strings.Replace(one, `UPSERT`, `UPSERTED`, 1) + `]}`, true, false},
		{"no change type", `{"proposals":[` + strings.Replace(one, `"changeType":"UPSERT",`, ``, 1) + `]}`, true, false},
		{"non-ASCII aspect text", `{"proposals":[` + strings.Replace(one, `false}`, `false, \"x\": \"é\"}`, 1) + `]}`, true, false},
		{"systemMetadata refused", `{"proposals":[` + strings.Replace(one, `}}`, `},"systemMetadata":{"runId":1}}`, 1) + `]}`, true, false},
		{"invalid JSON in a proposal", `{"proposals":[` + strings.Replace(one, `"status"`, `"status`, 1) + `]}`, true, false},
		{"trailing text", `{"proposals":[` + one + `]} x`, true, false},
		{"two proposals without a comma", `{"proposals":[` + one + one + `]}`, true, false},
		{"a proposal not an object", `{"proposals":[` + one + `,5]}`, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, gotAsync, ok := decodeIngestQuick([]byte(tc.body), tc.batch)
			if ok != tc.quick {
				t.Fatalf("quick decode of %s: ok = %v, want %v", tc.body, ok, tc.quick)
			}
			if !ok {
				return
			}
			want, wantAsync, wantErr := decodeIngestWith(nil, []byte(tc.body), tc.batch)
			if diff := cmp.Diff([]any{want, wantAsync, wantErr}, []any{got, gotAsync, (*restliError)(nil)},
				cmp.AllowUnexported(restliError{})); diff != "" {
				t.Fatalf("(-general +quick):\n%s", diff)
			}
		})
	}
}

// TestDecodeIngestQuickChunks checks the quick decode of long lists read
// in chunks, on as many cores as there are and more: it reads the
// emitter's lists, the same with white space between the proposals, and
// ones whose chunks may start within a string that looks like the start
// of a proposal (",{" and a quote), always as the general decode does.
func TestDecodeIngestQuickChunks(t *testing.T) {
	bodies := ingestBodies(&testing.B{}, 200)
	spaced := bytes.ReplaceAll(bodies[1], []byte(`},{`), []byte("},\n  {"))
	tricky := bytes.ReplaceAll(bodies[0], []byte(`"runId": "no-run-id-provided"`), []byte(`"runId": ",{"`))
	for _, procs := range []int{1, 2, 3, 7} {
		prev := runtime.GOMAXPROCS(procs)
		for _, tc := range []struct {
			name  string
			body  []byte
			quick bool
		}{{"python", bodies[0], true}, {"spaced", spaced, true}, {"tricky", tricky, false}} {
			got, gotAsync, ok := decodeIngestQuick(tc.body, true)
			if tc.quick && !ok {
				t.Errorf("%s on %d cores: not read by the quick decode", tc.name, procs)
			}
			if !ok {
				continue
			}
			want, wantAsync, wantErr := decodeIngestWith(nil, tc.body, true)
			if diff := cmp.Diff([]any{want, wantAsync, wantErr}, []any{got, gotAsync, (*restliError)(nil)},
				cmp.AllowUnexported(restliError{})); diff != "" {
				t.Errorf("%s on %d cores (-general +quick):\n%s", tc.name, procs, diff)
			}
		}
		runtime.GOMAXPROCS(prev)
	}
}
