package urn

import (
	"errors"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/google/go-cmp/cmp"
)

// built wraps a builder call for the tables below.
func built[T URN](v T, err error) func() (URN, error) {
	return func() (URN, error) {
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}

func TestBuilders(t *testing.T) {
	t.Parallel()
	hive := MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	tests := []struct {
		name  string
		build func() (URN, error)
		want  string
	}{
		// WIRE.md §7: make_dataset_urn(platform, name, env="PROD").
		{"dataset default env", built(NewDataset("hive", "db.t", "")), "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"},
		{"dataset full platform", built(NewDataset("urn:li:dataPlatform:foo", "bar", "PROD")), "urn:li:dataset:(urn:li:dataPlatform:foo,bar,PROD)"},
		{"dataset env upper-cased", built(NewDataset("hdfs", "PageViewEvent", "ei")), "urn:li:dataset:(urn:li:dataPlatform:hdfs,PageViewEvent,EI)"},
		{"dataset mixed-case env", built(NewDataset("hive", "t", "Non_Prod")), "urn:li:dataset:(urn:li:dataPlatform:hive,t,NON_PROD)"},
		{"dataset escapes name", built(NewDataset("hive", "db.t(1),x", "prod")), "urn:li:dataset:(urn:li:dataPlatform:hive,db.t%281%29%2Cx,PROD)"},
		{"dataset keeps percent and slash", built(NewDataset("s3", "s3://b/k 100%", "")), "urn:li:dataset:(urn:li:dataPlatform:s3,s3://b/k 100%,PROD)"},
		{"dataset escapes bare platform", built(NewDataset("my,platform", "t", "")), "urn:li:dataset:(urn:li:dataPlatform:my%2Cplatform,t,PROD)"},
		{"dataset unit separator", built(NewDataset("hive", "a\u241fb", "")), "urn:li:dataset:(urn:li:dataPlatform:hive,a%E2%90%9Fb,PROD)"},
		// mlFeature: make_ml_feature_urn(table, feature) shape, parts escaped.
		{"mlFeature", built(NewMLFeature("my_ns", "my_feature")), "urn:li:mlFeature:(my_ns,my_feature)"},
		{"mlFeature escapes", built(NewMLFeature("t(1)", "a,b")), "urn:li:mlFeature:(t%281%29,a%2Cb)"},
		{"mlFeatureTable", built(NewMLFeatureTable("feast", "users")), "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)"},
		{"mlFeatureTable full platform", built(NewMLFeatureTable("urn:li:dataPlatform:feast", "users")), "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)"},
		{"mlModel", built(NewMLModel("sagemaker", "churn", "")), "urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)"},
		{"mlModel env", built(NewMLModel("sagemaker", "churn", "dev")), "urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,DEV)"},
		{"mlModelGroup", built(NewMLModelGroup("urn:li:dataPlatform:sagemaker", "churn", "sandbox")), "urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn,SANDBOX)"},
		{"corpuser bare", built(NewCorpUser("jdoe")), "urn:li:corpuser:jdoe"},
		{"corpuser full", built(NewCorpUser("urn:li:corpuser:jdoe")), "urn:li:corpuser:jdoe"},
		{"corpuser escapes", built(NewCorpUser("a(b)")), "urn:li:corpuser:a%28b%29"},
		{"dataPlatform bare", built(NewDataPlatform("hive")), "urn:li:dataPlatform:hive"},
		{"dataPlatform full", built(NewDataPlatform("urn:li:dataPlatform:hive")), "urn:li:dataPlatform:hive"},
		{"test", built(NewTest("x")), "urn:li:test:x"},
		{"tag", built(NewTag("pii")), "urn:li:tag:pii"},
		{"tag full", built(NewTag("urn:li:tag:pii")), "urn:li:tag:pii"},
		{"glossaryTerm", built(NewGlossaryTerm("Classification.Sensitive")), "urn:li:glossaryTerm:Classification.Sensitive"},
		// WIRE.md §6: the field path is escaped inside the schemaField URN.
		{"schemaField escapes", built(NewSchemaField(hive, "Split 1 - final (Investment Income Details")), "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),Split 1 - final %28Investment Income Details)"},
		{"schemaField v2 path", built(NewSchemaField(hive, "[version=2.0].[type=Foo].a.[type=long].f")), "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),[version=2.0].[type=Foo].a.[type=long].f)"},
		{"schemaField generic parent", built(NewSchemaField(Generic{entityType: "dataset", id: "(urn:li:dataPlatform:hive,db.t,PROD)"}, "a")), "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),a)"},
		{"generic one part", built(NewGeneric("myEntity", "x")), "urn:li:myEntity:x"},
		{"generic tuple", built(NewGeneric("myEntity", "looker", "dashboards.thelook")), "urn:li:myEntity:(looker,dashboards.thelook)"},
		{"generic nested", built(NewGeneric("myEntity", "urn:li:dataFlow:(airflow,daily,PROD)", "lo,ad")), "urn:li:myEntity:(urn:li:dataFlow:(airflow,daily,PROD),lo%2Cad)"},
		{"generic escapes single part", built(NewGeneric("x", "(a)")), "urn:li:x:%28a%29"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.build()
			if err != nil {
				t.Fatalf("build: %v", err)
			}
			if diff := cmp.Diff(tt.want, got.String()); diff != "" {
				t.Errorf("String() mismatch (-want +got):\n%s", diff)
			}
			back, err := Parse(got.String())
			if err != nil {
				t.Fatalf("Parse(%q): %v", got.String(), err)
			}
			if diff := cmp.Diff(got, back, exportAll); diff != "" {
				t.Errorf("round trip mismatch (-built +parsed):\n%s", diff)
			}
		})
	}
}

