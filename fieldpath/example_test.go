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
