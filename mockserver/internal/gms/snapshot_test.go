package gms

import (
	"encoding/json"
	"testing"
)

// TestSnapshotFacts checks the snapshot facts taken from the generated
// schemas: every member of the Snapshot union names its entity (through
// its key aspect) and its aspects.
func TestSnapshotFacts(t *testing.T) {
	t.Parallel()
	names := SnapshotNames()
	if len(names) != 21 {
		t.Errorf("%d snapshots, want the 21 of com.linkedin.metadata.snapshot.Snapshot: %v", len(names), names)
	}
	for _, n := range names {
		s := snapshots().byName[n]
		if s.Entity == "" || len(s.aspects) == 0 {
			t.Errorf("%s: entity %q, %d aspects", n, s.Entity, len(s.aspects))
		}
	}
	if got := SnapshotOf("corpuser"); got != "com.linkedin.metadata.snapshot.CorpUserSnapshot" {
		t.Errorf("SnapshotOf(corpuser) = %q", got)
	}
}

// TestSnapshotProposals checks an MCE's snapshot as proposals: one UPSERT
// per aspect, in order, each with the systemMetadata.
func TestSnapshotProposals(t *testing.T) {
	t.Parallel()
	u := "urn:li:corpuser:jdoe"
	sm := json.RawMessage(`{"runId":"r"}`)
	ps, err := SnapshotProposals(json.RawMessage(`{"value":{"com.linkedin.metadata.snapshot.CorpUserSnapshot":{"urn":"`+u+`","aspects":[`+
		`{"com.linkedin.identity.CorpUserInfo":{"active":true}},{"com.linkedin.common.Status":{"removed":false}}]}}}`), sm)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].AspectName != "corpUserInfo" || ps[1].AspectName != "status" || ps[0].EntityType != "corpuser" ||
		ps[1].ChangeType != "UPSERT" || string(ps[1].SystemMetadata) != `{"runId":"r"}` || ps[0].EntityURN != u {
		t.Errorf("proposals = %+v", ps)
	}
	if _, err := SnapshotProposals(json.RawMessage(`{"value":{}}`), nil); err == nil {
		t.Errorf("an empty snapshot union was accepted")
	}
}
