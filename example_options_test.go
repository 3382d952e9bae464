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
// package client only to client.New, and each constructor refuses the
// other's. (Neither constructor sends a request.)
func Example_options() {
	const url = "http://localhost:8080"
	shared := []datahub.Option{datahub.WithToken("token"), datahub.WithTimeout(30 * time.Second)}
	_, err := emitter.NewREST(url, append(shared, emitter.WithEmitMode(emitter.EmitAsyncWait))...)
	fmt.Println("emitter:", err)
	_, err = client.New(url, append(shared, client.WithWriteStrategy(client.Patch))...)
	fmt.Println("client:", err)

	_, err = client.New(url, append(shared, emitter.WithEmitMode(emitter.EmitAsyncWait))...)
	fmt.Println(err)
	_, err = emitter.NewREST(url, append(shared, client.WithWriteStrategy(client.Patch))...)
	fmt.Println(err)
	// Output:
	// emitter: <nil>
	// client: <nil>
	// datahub: options emitter.WithEmitMode do not apply to package client: datahub: validation failed
	// datahub: options client.WithWriteStrategy do not apply to package emitter: datahub: validation failed
}
