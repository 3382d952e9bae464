// Package embedded starts the in-memory mock DataHub that the examples use
// when no -server is given.
package embedded

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/catalogkit/datahub-go/mockserver"
)

// Start serves an in-memory mock DataHub on a loopback port and returns its
// URL and a function that stops it.
func Start() (url string, stop func(), err error) {
	mock := mockserver.New()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: mock, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln) //nolint:errcheck // Serve returns ErrServerClosed after Shutdown below.
	stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx) //nolint:errcheck // best effort at exit
		mock.Close()      //nolint:errcheck // in memory: nothing to lose
	}
	return "http://" + ln.Addr().String(), stop, nil
}
