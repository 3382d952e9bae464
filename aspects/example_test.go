package aspects_test

import (
	"encoding/json"
	"fmt"
	"log"

	"github.com/catalogkit/datahub-go/aspects"
)

// Optional fields are pointers set with Ptr; PDL defaults such as
// customProperties and tags are written even when left nil.
func Example() {
	props := aspects.DatasetProperties{
		Description: aspects.Ptr("One row per customer order."),
	}
	b, err := json.Marshal(props)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"customProperties":{},"description":"One row per customer order.","tags":[]}
}

// A schema with two fields; field types are DataHub's union JSON.
func Example_schemaMetadata() {
	schema := aspects.SchemaMetadata{
		SchemaName:     "analytics.orders",
		Platform:       "urn:li:dataPlatform:hive",
		PlatformSchema: aspects.OtherSchema{RawSchema: "CREATE TABLE orders (id BIGINT, tags ARRAY(VARCHAR))"},
		Fields: []aspects.SchemaField{
			{FieldPath: "id", Type: aspects.DataType(aspects.NumberType{}), NativeDataType: "bigint", IsPartOfKey: true},
			{FieldPath: "tags", Type: aspects.DataType(aspects.ArrayType{NestedType: []string{"varchar"}}), NativeDataType: "array(varchar)", Nullable: true},
		},
	}
	b, err := json.MarshalIndent(schema, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// {
	//   "schemaName": "analytics.orders",
	//   "platform": "urn:li:dataPlatform:hive",
	//   "version": 0,
	//   "created": {
	//     "time": 0,
	//     "actor": "urn:li:corpuser:unknown"
	//   },
	//   "lastModified": {
	//     "time": 0,
	//     "actor": "urn:li:corpuser:unknown"
	//   },
	//   "hash": "",
	//   "fields": [
	//     {
	//       "fieldPath": "id",
	//       "nullable": false,
	//       "type": {
	//         "type": {
	//           "com.linkedin.schema.NumberType": {}
	//         }
	//       },
	//       "nativeDataType": "bigint",
	//       "recursive": false,
	//       "isPartOfKey": true
	//     },
	//     {
	//       "fieldPath": "tags",
	//       "nullable": true,
	//       "type": {
	//         "type": {
	//           "com.linkedin.schema.ArrayType": {
	//             "nestedType": [
	//               "varchar"
	//             ]
	//           }
	//         }
	//       },
	//       "nativeDataType": "array(varchar)",
	//       "recursive": false,
	//       "isPartOfKey": false
	//     }
	//   ],
	//   "platformSchema": {
	//     "com.linkedin.schema.OtherSchema": {
	//       "rawSchema": "CREATE TABLE orders (id BIGINT, tags ARRAY(VARCHAR))"
	//     }
	//   }
	// }
}

// Decode turns the JSON of a named aspect, as GMS stores it, into its
// struct; absent defaulted fields take their PDL defaults.
func ExampleDecode() {
	v, err := aspects.Decode("ownership", []byte(`{"owners":[{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"}]}`))
	if err != nil {
		log.Fatal(err)
	}
	o := v.(*aspects.Ownership)
	fmt.Println(o.Owners[0].Owner, o.Owners[0].Type)
	fmt.Println(o.LastModified.Actor)

	_, err = aspects.Decode("ownership", []byte(`{"owners":[],"owner":"urn:li:corpuser:jdoe"}`))
	fmt.Println(err)
	// Output:
	// urn:li:corpuser:jdoe TECHNICAL_OWNER
	// urn:li:corpuser:unknown
	// aspects: decode ownership: field "owner": unknown field
}

// Lookup knows every aspect of DataHub's entity registry; Typed says
// whether this package has a struct for it.
func ExampleLookup() {
	for _, name := range []string{"schemaMetadata", "datasetProfile", "subTypes"} {
		info, ok := aspects.Lookup(name)
		fmt.Println(ok, info.RecordName, info.Timeseries, info.Typed)
	}
	// Output:
	// true com.linkedin.schema.SchemaMetadata false true
	// true com.linkedin.dataset.DatasetProfile true true
	// true com.linkedin.common.SubTypes false true
}

// LookupEntity tells which aspects an entity type accepts.
func ExampleLookupEntity() {
	e, ok := aspects.LookupEntity("mlFeature")
	if !ok {
		log.Fatal("no mlFeature entity")
	}
	fmt.Println(e.KeyAspect)
	fmt.Println(e.Allows("mlFeatureProperties"), e.Allows("schemaMetadata"))
	// Output:
	// mlFeatureKey
	// true false
}

// Hyperparameters use DataHub's union JSON, keyed by the value's type.
func ExampleHyperParameterValueType() {
	m := aspects.MLModelProperties{
		HyperParameters: map[string]aspects.HyperParameterValueType{
			"learning_rate": aspects.HyperParameterDouble(0.05),
			"max_depth":     aspects.HyperParameterInt(6),
		},
	}
	b, err := json.Marshal(m)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(b))
	// Output:
	// {"customProperties":{},"hyperParameters":{"learning_rate":{"double":0.05},"max_depth":{"int":6}},"tags":[]}
}

