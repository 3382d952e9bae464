package pdl_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// ingestBody is a batch of n proposals as the Python emitter sends them.
func ingestBody(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"proposals":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"entityType": "dataset", "entityUrn": "urn:li:dataset:(urn:li:dataPlatform:foo,bar%d,PROD)", "changeType": "UPSERT", "aspectName": "ownership", `+
			`"aspect": {"value": "{\"owners\": [{\"owner\": \"urn:li:corpuser:fbar\", \"type\": \"DATAOWNER\"}], \"ownerTypes\": {}, \"lastModified\": {\"time\": 0, \"actor\": \"urn:li:corpuser:fbar\"}}", "contentType": "application/json"}, `+
			`"systemMetadata": {"lastObserved": 1618987484580, "lastRunId": "no-run-id-provided", "properties": {"clientId": "acryl-datahub", "clientVersion": "1!0.0.0.dev0"}, "runId": "no-run-id-provided"}}`, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// BenchmarkOutlineIngest parses a batch body into an Outline and walks it
// as the mock's decode of ingestProposalBatch does: the proposals' members,
// their strings, their aspects' members and values, their systemMetadata.
func BenchmarkOutlineIngest(b *testing.B) {
	body := ingestBody(200)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var o pdl.Outline
	var ms, ga []pdl.Member
	for b.Loop() {
		if !o.Parse(body, 4) {
			b.Fatal("Parse = false")
		}
		top, _ := o.AppendMembers(ms[:0], o.Top())
		ps, _ := o.Elements(top[0].Value)
		for _, p := range ps {
			ms, _ = o.AppendMembers(ms[:0], p)
			for _, m := range ms {
				switch m.Key {
				case "aspect":
					ga, _ = o.AppendMembers(ga[:0], m.Value)
					for _, g := range ga {
						if g.Key == "value" {
							_, _ = pdl.UnquoteJSONBytes(g.Value)
						} else {
							_, _ = o.Unquote(g.Value)
						}
					}
				case "systemMetadata":
					_, _ = pdl.ConformsCompact("com.linkedin.mxe.SystemMetadata", m.Value)
				default:
					_, _ = o.Unquote(m.Value)
				}
			}
		}
	}
}
