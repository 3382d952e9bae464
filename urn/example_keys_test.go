package urn_test

import (
	"fmt"

	"github.com/catalogkit/datahub-go/urn"
)

// A schema container's URN, as DataHub's Snowflake connector makes it for
// the same schema, and its database's.
func ExampleSchemaKey() {
	k := urn.SchemaKey{
		ContainerKey: urn.ContainerKey{Platform: "snowflake", Instance: "my_instance"},
		Database:     "MY_DB",
		Schema:       "MY_SCHEMA",
	}
	schema, err := k.URN()
	if err != nil {
		panic(err)
	}
	db, err := k.Parent().URN()
	if err != nil {
		panic(err)
	}
	fmt.Println(schema)
	fmt.Println(db)
	// Output:
	// urn:li:container:66c5ac35f0bfc521dee6f7d9533a8056
	// urn:li:container:37d6500021cda2a0aa7ae1900eab5a9c
}

func ExampleGUID() {
	g, err := urn.GUID(map[string]any{"platform": "bigquery", "database": "my_bq_project"})
	if err != nil {
		panic(err)
	}
	fmt.Println(g)
	// Output: 1e476e4c36434ae8a7ea78e467e5b59d
}
