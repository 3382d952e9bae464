// Command filesink writes proposals to a file in DataHub's file-sink format
// instead of sending them, then replays the file to a server. The same file
// works with DataHub's own tools (`datahub ingest` with a file source) and
// seeds the mock server (`datahub-mock -seed FILE`).
//
//	go run ./examples/filesink -out /tmp/catalog.json            # write, then replay to an embedded mock
//	go run ./examples/filesink -out /tmp/catalog.json -server http://localhost:8080
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func main() {
	out := flag.String("out", filepath.Join(os.TempDir(), "datahub-catalog.json"), "file to write")
	server := flag.String("server", "", "DataHub GMS URL to replay the file to; empty starts an embedded mock server")
	token := flag.String("token", os.Getenv("DATAHUB_GMS_TOKEN"), "access token (default $DATAHUB_GMS_TOKEN)")
	flag.Parse()
	log.SetFlags(0)
	if err := run(context.Background(), *out, *server, *token, os.Stdout); err != nil {
		log.Fatalf("filesink: %v", err)
	}
}

func run(ctx context.Context, path, server, token string, out io.Writer) error {
	// 1. Write: the file emitter has the same Emit as the REST one.
	f, err := emitter.NewFile(path)
	if err != nil {
		return err
	}
	group, err := urn.NewMLModelGroup("mlflow", "fraud-detector", "PROD")
	if err != nil {
		return err
	}
	var ps []emitter.Proposal
	for v := 1; v <= 3; v++ {
		model, err := urn.NewMLModel("mlflow", fmt.Sprintf("fraud-detector-v%d", v), "PROD")
		if err != nil {
			return err
		}
		p, err := emitter.NewProposal(model, aspects.MLModelProperties{
			Description: aspects.Ptr(fmt.Sprintf("Training run %d.", v)),
			Version:     &aspects.VersionTag{VersionTag: aspects.Ptr(fmt.Sprint(v))},
			Groups:      []string{group.String()},
		})
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	p, err := emitter.NewProposal(group, aspects.MLModelGroupProperties{Description: aspects.Ptr("Every training run of the fraud detector.")})
	if err != nil {
		return err
	}
	ps = append(ps, p)
	if err := f.Emit(ctx, ps...); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(out, "wrote %d proposals to %s\n", len(ps), path)

	// 2. Replay: read the file back and send it.
	if server == "" {
		mock := httptest.NewServer(mockserver.New())
		defer mock.Close()
		server = mock.URL
	}
	read, err := emitter.ReadFile(path)
	if err != nil {
		return err
	}
	rest, err := emitter.NewREST(server, datahub.WithToken(token))
	if err != nil {
		return err
	}
	if err := rest.Emit(ctx, read...); err != nil {
		return err
	}
	fmt.Fprintf(out, "replayed %d proposals to %s\n", len(read), server)
	return nil
}
