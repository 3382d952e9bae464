package pdl_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// BenchmarkSysMetaConformsCompact is the check and compaction of a
// proposal's systemMetadata as the Python emitter sends it.
func BenchmarkSysMetaConformsCompact(b *testing.B) {
	sm := []byte(`{"lastObserved": 1618987484580, "lastRunId": "no-run-id-provided", "properties": {"clientId": "acryl-datahub", "clientVersion": "1!0.0.0.dev0"}, "runId": "no-run-id-provided"}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := pdl.ConformsCompact("com.linkedin.mxe.SystemMetadata", sm); !ok {
			b.Fatal()
		}
	}
}

// BenchmarkUnquoteAspectValue is the decode of a proposal's aspect.value,
// JSON text in a JSON string, as the Python emitter sends it.
func BenchmarkUnquoteAspectValue(b *testing.B) {
	lit := []byte(`"{\"owners\": [{\"owner\": \"urn:li:corpuser:fbar\", \"type\": \"DATAOWNER\"}], \"ownerTypes\": {}, \"lastModified\": {\"time\": 0, \"actor\": \"urn:li:corpuser:fbar\"}}"`)
	b.SetBytes(int64(len(lit)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := pdl.UnquoteJSONBytes(lit); !ok {
			b.Fatal()
		}
	}
}
