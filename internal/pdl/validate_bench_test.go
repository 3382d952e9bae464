package pdl_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

func decodeNumber(tb testing.TB, s string) any {
	tb.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		tb.Fatal(err)
	}
	return v
}

// wideSchemaMetadata returns a schemaMetadata value with n fields, each with tags and terms.
func wideSchemaMetadata(n int) string {
	var b bytes.Buffer
	b.WriteString(`{"schemaName":"t","platform":"urn:li:dataPlatform:hive","version":0,"hash":"","created":{"time":0,"actor":"urn:li:corpuser:unknown"},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"platformSchema":{"com.linkedin.schema.MySqlDDL":{"tableSchema":""}},"fields":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"fieldPath":"f%d","nullable":false,"type":{"type":{"com.linkedin.schema.StringType":{}}},"nativeDataType":"varchar","recursive":false,"isPartOfKey":false,"globalTags":{"tags":[{"tag":"urn:li:tag:pii"}]},"glossaryTerms":{"terms":[{"urn":"urn:li:glossaryTerm:t"}],"auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}}`, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

func BenchmarkValidate(b *testing.B) {
	cases := []struct {
		name, record, json string
	}{
		{"ownership", "com.linkedin.common.Ownership", ownershipPython},
		{"mlFeatureProperties", "com.linkedin.ml.metadata.MLFeatureProperties", mlFeaturePython},
		{"datasetProfile", "com.linkedin.dataset.DatasetProfile", datasetProfilePython},
		{"schemaMetadata-100-fields", "com.linkedin.schema.SchemaMetadata", wideSchemaMetadata(100)},
	}
	for _, c := range cases {
		v := decodeNumber(b, c.json)
		if err := pdl.Validate(c.record, v); err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.json)))
			b.ReportAllocs()
			for b.Loop() {
				if err := pdl.Validate(c.record, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