func TestBuilderErrors(t *testing.T) {
	t.Parallel()
	fabric := "(one of DEV, TEST, QA, UAT, EI, PRE, STG, NON_PROD, PROD, CORP, RVW, PRD, TST, SIT, SBX, SANDBOX, CERT)"
	long := strings.Repeat("n", MaxEncodedLength)
	tests := []struct {
		name  string
		build func() (URN, error)
		want  string
	}{
		{"dataset empty platform", built(NewDataset("", "t", "")), `urn: invalid dataset urn "urn:li:dataset:(,t,PROD)": empty platform`},
		{"dataset other urn as platform", built(NewDataset("urn:li:corpuser:x", "t", "")), `urn: invalid dataset urn "urn:li:dataset:(urn:li:corpuser:x,t,PROD)": platform "urn:li:corpuser:x" is not a dataPlatform urn`},
		{"dataset bad full platform", built(NewDataset("urn:li:dataPlatform:a(b)", "t", "")), `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:a(b),t,PROD)": platform: name contains the reserved character "("`},
		{"dataset platform whitespace", built(NewDataset("hive ", "t", "")), `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:hive ,t,PROD)": platform: trailing whitespace`},
		{"dataset empty name", built(NewDataset("hive", "", "")), `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:hive,,PROD)": empty name`},
		{"dataset bad env", built(NewDataset("hive", "t", "live")), `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:hive,t,live)": env "live" is not a FabricType value ` + fabric},
		{"dataset too long", built(NewDataset("hive", long, "")), `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:hive,` + long[:maxQuoted-len("urn:li:dataset:(urn:li:dataPlatform:hive,")] + `...": 579 bytes when URL-encoded, over DataHub's limit of 512`},
		{"mlModel bad env", built(NewMLModel("s", "m", "x")), `urn: invalid mlModel urn "urn:li:mlModel:(urn:li:dataPlatform:s,m,x)": env "x" is not a FabricType value ` + fabric},
		{"mlModelGroup empty name", built(NewMLModelGroup("s", "", "")), `urn: invalid mlModelGroup urn "urn:li:mlModelGroup:(urn:li:dataPlatform:s,,PROD)": empty name`},
		{"mlFeature empty namespace", built(NewMLFeature("", "f")), `urn: invalid mlFeature urn "urn:li:mlFeature:(,f)": empty namespace`},
		{"mlFeature empty name", built(NewMLFeature("ns", "")), `urn: invalid mlFeature urn "urn:li:mlFeature:(ns,)": empty name`},
		{"mlFeatureTable empty platform", built(NewMLFeatureTable("", "t")), `urn: invalid mlFeatureTable urn "urn:li:mlFeatureTable:(,t)": empty platform`},
		{"mlFeatureTable empty name", built(NewMLFeatureTable("feast", "")), `urn: invalid mlFeatureTable urn "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,)": empty name`},
		{"corpuser empty", built(NewCorpUser("")), `urn: invalid corpuser urn "urn:li:corpuser:": empty id`},
		{"corpuser other urn", built(NewCorpUser("urn:li:corpGroup:x")), `urn: invalid corpuser urn "urn:li:corpGroup:x": not a corpuser urn`},
		{"corpuser bad full urn", built(NewCorpUser("urn:li:corpuser:a,b")), `urn: invalid corpuser urn "urn:li:corpuser:a,b": id contains the reserved character ","`},
		{"corpuser whitespace", built(NewCorpUser("x ")), `urn: invalid corpuser urn "urn:li:corpuser:x ": trailing whitespace`},
		{"dataPlatform empty", built(NewDataPlatform("")), `urn: invalid dataPlatform urn "urn:li:dataPlatform:": empty name`},
		{"test empty", built(NewTest("")), `urn: invalid test urn "urn:li:test:": empty id`},
		{"tag empty", built(NewTag("")), `urn: invalid tag urn "urn:li:tag:": empty name`},
		{"glossaryTerm other urn", built(NewGlossaryTerm("urn:li:tag:x")), `urn: invalid glossaryTerm urn "urn:li:tag:x": not a glossaryTerm urn`},
		{"schemaField nil parent", built(NewSchemaField(nil, "f")), `urn: invalid schemaField urn "urn:li:schemaField:(,f)": empty parent`},
		{"schemaField zero parent", built(NewSchemaField(Dataset{}, "f")), `urn: invalid schemaField urn "urn:li:schemaField:(,f)": empty parent`},
		{"schemaField empty path", built(NewSchemaField(MustParse("urn:li:corpuser:x"), "")), `urn: invalid schemaField urn "urn:li:schemaField:(urn:li:corpuser:x,)": empty field path`},
		{"schemaField bad parent", built(NewSchemaField(Generic{entityType: "dataset", id: "x"}, "f")), `urn: invalid schemaField urn "urn:li:schemaField:(urn:li:dataset:x,f)": parent: want 3 parts, got 1`},
		{"generic bad entity type", built(NewGeneric("Chart", "x")), `urn: invalid urn "urn:li:Chart:": entity type "Chart" must be a lower-case letter followed by letters, digits or "_"`},
		{"generic no parts", built(NewGeneric("chart")), `urn: invalid chart urn "urn:li:chart:()": no parts`},
		{"generic empty part", built(NewGeneric("chart", "a", "")), `urn: invalid chart urn "urn:li:chart:(a,)": part 2 of 2 is empty`},
		{"generic bad nested part", built(NewGeneric("x", "urn:li:Y:a", "b")), `urn: invalid x urn "urn:li:x:(urn:li:Y:a,b)": part 1: entity type "Y" must be a lower-case letter followed by letters, digits or "_"`},
		{"generic nested part splits", built(NewGeneric("x", "urn:li:y:a,b", "c")), `urn: invalid x urn "urn:li:x:(urn:li:y:a,b,c)": the nested urns split into 3 parts, not 2`},
		{"generic nested unbalanced", built(NewGeneric("x", "urn:li:y:(a", "c")), `urn: invalid x urn "urn:li:x:(urn:li:y:(a,c)": part 1: mismatched parentheses`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.build()
			if err == nil {
				t.Fatalf("build = %v, want error", got)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("error %#v is not a *ParseError matching datahub.ErrValidation", err)
			}
		})
	}
}

