// Package embedded starts the in-memory mock DataHub that the examples use
// when no -server is given, and connects the examples' emitter and client.
package embedded

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

// Main is the main function of an example: it parses the -server and
// -token flags (-token defaults to $DATAHUB_GMS_TOKEN) and calls run with
// them, a context of one minute and os.Stdout; it exits with run's error,
// prefixed by name.
func Main(name string, run func(ctx context.Context, server, token string, out io.Writer) error) {
	server := flag.String("server", "", "DataHub GMS URL; empty starts an embedded mock server")
	token := flag.String("token", os.Getenv("DATAHUB_GMS_TOKEN"), "access token (default $DATAHUB_GMS_TOKEN)")
	flag.Parse()
	log.SetFlags(0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, *server, *token, os.Stdout); err != nil {
		cancel()
		log.Fatalf("%s: %v", name, err)
	}
}

// Start serves an in-memory mock DataHub on a loopback port and returns its
// URL and a function that stops it.
func Start() (url string, stop func(), err error) {
	s, err := mockserver.Listen("127.0.0.1:0")
	if err != nil {
		return "", nil, fmt.Errorf("start embedded mock: %w", err)
	}
	return s.URL(), func() { s.Close() }, nil //nolint:errcheck // in memory: nothing to lose at exit
}

// Connect returns an emitter and a client for the GMS at server, or for an
// embedded mock DataHub it starts when server is empty, both sending token.
// stop stops the embedded mock (it does nothing for a given server); call it
// when done.
func Connect(server, token string) (em *emitter.REST, c *client.Client, stop func(), err error) {
	stop = func() {}
	if server == "" {
		if server, stop, err = Start(); err != nil {
			return nil, nil, nil, err
		}
	}
	em, err = emitter.NewREST(server, datahub.WithToken(token))
	if err == nil {
		c, err = client.New(server, datahub.WithToken(token))
	}
	if err != nil {
		stop()
		return nil, nil, nil, err
	}
	return em, c, stop, nil
}
