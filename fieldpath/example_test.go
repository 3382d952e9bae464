package fieldpath_test

import (
	"fmt"

	"github.com/catalogkit/datahub-go/fieldpath"
)

func Example() {
	path := "[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a.[type=long].f"
	fmt.Println(fieldpath.IsV2(path))
	fmt.Println(fieldpath.Simplify(path))
	fmt.Println(fieldpath.Simplify("customer_id"))
	// Output:
	// true
	// a.f
	// customer_id
}

func ExampleBuilder() {
	union := fieldpath.New().Type("ABUnion").Type("union")
	for _, member := range []string{"A", "B"} {
		path, err := union.Type(member).Field("a").Type("string").Field("f").Build()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(path, "→", fieldpath.Simplify(path))
	}
	key := fieldpath.NewKey().Type("SimpleNested").Type("InnerRcd").Field("nestedRcd")
	fmt.Println(key, fieldpath.IsKey(key.String()))

	_, err := fieldpath.New().Type("com.acme.Foo").Field("a").Build()
	fmt.Println(err)
	// Output:
	// [version=2.0].[type=ABUnion].[type=union].[type=A].a.[type=string].f → a.f
	// [version=2.0].[type=ABUnion].[type=union].[type=B].a.[type=string].f → a.f
	// [version=2.0].[key=True].[type=SimpleNested].[type=InnerRcd].nestedRcd true
	// fieldpath: type name "com.acme.Foo" holds ".", "[" or "]": datahub: validation failed
}

// A struct column of a table, as DataHub's Python connectors for Hive, Glue,
// Athena, BigQuery and other table sources write it: the table's row is a
// record of type "struct", and so is each struct column. Here the column is
// address struct<city:string,zip:string>; the struct column has a path of
// its own, and each of its fields one under it.
func ExampleBuilder_nestedStruct() {
	row := fieldpath.New().Type("struct") // the table's row
	address := row.Type("struct").Field("address")
	fmt.Println(address)
	for _, f := range []struct{ name, typ string }{{"city", "string"}, {"zip", "string"}} {
		path, err := address.Type(f.typ).Field(f.name).Build()
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(path, "→", fieldpath.Simplify(path))
	}
	// Output:
	// [version=2.0].[type=struct].[type=struct].address
	// [version=2.0].[type=struct].[type=struct].address.[type=string].city → address.city
	// [version=2.0].[type=struct].[type=struct].address.[type=string].zip → address.zip
}

// An array of structs, items array<struct<sku:string,qty:int>>: the array's
// type token comes before its element's, then the column's name. An array of
// a plain type, tags array<string>, has the element's type instead.
func ExampleBuilder_arrayOfStructs() {
	row := fieldpath.New().Type("struct")
	items := row.Type("array").Type("struct").Field("items")
	fmt.Println(items)
	fmt.Println(items.Type("string").Field("sku"))
	fmt.Println(items.Type("int").Field("qty"))
	fmt.Println(row.Type("array").Type("string").Field("tags"))
	// Output:
	// [version=2.0].[type=struct].[type=array].[type=struct].items
	// [version=2.0].[type=struct].[type=array].[type=struct].items.[type=string].sku
	// [version=2.0].[type=struct].[type=array].[type=struct].items.[type=int].qty
	// [version=2.0].[type=struct].[type=array].[type=string].tags
}

// A schema of named records, as from Avro: each record's type token holds
// its name (short, without namespace). A User record with a field address of
// record type Address, which has a string field city:
func ExampleBuilder_namedRecords() {
	fmt.Println(fieldpath.New().Type("User").Type("Address").Field("address").Type("string").Field("city"))
	// Output:
	// [version=2.0].[type=User].[type=Address].address.[type=string].city
}