func TestAccessors(t *testing.T) {
	t.Parallel()
	d, err := NewDataset("hive", "db.t(1)", "dev")
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewMLFeature("users", "age,years")
	if err != nil {
		t.Fatal(err)
	}
	ft, err := NewMLFeatureTable("feast", "users")
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMLModel("sagemaker", "churn", "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewMLModelGroup("sagemaker", "churn", "qa")
	if err != nil {
		t.Fatal(err)
	}
	sf, err := NewSchemaField(d, "a.(b)")
	if err != nil {
		t.Fatal(err)
	}
	gen, err := NewGeneric("myEntity", "urn:li:dataFlow:(airflow,daily,PROD)", "load")
	if err != nil {
		t.Fatal(err)
	}
	got := [][]string{
		{d.EntityType(), d.Platform().String(), d.Platform().Name(), d.Name(), d.Env()},
		{f.EntityType(), f.Namespace(), f.Name()},
		{ft.EntityType(), ft.Platform().String(), ft.Name()},
		{m.EntityType(), m.Platform().Name(), m.Name(), m.Env()},
		{g.EntityType(), g.Platform().Name(), g.Name(), g.Env()},
		{sf.EntityType(), sf.Parent().String(), sf.FieldPath()},
		append([]string{gen.EntityType(), gen.ID()}, gen.Parts()...),
		{MustParse("urn:li:corpuser:x").(CorpUser).ID(), MustParse("urn:li:test:y").(Test).ID(),
			MustParse("urn:li:tag:z").(Tag).Name(), MustParse("urn:li:glossaryTerm:w").(GlossaryTerm).Name()},
		{MustParse("urn:li:corpuser:x").EntityType(), MustParse("urn:li:dataPlatform:x").EntityType(),
			MustParse("urn:li:test:x").EntityType(), MustParse("urn:li:tag:x").EntityType(), MustParse("urn:li:glossaryTerm:x").EntityType()},
	}
	want := [][]string{
		{"dataset", "urn:li:dataPlatform:hive", "hive", "db.t%281%29", "DEV"},
		{"mlFeature", "users", "age%2Cyears"},
		{"mlFeatureTable", "urn:li:dataPlatform:feast", "users"},
		{"mlModel", "sagemaker", "churn", "PROD"},
		{"mlModelGroup", "sagemaker", "churn", "QA"},
		{"schemaField", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t%281%29,DEV)", "a.%28b%29"},
		{"myEntity", "(urn:li:dataFlow:(airflow,daily,PROD),load)", "urn:li:dataFlow:(airflow,daily,PROD)", "load"},
		{"x", "y", "z", "w"},
		{"corpuser", "dataPlatform", "test", "tag", "glossaryTerm"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("accessors mismatch (-want +got):\n%s", diff)
	}
	if sf.Parent() != URN(d) {
		t.Errorf("Parent() = %#v, want %#v", sf.Parent(), d)
	}
}

func TestZeroValues(t *testing.T) {
	t.Parallel()
	zeros := []URN{Dataset{}, MLFeature{}, MLFeatureTable{}, MLModel{}, MLModelGroup{}, CorpUser{},
		DataPlatform{}, Test{}, Tag{}, GlossaryTerm{}, SchemaField{}, Generic{}}
	for _, z := range zeros {
		if z.String() != "" {
			t.Errorf("%T{}.String() = %q, want \"\"", z, z.String())
		}
	}
	if (Generic{}).Parts() != nil {
		t.Errorf("Generic{}.Parts() = %q, want nil", Generic{}.Parts())
	}
}

// TestBenchTyped checks that every benchmark of BenchmarkNew and
// BenchmarkParseTyped succeeds.
func TestBenchTyped(t *testing.T) {
	for _, c := range benchTyped {
		if err := c.build(); err != nil {
			t.Errorf("%s: build: %v", c.name, err)
		}
		if err := c.parse(c.text); err != nil {
			t.Errorf("%s: parse: %v", c.name, err)
		}
	}
}

// TestEncodedConstants checks the encoded lengths the builders' fast path
// adds up: the prefixes', and that every typed entity type is as long
// encoded as it is.
func TestEncodedConstants(t *testing.T) {
	if encodedLen(prefix) != encodedPrefix || encodedLen(platformPrefix) != encodedPlatformPrefix {
		t.Fatalf("encodedPrefix %d, encodedPlatformPrefix %d; want %d, %d",
			encodedPrefix, encodedPlatformPrefix, encodedLen(prefix), encodedLen(platformPrefix))
	}
	for _, s := range generatedSamples {
		if et := MustParse(s).EntityType(); encodedLen(et) != len(et) {
			t.Errorf("entity type %q is %d bytes encoded", et, encodedLen(et))
		}
	}
	for _, et := range []string{TypeDataset, TypeMLFeature, TypeMLFeatureTable, TypeMLModel, TypeMLModelGroup, TypeSchemaField} {
		if encodedLen(et) != len(et) {
			t.Errorf("entity type %q is %d bytes encoded", et, encodedLen(et))
		}
	}
}
