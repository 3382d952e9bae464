// Package embedded starts the in-memory mock DataHub that the examples use
// when no -server is given, and connects the examples' emitter and client.
package embedded

import (
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/mockserver"
)

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