// Every aspect of DataHub's registry has a type. The generated ones follow
// the hand-written ones' rules: defaults written (partitionSpec), pointers
// for optional fields, enums as constants, and a union as a struct with one
// pointer per member, exactly one of them set.
func Example_generated() {
	run := aspects.DataProcessInstanceRunEvent{
		TimestampMillis: 1714521600000,
		Status:          aspects.DataProcessRunStatusComplete,
		Result:          &aspects.DataProcessInstanceRunResult{Type: aspects.RunResultTypeSuccess, NativeResultType: "FINISHED"},
	}
	props := aspects.StructuredProperties{
		Properties: []aspects.StructuredPropertyValueAssignment{{
			PropertyURN: "urn:li:structuredProperty:retention_days",
			Values:      []aspects.PrimitivePropertyValue{{Double: aspects.Ptr(90.0)}},
		}},
	}
	for _, a := range []aspects.Aspect{run, props} {
		b, err := json.Marshal(a)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(a.AspectName(), string(b))
	}
	// Output:
	// dataProcessInstanceRunEvent {"timestampMillis":1714521600000,"partitionSpec":{"type":"FULL_TABLE","partition":"FULL_TABLE_SNAPSHOT"},"status":"COMPLETE","result":{"type":"SUCCESS","nativeResultType":"FINISHED"}}
	// structuredProperties {"properties":[{"propertyUrn":"urn:li:structuredProperty:retention_days","values":[{"double":90}]}]}
}

// AppendJSON appends an aspect's JSON to a buffer, here after a prefix,
// without escaping HTML characters.
func ExampleAppendJSON() {
	buf := []byte("status: ")
	buf, err := aspects.AppendJSON(buf, aspects.Status{Removed: true, LifecycleStage: aspects.Ptr("<draft>")})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(buf))
	// Output: status: {"removed":true,"lifecycleStage":"<draft>"}
}

// AppendJSON writes an audit stamp's JSON onto bytes already written, as
// an encoder of a larger record does; <, > and & are written as they are.
func ExampleAuditStamp_AppendJSON() {
	stamp := aspects.AuditStamp{Time: 1700000000000, Actor: "urn:li:corpuser:jdoe", Message: aspects.Ptr("ingested <nightly>")}
	b := []byte(`{"created":`)
	b = stamp.AppendJSON(b)
	b = append(b, '}')
	fmt.Println(string(b))
	// Output: {"created":{"time":1700000000000,"actor":"urn:li:corpuser:jdoe","message":"ingested <nightly>"}}
}

// AppendJSONString writes an aspect as a Rest.li proposal carries it in
// aspect.value: its JSON as a string, every byte ASCII (é as \u00e9, its
// backslash escaped), read back by decoding the string, then the JSON.
func ExampleAppendJSONString() {
	b := []byte(`{"value":`)
	b, err := aspects.AppendJSONString(b, aspects.Status{Removed: true, LifecycleStage: aspects.Ptr(`"café"`)})
	if err != nil {
		log.Fatal(err)
	}
	b = append(b, '}')
	fmt.Println(string(b))
	var generic struct{ Value string }
	if err := json.Unmarshal(b, &generic); err != nil {
		log.Fatal(err)
	}
	v, err := aspects.Decode("status", []byte(generic.Value))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(generic.Value, *v.(*aspects.Status).LifecycleStage)
	// Output:
	// {"value":"{\"removed\":true,\"lifecycleStage\":\"\\\"caf\\u00e9\\\"\"}"}
	// {"removed":true,"lifecycleStage":"\"caf\u00e9\""} "café"
}
