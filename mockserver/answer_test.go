package mockserver

import (
	"io"
	"net/http"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// TestIngestAnswerHeaders: an ingest's answer carries Rest.li's success
// body and headers and the mock's version, the same on every answer (the
// header values are shared between answers and stay as they are).
func TestIngestAnswerHeaders(t *testing.T) {
	t.Parallel()
	s := Start(t)
	p := map[string]any{"entityType": "dataset", "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
		"changeType": "UPSERT", "aspectName": "status",
		"aspect": map[string]any{"value": `{"removed":false}`, "contentType": "application/json"}}
	body := ingestBody(t, p, "false")
	for i := range 3 {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL()+"/aspects?action=ingestProposal", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-RestLi-Protocol-Version", "2.0.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || string(got) != `{"value":"success"}` {
			t.Fatalf("answer %d: %d %s", i, resp.StatusCode, got)
		}
		for k, want := range map[string]string{"Content-Type": "application/json", "X-RestLi-Protocol-Version": "2.0.0",
			"X-DataHub-Mock-Version": datahub.Version} {
			if v := resp.Header.Values(k); len(v) != 1 || v[0] != want {
				t.Errorf("answer %d: %s = %q, want %q", i, k, v, want)
			}
		}
	}
}

// headerOnly is a ResponseWriter that keeps one header map and drops the
// rest.
type headerOnly http.Header

func (h headerOnly) Header() http.Header         { return http.Header(h) }
func (h headerOnly) Write(b []byte) (int, error) { return len(b), nil }
func (h headerOnly) WriteHeader(int)             {}

// TestWriteSuccessAllocs: writing the success answer allocates nothing
// of its own (it allocated its two header values per answer).
func TestWriteSuccessAllocs(t *testing.T) {
	w := headerOnly(http.Header{})
	writeSuccess(w) // the map's room
	if n := testing.AllocsPerRun(100, func() {
		clear(w)
		writeSuccess(w)
	}); n != 0 {
		t.Errorf("writeSuccess: %v allocations, want 0", n)
	}
	if ct := http.Header(w).Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
}
