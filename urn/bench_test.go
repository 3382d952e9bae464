package urn

import "testing"

var benchURNs = []string{
	"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)",
	"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),[version=2.0].[type=Foo].a.[type=long].f)",
	"urn:li:corpuser:jdoe",
	"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)",
}

func BenchmarkParse(b *testing.B) {
	for _, s := range benchURNs {
		u := MustParse(s)
		b.Run(u.EntityType(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkString(b *testing.B) {
	for _, s := range benchURNs {
		u := MustParse(s)
		b.Run(u.EntityType(), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if u.String() == "" {
					b.Fatal("empty")
				}
			}
		})
	}
}

func BenchmarkNewDataset(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewDataset("hive", "db.t", ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPathEscape(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = PathEscape(benchURNs[0])
	}
}
