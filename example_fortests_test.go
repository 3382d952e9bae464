package datahub_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// ForTests makes a test against the mock fail fast: here a server that
// keeps answering 503 with a Retry-After of a minute is tried three times,
// 100 ms apart, instead of five times over minutes.
func ExampleForTests() {
	s, err := mockserver.Listen("127.0.0.1:0") // in a test: mockserver.Start(t)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	s.Fail(mockserver.OpIngestProposal, mockserver.FailSpec{Status: 503, Times: mockserver.Forever, RetryAfter: time.Minute})

	em, err := emitter.NewREST(s.URL(), datahub.ForTests())
	if err != nil {
		panic(err)
	}
	ds, _ := urn.NewDataset("hive", "db.orders", "PROD")
	p, _ := emitter.NewProposal(ds, aspects.Status{})
	err = em.Emit(context.Background(), p)
	var de *datahub.Error
	fmt.Println(errors.As(err, &de), de.StatusCode, s.RequestCount(mockserver.OpIngestProposal), "attempts")
	// Output:
	// true 503 3 attempts
}
