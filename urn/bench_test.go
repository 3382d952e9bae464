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

// benchTyped are the common typed URNs: how each is built from its parts
// with its NewX function, and parsed from text with its ParseX function
// (TestBenchTyped checks that both succeed).
var benchTyped = []struct {
	name  string
	build func() error
	parse func(string) error
	text  string
}{
	{"dataset", func() error { _, err := NewDataset("hive", "db.t", ""); return err },
		func(s string) error { _, err := ParseDataset(s); return err },
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"},
	{"schemaField", func() error {
		_, err := NewSchemaField(benchDataset, "[version=2.0].[type=Foo].a.[type=long].f")
		return err
	},
		func(s string) error { _, err := ParseSchemaField(s); return err },
		"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),[version=2.0].[type=Foo].a.[type=long].f)"},
	{"dataJob", func() error { _, err := NewDataJob(benchFlow, "load"); return err },
		func(s string) error { _, err := ParseDataJob(s); return err },
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)"},
	{"dataFlow", func() error { _, err := NewDataFlow("airflow", "daily", "PROD"); return err },
		func(s string) error { _, err := ParseDataFlow(s); return err },
		"urn:li:dataFlow:(airflow,daily,PROD)"},
	{"chart", func() error { _, err := NewChart("looker", "dashboard_elements.42"); return err },
		func(s string) error { _, err := ParseChart(s); return err },
		"urn:li:chart:(looker,dashboard_elements.42)"},
	{"dashboard", func() error { _, err := NewDashboard("looker", "dashboards.7"); return err },
		func(s string) error { _, err := ParseDashboard(s); return err },
		"urn:li:dashboard:(looker,dashboards.7)"},
	{"corpuser", func() error { _, err := NewCorpUser("jdoe"); return err },
		func(s string) error { _, err := ParseCorpUser(s); return err },
		"urn:li:corpuser:jdoe"},
	{"corpGroup", func() error { _, err := NewCorpGroup("data-eng"); return err },
		func(s string) error { _, err := ParseCorpGroup(s); return err },
		"urn:li:corpGroup:data-eng"},
	{"tag", func() error { _, err := NewTag("pii"); return err },
		func(s string) error { _, err := ParseTag(s); return err },
		"urn:li:tag:pii"},
	{"glossaryTerm", func() error { _, err := NewGlossaryTerm("Classification.Sensitive"); return err },
		func(s string) error { _, err := ParseGlossaryTerm(s); return err },
		"urn:li:glossaryTerm:Classification.Sensitive"},
	{"container", func() error { _, err := NewContainer("b5e95fce839e7d78151ed7e0a7420d84"); return err },
		func(s string) error { _, err := ParseContainer(s); return err },
		"urn:li:container:b5e95fce839e7d78151ed7e0a7420d84"},
	{"domain", func() error { _, err := NewDomain("marketing"); return err },
		func(s string) error { _, err := ParseDomain(s); return err },
		"urn:li:domain:marketing"},
	{"mlFeature", func() error { _, err := NewMLFeature("users", "age"); return err },
		func(s string) error { _, err := ParseMLFeature(s); return err },
		"urn:li:mlFeature:(users,age)"},
	{"mlFeatureTable", func() error { _, err := NewMLFeatureTable("feast", "users"); return err },
		func(s string) error { _, err := ParseMLFeatureTable(s); return err },
		"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)"},
}

var (
	benchDataset = MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	benchFlow    = MustParse("urn:li:dataFlow:(airflow,daily,PROD)")
)

// BenchmarkNew builds each common typed URN from its parts.
func BenchmarkNew(b *testing.B) {
	for _, c := range benchTyped {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.build(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkParseTyped parses each common typed URN with its ParseX function.
func BenchmarkParseTyped(b *testing.B) {
	for _, c := range benchTyped {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.parse(c.text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
