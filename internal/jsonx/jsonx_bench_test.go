package jsonx

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// schema100 is a schemaMetadata with 100 fields, indented (to compact) and
// compact (to check).
func schema100() (indented, compact []byte) {
	var fields []string
	for i := range 100 {
		fields = append(fields, fmt.Sprintf(`{"fieldPath":"field_%d","nullable":false,"description":"the field number %d of the table","type":{"type":{"com.linkedin.schema.StringType":{}}},"nativeDataType":"VARCHAR(%d)","recursive":false,"isPartOfKey":%v}`, i, i, i, i%7 == 0))
	}
	doc := `{"schemaName":"db.t","platform":"urn:li:dataPlatform:hive","version":0,"created":{"time":0,"actor":"urn:li:corpuser:unknown"},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"hash":"","platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"fields":[` + strings.Join(fields, ",") + `]}`
	var buf bytes.Buffer
	if err := json.Indent(&buf, []byte(doc), "", "  "); err != nil {
		panic(err)
	}
	return buf.Bytes(), []byte(doc)
}

// The hand-written JSON helpers of internal/pdl against the standard
// library's, on the same document.
func BenchmarkCompact(b *testing.B) {
	in, _ := schema100()
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			var buf bytes.Buffer
			buf.Grow(len(in))
			if err := json.Compact(&buf, in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pdl", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			if _, ok := pdl.AppendCompact(make([]byte, 0, len(in)), in); !ok {
				b.Fatal("not compacted")
			}
		}
	})
}

func BenchmarkValid(b *testing.B) {
	_, in := schema100()
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			if !json.Valid(in) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("pdl", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		for b.Loop() {
			if !pdl.Valid(in) {
				b.Fatal("invalid")
			}
		}
	})
}
