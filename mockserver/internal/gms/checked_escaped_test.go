package gms

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
	"github.com/google/go-cmp/cmp"
)

// escapedBatch is a batch of proposals whose value is the JSON string
// literal lit decoded, as the Rest.li adapter decodes it: checked in the
// decoding pass (ValueCheck.Escaped of the proposal's entity type and
// aspect) when that pass reads it, else decoded alone (checked set), or
// decoded alone every time (checked unset). A chart's proposal carries
// the check made for a dataset's aspect, as a proposal whose entity type
// is not its URN's would. ok is false when lit is no literal.
func escapedBatch(t *testing.T, lit string, checked bool) (ps []Proposal, passed int, ok bool) {
	t.Helper()
	raw, ok := pdl.AppendUnquoted(nil, []byte(lit))
	if !ok {
		return nil, 0, false
	}
	add := func(entityType, checkType, u, aspect string) {
		p := Proposal{EntityType: entityType, EntityURN: u, ChangeType: "UPSERT", AspectName: aspect,
			ContentType: "application/json", Aspect: bytes.Clone(raw)}
		if vc, ok := CheckFor(checkType, aspect); ok && checked {
			if v, c, end, ok := vc.Escaped([]byte(lit+`,"x"`), 0, make([]byte, 0, 16), nil); ok {
				if !bytes.Equal(v, raw) || end != len(lit) {
					t.Fatalf("Escaped(%q) = %q, end %d; the literal decodes to %q, ends at %d", lit, v, end, raw, len(lit))
				}
				p.Aspect, p.Checked = v, c
				passed++
			}
		}
		ps = append(ps, p)
	}
	for i, aspect := range []string{"ownership", "status", "datasetProperties", "datasetUsageStatistics", "upstreamLineage", "schemaMetadata", "globalTags"} {
		for k := range 3 { // the first time, the second (kept) and the third (the kept answer)
			add("dataset", "dataset", fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d.%d,PROD)", i, k), aspect)
		}
	}
	add("chart", "dataset", "urn:li:chart:(looker,a)", "ownership")
	add("chart", "chart", "urn:li:chart:(looker,b)", "ownership")
	add("chart", "dataset", "urn:li:chart:(looker,c)", "status")
	return ps, passed, true
}

// prepareEscapedAgrees holds prepareAll of escapedBatch(lit) with the
// checks made in the decoding pass to prepareAll of the same batch without
// them: the same writes (values, hashes) and the same refusal, with the
// aspects in lax or not, in a batch or one by one.
func prepareEscapedAgrees(t *testing.T, lit string) (passed int) {
	t.Helper()
	pt := &patch.Patcher{Now: time.Now}
	for _, lax := range []bool{false, true} {
		var laxAspects map[string]bool
		if lax {
			laxAspects = map[string]bool{"ownership": true, "datasetProperties": true}
		}
		for _, batch := range []bool{true, false} {
			got, n, ok := escapedBatch(t, lit, true)
			if !ok {
				return 0
			}
			passed = n
			want, _, _ := escapedBatch(t, lit, false)
			_, gotWs, gotErr := prepareAll(got, batch, pt, laxAspects, nil)
			_, wantWs, wantErr := prepareAll(want, batch, pt, laxAspects, nil)
			if diff := cmp.Diff(errorText(wantErr), errorText(gotErr)); diff != "" {
				t.Fatalf("prepareAll(batch %v) of %s, lax %v: refusal (-general +checked):\n%s", batch, lit, lax, diff)
			}
			if diff := cmp.Diff(writesOf(wantWs), writesOf(gotWs)); diff != "" {
				t.Fatalf("prepareAll(batch %v) of %s, lax %v: writes (-general +checked):\n%s", batch, lit, lax, diff)
			}
			// Each on its own (a batch with a refused proposal writes nothing).
			for i := range got {
				_, gotWs, gotErr := prepareAll(got[i:i+1], batch, pt, laxAspects, nil)
				_, wantWs, wantErr := prepareAll(want[i:i+1], batch, pt, laxAspects, nil)
				if diff := cmp.Diff(errorText(wantErr), errorText(gotErr)); diff != "" {
					t.Fatalf("prepare of %s as %s %s, lax %v: refusal (-general +checked):\n%s", lit, got[i].EntityType, got[i].AspectName, lax, diff)
				}
				if diff := cmp.Diff(writesOf(wantWs), writesOf(gotWs)); diff != "" {
					t.Fatalf("prepare of %s as %s %s, lax %v: writes (-general +checked):\n%s", lit, got[i].EntityType, got[i].AspectName, lax, diff)
				}
			}
		}
	}
	return passed
}

// escapedLit is s as a JSON string literal with only " and \ escaped, as
// Python's json.dumps writes ASCII text.
func escapedLit(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// TestPrepareEscaped checks prepareAll with checks made in the decoding
// pass on checkHeld's seeds, and that the pass reads the emitters' values.
func TestPrepareEscaped(t *testing.T) {
	for _, s := range checkHeldSeeds {
		prepareEscapedAgrees(t, escapedLit(s))
	}
	for _, s := range checkHeldSeeds[:3] {
		if prepareEscapedAgrees(t, escapedLit(s)) == 0 {
			t.Errorf("the decoding pass checks no proposal of %s", escapedLit(s))
		}
	}
}

func FuzzPrepareEscaped(f *testing.F) {
	for _, s := range checkHeldSeeds {
		f.Add(escapedLit(s))
	}
	f.Add(`"{\"removed\": true}"`)
	f.Add(`"{\"removed\":\ttrue}"`)
	f.Add(`"{\"removed\"\u003a true}"`)
	f.Add(`"{\"timestampMillis\": 1, \"uniqueUserCount\": 2}"`)
	f.Add(`"{\"timestampMillis\": 1.0}"`)
	f.Add(`"{\"tags\": [{\"tag\": \"urn:li:tag:a\"}]}"`)
	f.Add(`"{\"name\": \"a\", \"customProperties\": {\"k\": \"v\", \"k\": \"w\"}}"`)
	f.Fuzz(func(t *testing.T, lit string) { prepareEscapedAgrees(t, lit) })
}
