package pdl

import "testing"

// BenchmarkConformsCompactHashIn is the mock's check, hash and compaction
// of aspect values as DataHub's Python emitter writes them (", " and ": "
// between tokens): an ownership (enum, URNs), an upstreamLineage (enums,
// URNs, a float) and a schemaMetadata (union members).
func BenchmarkConformsCompactHashIn(b *testing.B) {
	for _, bm := range []struct{ name, entity, record, value string }{
		{"ownership", "dataset", "com.linkedin.common.Ownership",
			`{"owners": [{"owner": "urn:li:corpuser:fbar", "type": "DATAOWNER"}], "ownerTypes": {}, "lastModified": {"time": 0, "actor": "urn:li:corpuser:fbar"}}`},
		{"upstreamLineage", "dataset", "com.linkedin.dataset.UpstreamLineage",
			`{"upstreams": [{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)", "type": "TRANSFORMED"}, ` +
				`{"auditStamp": {"time": 0, "actor": "urn:li:corpuser:unknown"}, "dataset": "urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)", "type": "COPY"}], ` +
				`"fineGrainedLineages": [{"upstreamType": "FIELD_SET", "upstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD),x)"], ` +
				`"downstreamType": "FIELD", "downstreams": ["urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),x)"], "confidenceScore": 1.0}]}`},
		{"schemaMetadata", "dataset", "com.linkedin.schema.SchemaMetadata",
			`{"schemaName": "t", "platform": "urn:li:dataPlatform:hive", "version": 0, "hash": "", "platformSchema": {"com.linkedin.schema.OtherSchema": {"rawSchema": ""}}, "fields": [` +
				`{"fieldPath": "a", "nullable": false, "type": {"type": {"com.linkedin.schema.StringType": {}}}, "nativeDataType": "string", "recursive": false, "isPartOfKey": false}, ` +
				`{"fieldPath": "b", "nullable": true, "type": {"type": {"com.linkedin.schema.NumberType": {}}}, "nativeDataType": "int", "recursive": false, "isPartOfKey": false}, ` +
				`{"fieldPath": "c", "nullable": true, "type": {"type": {"com.linkedin.schema.DateType": {}}}, "nativeDataType": "date", "recursive": false, "isPartOfKey": false}]}`},
	} {
		data := []byte(bm.value)
		if _, _, ok := ConformsCompactHashIn(bm.entity, bm.record, data, nil); !ok {
			b.Fatalf("%s: does not conform", bm.name)
		}
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				ConformsCompactHashIn(bm.entity, bm.record, data, nil)
			}
		})
	}
}
