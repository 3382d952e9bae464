package client

import (
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// BenchmarkEntitiesUpdate measures Get plus Update of one model, each
// adding a training metric, against the in-process mock: alone, and with
// writers contending for the same aspect (conditional) or adding owners
// (patch). It reports the write requests made per update.
func BenchmarkEntitiesUpdate(b *testing.B) {
	for _, tc := range []struct {
		name     string
		parallel bool
		strategy WriteStrategy
	}{
		{"alone", false, Conditional},
		{"contended/conditional", true, Conditional},
		{"contended/patch", true, Patch},
	} {
		b.Run(tc.name, func(b *testing.B) {
			s := mockserver.Start(b, mockserver.WithRecording(false))
			c := newTestClient(b, s, WithWriteStrategy(tc.strategy),
				WithConflictPolicy(ConflictPolicy{MaxAttempts: 1000, MinWait: time.Millisecond, MaxWait: 10 * time.Millisecond}))
			es := c.Entities()
			u := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,bench,PROD)").(urn.MLModel)
			if err := es.Create(b.Context(), entity.NewMLModel(u, "bench", nil, nil)); err != nil {
				b.Fatal(err)
			}
			var n atomic.Int64
			update := func() {
				i := n.Add(1)
				e, err := es.Get(b.Context(), u)
				if err != nil {
					b.Error(err)
					return
				}
				m := e.(*entity.MLModel)
				_, err = es.Update(b.Context(), m, func() error {
					if tc.strategy == Patch {
						if m.Ownership == nil {
							m.Ownership = &aspects.Ownership{}
						}
						m.Ownership.Owners = append(m.Ownership.Owners, aspects.Owner{Owner: fmt.Sprintf("urn:li:corpuser:u%d", i), Type: aspects.OwnershipTypeTechnicalOwner})
						return nil
					}
					m.Properties.CustomProperties[fmt.Sprintf("k%d", i)] = "v"
					return nil
				})
				if err != nil {
					b.Error(err)
				}
			}
			before := s.RequestCount(mockserver.OpIngestProposal) + s.RequestCount(mockserver.OpIngestProposalBatch)
			b.ResetTimer()
			if tc.parallel {
				b.SetParallelism(8)
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						update()
					}
				})
			} else {
				for b.Loop() {
					update()
				}
			}
			b.StopTimer()
			writes := s.RequestCount(mockserver.OpIngestProposal) + s.RequestCount(mockserver.OpIngestProposalBatch) - before
			b.ReportMetric(float64(writes)/float64(n.Load()), "writes/update")
		})
	}
}
