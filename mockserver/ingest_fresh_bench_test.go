package mockserver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// BenchmarkIngestBatchHandlerFresh is BenchmarkIngestBatchHandlerDistinct
// with values never seen before: every body carries its own
// lastModified.time in all of its proposals (besides each proposal's own
// owner), so that no value repeats from one body to the next and nothing
// the mock keeps of a value it checked (its kept answers of the schema
// check and of the ownerTypes hook) serves a later one, as in a source's
// ingestion of new metadata. The owners' URNs repeat, as a source's users
// own dataset after dataset.
func BenchmarkIngestBatchHandlerFresh(b *testing.B) {
	const n = 200
	body, marks := freshBody(b, n)
	s := New(WithRecording(false))
	b.Cleanup(func() { _ = s.Close() })
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		stampFresh(body, marks, i)
		req := httptest.NewRequest(http.MethodPost, "/aspects?action=ingestProposalBatch", bytes.NewReader(body))
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("= %d %s", rec.Code, rec.Body)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(i*n), "ns/proposal")
}

// freshDigits is the width of the time freshBody's bodies carry.
const freshDigits = 13

// freshBody is ingestBodiesDistinct's first body with the time of each
// value's lastModified widened to freshDigits digits, and the offsets of
// those digits, which stampFresh rewrites.
func freshBody(b *testing.B, n int) ([]byte, []int) {
	b.Helper()
	body := ingestBodiesDistinct(b, n)[0]
	const time0 = `\"time\": 0`
	wide := []byte(`\"time\": ` + strconv.Itoa(1e12)) // freshDigits digits
	body = bytes.ReplaceAll(body, []byte(time0), wide)
	var marks []int
	for at := 0; ; {
		k := bytes.Index(body[at:], wide)
		if k < 0 {
			break
		}
		at += k + len(wide)
		marks = append(marks, at-freshDigits)
	}
	if len(marks) != n {
		b.Fatalf("%d times in the body, want %d", len(marks), n)
	}
	return body, marks
}

// stampFresh writes the time 10^12+i into every value of body.
func stampFresh(body []byte, marks []int, i int) {
	var digits [freshDigits]byte
	strconv.AppendInt(digits[:0], int64(1e12+i), 10)
	for _, at := range marks {
		copy(body[at:], digits[:])
	}
}
