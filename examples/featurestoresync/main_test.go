package main

import (
	"context"
	"fmt"
	"os"
)

// The job run three times against the embedded mock: the second run, over
// an unchanged store, writes nothing; the third removes the dropped table
// and its features.
func Example() {
	if err := run(context.Background(), "", "", false, os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// first run: 11 written (23 aspects), 0 unchanged, 0 removed, 0 failed
	// second run, nothing changed: 0 written (0 aspects), 11 unchanged, 0 removed, 0 failed
	// third run, driver_location dropped: 0 written (0 aspects), 8 unchanged, 3 removed, 0 failed
	//   removed urn:li:mlFeature:(driver_location,lat)
	//   removed urn:li:mlFeature:(driver_location,lon)
	//   removed urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,driver_location)
}
