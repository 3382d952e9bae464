package datahub_test

import (
	"fmt"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
)

// The options of package datahub configure the emitter and the client
// alike; those of package emitter go only to emitter.NewREST, those of
// package client only to client.New: giving one to the other package's
// constructor does not compile. (Neither constructor sends a request.)
func Example_options() {
	const url = "http://localhost:8080"
	token, timeout := datahub.WithToken("token"), datahub.WithTimeout(30*time.Second)
	_, err := emitter.NewREST(url, token, timeout, emitter.WithEmitMode(emitter.EmitAsyncWait))
	fmt.Println("emitter:", err)
	_, err = client.New(url, token, timeout, client.WithWriteStrategy(client.Patch))
	fmt.Println("client:", err)

	// A list of options is typed by the constructor it is for.
	opts := []client.Option{token, client.WithActor("urn:li:corpuser:jdoe")}
	_, err = client.New(url, opts...)
	fmt.Println("client with a list:", err)
	// Output:
	// emitter: <nil>
	// client: <nil>
	// client with a list: <nil>
}
