// Command bulk loads many datasets into DataHub in the background with the
// async emitter: proposals are queued, batched by size and linger time, sent
// by several workers (writes to one URN stay in order), and Close waits until
// every queued proposal is written or reported.
//
//	go run ./examples/bulk                 # against an embedded mock server
//	go run ./examples/bulk -n 20000 -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
//	go run ./examples/bulk -endpoint openapi   # write through the OpenAPI v3 entity API
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func main() {
	server := flag.String("server", "", "DataHub GMS URL; empty starts an embedded mock server")
	token := flag.String("token", os.Getenv("DATAHUB_GMS_TOKEN"), "access token (default $DATAHUB_GMS_TOKEN)")
	n := flag.Int("n", 5000, "number of datasets to write")
	endpoint := flag.String("endpoint", "restli", "write path: restli, openapi, or auto (picked from the server's version)")
	flag.Parse()
	log.SetFlags(0)
	ep, err := datahub.ParseEndpoint(*endpoint)
	if err != nil {
		log.Fatalf("bulk: -endpoint: %v", err)
	}
	if err := run(context.Background(), *server, *token, ep, *n, os.Stdout); err != nil {
		log.Fatalf("bulk: %v", err)
	}
}

func run(ctx context.Context, server, token string, ep datahub.Endpoint, n int, out io.Writer) error {
	if server == "" {
		mock := httptest.NewServer(mockserver.New())
		defer mock.Close()
		server = mock.URL
	}
	rest, err := emitter.NewREST(server, datahub.WithToken(token), datahub.WithEndpoint(ep))
	if err != nil {
		return err
	}
	var failed, acknowledged atomic.Int64
	async := emitter.NewAsync(rest,
		emitter.WithWorkers(4),
		emitter.WithBatchSize(200),
		emitter.WithLinger(20*time.Millisecond),
		emitter.WithBlock(true), // a full queue makes Emit wait instead of failing
		// Every outcome, for a checkpoint: a real job would record r.Seq
		// (or r.Proposal.URN) as done once r.Status is Written.
		emitter.WithResultHandler(func(r emitter.AsyncResult) {
			if r.Status == emitter.Written {
				acknowledged.Add(1)
			}
		}),
		emitter.WithErrorHandler(func(p emitter.Proposal, err error) {
			failed.Add(1)
			log.Printf("not written: %s %s: %v", p.URN, p.AspectName, err)
		}),
	)

	start := time.Now()
	for i := range n {
		u, err := urn.NewDataset("postgres", fmt.Sprintf("shop.public.table_%05d", i), "PROD")
		if err != nil {
			return err
		}
		for _, a := range []aspects.Aspect{
			aspects.DatasetProperties{Description: aspects.Ptr(fmt.Sprintf("Table %d of the shop database.", i))},
			aspects.Status{Removed: false},
		} {
			p, err := emitter.NewProposal(u, a)
			if err != nil {
				return err
			}
			if err := async.Emit(ctx, p); err != nil {
				return err
			}
		}
	}
	// Close sends everything still queued; give it a deadline.
	closeCtx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := async.Close(closeCtx); err != nil {
		return fmt.Errorf("%d proposals not written: %w", failed.Load(), err)
	}
	elapsed := time.Since(start)
	fmt.Fprintf(out, "wrote %d proposals for %d datasets in %s (%.0f proposals/s), %d acknowledged\n",
		2*n, n, elapsed.Round(time.Millisecond), float64(2*n)/elapsed.Seconds(), acknowledged.Load())
	return nil
}
