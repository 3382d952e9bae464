package emitter_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/urn"
)

// TestNewProposalAllocatesNothing checks that making a proposal copies
// nothing of DataHub's entity registry: its checks read the registry in
// place (a copy of the dataset's aspect list was 736 bytes a proposal).
func TestNewProposalAllocatesNothing(t *testing.T) {
	u, err := urn.Parse("urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)")
	if err != nil {
		t.Fatal(err)
	}
	var a aspects.Aspect = aspects.DatasetProperties{Description: aspects.Ptr("orders")}
	for _, tc := range []struct {
		name string
		make func()
	}{
		{"NewProposal", func() { _, _ = emitter.NewProposal(u, a) }},
		{"NewDeleteEntity", func() { _, _ = emitter.NewDeleteEntity(u) }},
	} {
		if n := testing.AllocsPerRun(20, tc.make); n != 0 {
			t.Errorf("%s allocates %v times a call", tc.name, n)
		}
	}
	if _, err := emitter.NewProposal(u, aspects.ChartInfo{}); err == nil {
		t.Error("NewProposal of a chart's aspect on a dataset: no error")
	}
}
