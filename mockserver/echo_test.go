package mockserver

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// TestAnswersDoNotAmplifyInput: a reviewer's probes, each of which once
// answered with a body as large as (or twice) the input, because a message
// echoed a huge name or listed every one of many faults. Every answer is
// now short: echoed input is abbreviated and lists stop after 20 messages.
func TestAnswersDoNotAmplifyInput(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("k", 1<<20)
	many := func(n int, item func(i int) string) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = item(i)
		}
		return strings.Join(parts, ",")
	}
	proposal := func(extra string) string {
		return `{"proposal":{"entityType":"dataset","entityUrn":"` + dsURN + `","changeType":"UPSERT","aspectName":"status",` +
			`"aspect":{"contentType":"application/json","value":"{\"removed\":false}"}` + extra + `}}`
	}
	aspect := func(value string) string {
		return ingestBody(t, mcp("dataset", dsURN, "UPSERT", "datasetProperties", value), "")
	}
	badItem := `{"entityType":"dataset","entityUrn":"urn:li:dataset:nope","changeType":"UPSERT","aspectName":"status",` +
		`"aspect":{"contentType":"application/json","value":"{}"}}`
	const ingestPath = "/aspects?action=ingestProposal"
	for _, tc := range []struct {
		name, method, target, body string
		header                     []string
		status                     int
		msg                        string
	}{
		{"unknown aspect field with a huge name", http.MethodPost, ingestPath, aspect(`{"` + huge + `":1}`), nil, 422, "unrecognized field found"},
		{"customProperties with a huge key", http.MethodPost, ingestPath, aspect(`{"customProperties":{"` + huge + `":1}}`), nil, 422, "/customProperties/kkk"},
		{"unknown systemMetadata member with a huge name", http.MethodPost, ingestPath, proposal(`,"systemMetadata":{"` + huge + `":1}`), nil, 400, "/proposal/systemMetadata/kkk"},
		{"unknown control route", http.MethodGet, ControlPrefix + "/" + strings.Repeat("x", 500<<10), "", nil, 404, "xxx"},
		{"unauthorized huge path", http.MethodGet, "/" + strings.Repeat("x", 500<<10), "", []string{"Authorization", "Bearer wrong"}, 401, ""},
		{"100k unknown MCP members", http.MethodPost, ingestPath,
			proposal("," + many(100_000, func(i int) string { return `"m` + strconv.Itoa(i) + `":1` })), nil, 400, "and 99980 more"},
		{"50k non-string headers", http.MethodPost, ingestPath,
			proposal(`,"headers":{` + many(50_000, func(i int) string { return `"h` + strconv.Itoa(i) + `":1` }) + `}`), nil, 400, "and 49980 more"},
		{"20k bad batch items", http.MethodPost, "/aspects?action=ingestProposalBatch",
			`{"proposals":[` + many(20_000, func(int) string { return badItem }) + `]}`, nil, 400, "and 19980 more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t, WithControl(true), WithToken("secret"))
			header := append([]string{"Authorization", "Bearer secret"}, tc.header...)
			r := serve(t, s, tc.method, tc.target, tc.body, header...)
			if r.Status != tc.status || !strings.Contains(r.Body, tc.msg) {
				t.Errorf("= %d %.300s..., want %d with %q", r.Status, r.Body, tc.status, tc.msg)
			}
			if len(r.Body) > 16<<10 {
				t.Errorf("answer of %d bytes to %d bytes of input (%.300s...)", len(r.Body), len(tc.body)+len(tc.target), r.Body)
			}
		})
	}
}
