// Package fieldpath reads and builds DataHub schema field paths.
//
// A simple (version-1) field path is the dotted path of a column, such as
// "address.zip". A version-2 path starts with the token "[version=2.0]" and
// puts type tokens between the field names, so that every field of a schema
// with unions and nested types has a unique path:
//
//	[version=2.0].[type=ABUnion].[type=union].[type=A].a.[type=string].f
//	[version=2.0].[key=True].[type=SimpleNested].[type=InnerRcd].nestedRcd
//
// The second path belongs to a key schema ("[key=True]" follows the version
// token). [IsV2] and [IsKey] recognise the forms, [Simplify] turns a version-2
// path into its simple form, and [Builder] writes version-2 paths:
//
//	fieldpath.New().Type("Foo").Field("a").Type("long").Field("f").String()
//	// [version=2.0].[type=Foo].a.[type=long].f
//
// Each field's name follows the type tokens of its value: the field's own
// type, or for an array or a map "array" or "map" and then the type of its
// elements. DataHub's Python connectors for table sources (Hive, Glue,
// Athena, BigQuery and others) name the table's row and every struct
// "struct", so the column address struct<city:string> has the paths
//
//	[version=2.0].[type=struct].[type=struct].address
//	[version=2.0].[type=struct].[type=struct].address.[type=string].city
//
// and the column items array<struct<sku:string>> has
//
//	[version=2.0].[type=struct].[type=array].[type=struct].items
//	[version=2.0].[type=struct].[type=array].[type=struct].items.[type=string].sku
//
// A schema of named records (Avro) has the record's name instead of
// "struct". The examples of [Builder] build these.
//
// # Simplify
//
// [Simplify] applies one rule: drop every dot-separated token that starts with
// "[" or ends with "]" and join the rest with dots; a path that does not start
// with "[version=2.0]" is returned unchanged. For well-formed version-2 paths
// this is exactly what DataHub's server does (Java
// SchemaFieldUtils.downgradeFieldPath) and what its Python SDK does in
// get_simple_field_path_from_v2_field_path:
//
//	[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a.[type=long].f → a.f
//	customer_id → customer_id
//
// (The version token holds a dot itself; split, it gives "[version=2" and
// "0]", which the rule drops as well.) On other paths the three differ
// slightly, and Simplify keeps to the rule above, which is also the Python one: an
// empty token (from "..") is kept, where Java drops it; a token such as
// "a[0]" or "[x" is dropped, where Java drops only tokens that both start with
// "[" and end with "]"; and "[version=2.0]a.b" gives "0]a.b", where Java
// removes the version token before splitting. A type token holding a dot,
// such as "[type=com.acme.Foo]", is split at its dots by all three, so its
// middle part survives. [Builder] refuses the names that lead to any of these.
//
// # Decision: no exception for array, map and union paths
//
// DataHub's Python SDK has a second simplifier, Dataset._simplify_field_path
// in its YAML dataset helper, that returns a path unchanged when it contains
// "[type=array]", "[type=map]" or "[type=union]", so that such paths keep
// their type tokens. Simplified, they can collide: the four paths
//
//	[version=2.0].[type=ABFooUnion].[type=union].a
//	[version=2.0].[type=ABFooUnion].[type=union].[type=A].a
//	[version=2.0].[type=ABFooUnion].[type=union].[type=B].a
//	[version=2.0].[type=ABFooUnion].[type=union].[type=array].[type=array].[type=Foo].a
//
// all simplify to "a". Simplify does not make that exception. DataHub's
// server applies the rule without it when it
// downgrades a path (SchemaFieldUtilsTest expects exactly these aliases to
// become "a"), and its general Python helper has no exception either; the
// exception belongs to one helper of one SDK feature. A caller that needs a
// unique name for every field should keep the version-2 path, which is what
// the server matches schema field paths against (updateDescription, for one,
// does not downgrade: its field path must equal a schema field path exactly).
package fieldpath
