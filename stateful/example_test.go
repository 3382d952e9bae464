package stateful_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/stateful"
	"github.com/catalogkit/datahub-go/urn"
)

// Two runs of a job: the second no longer finds the table "trips", and
// soft-deletes it.
func Example() {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer s.Close()
	ctx := context.Background()
	c, err := client.New(s.URL())
	if err != nil {
		panic(err)
	}
	sync := func(tables ...string) stateful.Report {
		r, err := stateful.Start(ctx, c, "feature_sync", stateful.WithPlatform("feast"))
		if err != nil {
			panic(err)
		}
		for _, name := range tables {
			u, err := urn.NewMLFeatureTable("feast", name)
			if err != nil {
				panic(err)
			}
			if _, err := r.Ensure(ctx, &entity.MLFeatureTable{URN: u,
				Properties: &aspects.MLFeatureTableProperties{Description: aspects.Ptr(name)}}); err != nil {
				break // counted: Finish then removes nothing
			}
		}
		rep, err := r.Finish(ctx)
		if err != nil {
			panic(err)
		}
		return rep
	}
	rep := sync("drivers", "customers", "trips")
	fmt.Println("written", rep.Written, "removed", rep.Removed)
	rep = sync("drivers", "customers")
	fmt.Println("written", rep.Written, "unchanged", rep.Unchanged, "removed", strings.Join(rep.Stale, " "))
	// Output:
	// written 3 removed 0
	// written 0 unchanged 2 removed urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,trips)
}
