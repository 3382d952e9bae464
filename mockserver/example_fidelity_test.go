package mockserver_test

import (
	"fmt"

	"github.com/catalogkit/datahub-go/mockserver"
)

// A write that creates an entity also writes the aspects GMS adds to a new
// entity, browsePathsV2 and dataPlatformInstance; WithDefaultAspects(false)
// keeps the entity to what was written.
func ExampleWithDefaultAspects() {
	const ds = "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
	for _, on := range []bool{true, false} {
		s := mockserver.New(mockserver.WithDefaultAspects(on))
		if err := s.PutAspectJSON(ds, "status", []byte(`{"removed":false}`)); err != nil {
			panic(err)
		}
		if paths, err := s.GetAspectJSON(ds, "browsePathsV2", 0); err == nil {
			fmt.Printf("%t: %s\n", on, paths)
		} else {
			fmt.Printf("%t: no browsePathsV2\n", on)
		}
		s.Close()
	}
	// Output:
	// true: {"path":[{"id":"db"}]}
	// false: no browsePathsV2
}
