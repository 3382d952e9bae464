package emitter

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
	"github.com/catalogkit/datahub-go/urn"
)

// TestProposalWire checks that a proposal's wire form (what the Kafka
// module encodes), written as JSON, is byte for byte the proposal object
// the REST emitter sends.
func TestProposalWire(t *testing.T) {
	t.Parallel()
	now := time.UnixMilli(1700000000000)
	ds, err := urn.NewDataset("hive", "db.orders", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	name := "Bestellungen – übersicht 😀 <&>"
	tests := []struct {
		name string
		p    Proposal
		want mcpwire.Proposal
	}{
		{
			name: "upsert with defaults",
			p:    Proposal{URN: ds, Aspect: aspects.Status{Removed: true}},
			want: mcpwire.Proposal{
				EntityType: "dataset", EntityURN: ds.String(), ChangeType: "UPSERT", AspectName: "status",
				Aspect: &mcpwire.Aspect{Value: []byte(`{"removed":true}`), ContentType: ContentTypeJSON},
				SystemMetadata: aspects.SystemMetadata{LastObserved: 1700000000000, RunID: aspects.Ptr(DefaultRunID), LastRunID: aspects.Ptr(DefaultRunID),
					Properties: map[string]string{"clientId": datahub.ClientID, "clientVersion": datahub.Version}},
			},
		},
		{
			name: "non-ASCII escaped, key aspect, headers, caller's system metadata kept",
			p: Proposal{
				URN: ds, KeyAspect: aspects.DatasetKey{Platform: "urn:li:dataPlatform:hive", Name: "db.orders", Origin: "PROD"},
				ChangeType: Create, Aspect: aspects.DatasetProperties{Name: &name},
				SystemMetadata: &aspects.SystemMetadata{RunID: aspects.Ptr("run-1"), LastObserved: 5, Properties: map[string]string{"clientId": "me"}},
				Headers:        map[string]string{"If-None-Match": "*"},
			},
			want: mcpwire.Proposal{
				EntityType: "dataset", EntityURN: ds.String(), ChangeType: "CREATE", AspectName: "datasetProperties",
				EntityKeyAspect: &mcpwire.Aspect{Value: []byte(`{"platform":"urn:li:dataPlatform:hive","name":"db.orders","origin":"PROD"}`), ContentType: ContentTypeJSON},
				Aspect:          &mcpwire.Aspect{Value: []byte(`{"customProperties":{},"name":"Bestellungen \u2013 \u00fcbersicht \ud83d\ude00 <&>","tags":[]}`), ContentType: ContentTypeJSON},
				SystemMetadata: aspects.SystemMetadata{LastObserved: 5, RunID: aspects.Ptr("run-1"), LastRunID: aspects.Ptr(DefaultRunID),
					Properties: map[string]string{"clientId": "me", "clientVersion": datahub.Version}},
				Headers: map[string]string{"If-None-Match": "*"},
			},
		},
		{
			name: "patch",
			p: Proposal{URN: ds, ChangeType: Patch,
				Aspect: RawAspect{Name: "globalTags", JSON: json.RawMessage(`[ {"op":"add","path":"/tags/urn:li:tag:a","value":{"tag":"urn:li:tag:a"}} ]`)}},
			want: mcpwire.Proposal{
				EntityType: "dataset", EntityURN: ds.String(), ChangeType: "PATCH", AspectName: "globalTags",
				Aspect: &mcpwire.Aspect{Value: []byte(`[{"op":"add","path":"/tags/urn:li:tag:a","value":{"tag":"urn:li:tag:a"}}]`), ContentType: ContentTypeJSONPatch},
				SystemMetadata: aspects.SystemMetadata{LastObserved: 1700000000000, RunID: aspects.Ptr(DefaultRunID), LastRunID: aspects.Ptr(DefaultRunID),
					Properties: map[string]string{"clientId": datahub.ClientID, "clientVersion": datahub.Version}},
			},
		},
		{
			name: "delete entity",
			p:    mustDeleteEntity(t, ds),
			want: mcpwire.Proposal{
				EntityType: "dataset", EntityURN: ds.String(), ChangeType: "DELETE", AspectName: "datasetKey",
				SystemMetadata: aspects.SystemMetadata{LastObserved: 1700000000000, RunID: aspects.Ptr(DefaultRunID), LastRunID: aspects.Ptr(DefaultRunID),
					Properties: map[string]string{"clientId": datahub.ClientID, "clientVersion": datahub.Version}},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := mcpwire.FromProposal(&tt.p, now)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Wire (-want +got):\n%s", diff)
			}
			gotJSON := appendWire(nil, &got)
			wantJSON, err := appendProposal(nil, &tt.p, now.UnixMilli())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(wantJSON), string(gotJSON)); diff != "" {
				t.Errorf("appendWire differs from the REST body (-want +got):\n%s", diff)
			}
		})
	}
}

func mustDeleteEntity(t *testing.T, u urn.URN) Proposal {
	t.Helper()
	p, err := NewDeleteEntity(u)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProposalWireInvalid checks that the wire form is refused for what Emit refuses,
// wrapping datahub.ErrValidation, and that the headers are copied.
func TestProposalWireInvalid(t *testing.T) {
	t.Parallel()
	ds, err := urn.NewDataset("hive", "t", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]Proposal{
		"no URN":           {Aspect: aspects.Status{}},
		"no aspect":        {URN: ds, AspectName: "status"},
		"bad change type":  {URN: ds, ChangeType: "MERGE", Aspect: aspects.Status{}},
		"delete non-key":   {URN: ds, ChangeType: "DELETE", AspectName: "status"},
		"invalid raw JSON": {URN: ds, Aspect: RawAspect{Name: "status", JSON: json.RawMessage(`{"removed":`)}},
		"not an object":    {URN: ds, Aspect: RawAspect{Name: "status", JSON: json.RawMessage(`"x"`)}},
	} {
		if _, err := mcpwire.FromProposal(&p, time.Unix(0, 0)); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("%s: Wire error = %v, want datahub.ErrValidation", name, err)
		}
	}
	h := map[string]string{"If-Version-Match": "3"}
	w, err := mcpwire.FromProposal(&Proposal{URN: ds, Aspect: aspects.Status{}, Headers: h}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	h["If-Version-Match"] = "4"
	if got := w.Headers["If-Version-Match"]; got != "3" {
		t.Errorf("Wire shares the caller's headers map: got %q after the caller changed it", got)
	}
}
