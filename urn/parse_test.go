package urn

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/google/go-cmp/cmp"
)

// exportAll lets cmp look inside the unexported fields of the URN types.
var exportAll = cmp.Exporter(func(reflect.Type) bool { return true })

// ds returns the Dataset of its parts, as a parse of its text gives it.
func ds(platform, name, env string) Dataset {
	head := "urn:li:dataset:(urn:li:dataPlatform:" + platform
	text := head + "," + name + "," + env + ")"
	plain := true
	for _, c := range []byte(text) {
		plain = plain && c >= 0x20 && c < 0x80 && c != '"' && c != '\\'
	}
	return Dataset{text: text, comma1: int32(len(head)), comma2: int32(len(head) + 1 + len(name)), plain: plain}
}

func TestParse(t *testing.T) {
	t.Parallel()
	hive := "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
	long := "urn:li:corpuser:" + strings.Repeat("a", MaxEncodedLength-len("urn%3Ali%3Acorpuser%3A"))
	tests := []struct {
		in   string
		want URN
	}{
		{hive, ds("hive", "db.t", "PROD")},
		{"urn:li:dataset:(urn:li:dataPlatform:foo,bar,PROD)", ds("foo", "bar", "PROD")},
		{"urn:li:dataset:(urn:li:dataPlatform:hdfs,PageViewEvent,EI)", ds("hdfs", "PageViewEvent", "EI")},
		{"urn:li:dataset:(urn:li:dataPlatform:hive,db.t%281%29%2Cx,NON_PROD)", ds("hive", "db.t%281%29%2Cx", "NON_PROD")},
		{"urn:li:dataset:(urn:li:dataPlatform:s3,s3://b/k with space %,SANDBOX)", ds("s3", "s3://b/k with space %", "SANDBOX")},
		{"urn:li:mlFeature:(my_ns,my_feature)", MLFeature{namespace: "my_ns", name: "my_feature"}},
		{"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)", MLFeatureTable{platform: DataPlatform{name: "feast"}, name: "users"}},
		{"urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)", MLModel{platform: DataPlatform{name: "sagemaker"}, name: "churn", env: "PROD"}},
		{"urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn,DEV)", MLModelGroup{platform: DataPlatform{name: "sagemaker"}, name: "churn", env: "DEV"}},
		{"urn:li:corpuser:jdoe", CorpUser{id: "jdoe"}},
		{"urn:li:corpuser:jdoe@example.com", CorpUser{id: "jdoe@example.com"}},
		{"urn:li:dataPlatform:kafka", DataPlatform{name: "kafka"}},
		{"urn:li:test:x", Test{id: "x"}},
		{"urn:li:tag:x", Tag{name: "x"}},
		{"urn:li:glossaryTerm:Classification.Sensitive", GlossaryTerm{name: "Classification.Sensitive"}},
		{
			"urn:li:schemaField:(" + hive + ",Split 1 - final %28Investment Income Details)",
			SchemaField{parent: ds("hive", "db.t", "PROD"), fieldPath: "Split 1 - final %28Investment Income Details"},
		},
		{
			"urn:li:schemaField:(" + hive + ",[version=2.0].[type=Foo].a.[type=long].f)",
			SchemaField{parent: ds("hive", "db.t", "PROD"), fieldPath: "[version=2.0].[type=Foo].a.[type=long].f"},
		},
		{
			"urn:li:schemaField:(urn:li:chart:(looker,c1),x)",
			SchemaField{parent: Chart{dashboardTool: "looker", chartID: "c1"}, fieldPath: "x"},
		},
		{
			// A schema field is exempt from the length limit, and so is its parent.
			"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive," + strings.Repeat("n", 600) + ",PROD),f)",
			SchemaField{parent: ds("hive", strings.Repeat("n", 600), "PROD"), fieldPath: "f"},
		},
		{"urn:li:dataJob:(urn:li:dataFlow:(airflow,daily,PROD),load)", DataJob{flow: DataFlow{orchestrator: "airflow", flowID: "daily", cluster: "PROD"}, jobID: "load"}},
		{"urn:li:myEntity:(urn:li:dataFlow:(airflow,daily,PROD),load)", Generic{entityType: "myEntity", id: "(urn:li:dataFlow:(airflow,daily,PROD),load)"}},
		{"urn:li:dashboard:(looker,dashboards.thelook)", Dashboard{dashboardTool: "looker", dashboardID: "dashboards.thelook"}},
		{"urn:li:myEntity:(looker,dashboards.thelook)", Generic{entityType: "myEntity", id: "(looker,dashboards.thelook)"}},
		{"urn:li:x:(a)", Generic{entityType: "x", id: "(a)"}},
		{"urn:li:x:a,b", Generic{entityType: "x", id: "a,b"}},
		{"urn:li:x:(a)b", Generic{entityType: "x", id: "(a)b"}},
		{"urn:li:x_Y9:a:b:c", Generic{entityType: "x_Y9", id: "a:b:c"}},
		{long, CorpUser{id: long[len("urn:li:corpuser:"):]}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got, exportAll); diff != "" {
				t.Errorf("Parse(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if diff := cmp.Diff(tt.in, got.String()); diff != "" {
				t.Errorf("String() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tooLong := "urn:li:corpuser:" + strings.Repeat("a", MaxEncodedLength-len("urn%3Ali%3Acorpuser%3A")+1)
	deep := "urn:li:corpuser:x"
	for range maxDepth + 1 {
		deep = "urn:li:schemaField:(" + deep + ",f)"
	}
	tests := []struct {
		name, in string
		parse    func(string) (URN, error)
		want     string
	}{
		{"empty", "", Parse, `urn: invalid urn "": empty string`},
		{"leading space", " urn:li:corpuser:x", Parse, `urn: invalid urn " urn:li:corpuser:x": leading whitespace`},
		{"trailing newline", "urn:li:corpuser:x\n", Parse, `urn: invalid urn "urn:li:corpuser:x\n": trailing whitespace`},
		{"trailing nbsp", "urn:li:corpuser:x\u00a0", Parse, `urn: invalid urn "urn:li:corpuser:x\u00a0": trailing whitespace`},
		{"unit separator", "urn:li:corpuser:a\u241fb", Parse, `urn: invalid urn "urn:li:corpuser:a␟b": contains the reserved character "␟" (U+241F)`},
		{"no prefix", "urn:corpuser:x", Parse, `urn: invalid urn "urn:corpuser:x": missing "urn:li:" prefix`},
		{"other namespace", "urn:xx:corpuser:x", Parse, `urn: invalid urn "urn:xx:corpuser:x": missing "urn:li:" prefix`},
		{"no id", "urn:li:corpuser", Parse, `urn: invalid urn "urn:li:corpuser": missing ":" after the entity type`},
		{"empty entity type", "urn:li::x", Parse, `urn: invalid urn "urn:li::x": empty entity type`},
		{"upper-case entity type", "urn:li:CorpUser:x", Parse, `urn: invalid urn "urn:li:CorpUser:x": entity type "CorpUser" must be a lower-case letter followed by letters, digits or "_"`},
		{"entity type with dash", "urn:li:corp-user:x", Parse, `urn: invalid urn "urn:li:corp-user:x": entity type "corp-user" must be a lower-case letter followed by letters, digits or "_"`},
		{"entity type starts with underscore", "urn:li:_x:x", Parse, `urn: invalid urn "urn:li:_x:x": entity type "_x" must be a lower-case letter followed by letters, digits or "_"`},
		{"empty id", "urn:li:corpuser:", Parse, `urn: invalid corpuser urn "urn:li:corpuser:": empty entity id`},
		{"too long", tooLong, Parse, `urn: invalid corpuser urn "` + tooLong[:maxQuoted] + `...": 513 bytes when URL-encoded, over DataHub's limit of 512`},
		{"unclosed tuple", "urn:li:x:(a,(b)", Parse, `urn: invalid x urn "urn:li:x:(a,(b)": mismatched parentheses`},
		{"tuple closes early", "urn:li:x:(a)(b)", Parse, `urn: invalid x urn "urn:li:x:(a)(b)": mismatched parentheses`},
		{"single id unclosed", "urn:li:x:a(b", Parse, `urn: invalid x urn "urn:li:x:a(b": mismatched parentheses`},
		{"single id closes early", "urn:li:x:a)b(", Parse, `urn: invalid x urn "urn:li:x:a)b(": mismatched parentheses`},
		{"empty part", "urn:li:x:(a,,b)", Parse, `urn: invalid x urn "urn:li:x:(a,,b)": part 2 of 3 is empty`},
		{"empty tuple", "urn:li:x:()", Parse, `urn: invalid x urn "urn:li:x:()": part 1 of 1 is empty`},
		{"too deep", deep, Parse, `urn: invalid schemaField urn "` + deep[:maxQuoted] + `...": ` + strings.Repeat("parent: ", maxDepth+1) + `urns nested more than 8 deep`},

		{"dataset two parts", "urn:li:dataset:(a,b)", Parse, `urn: invalid dataset urn "urn:li:dataset:(a,b)": want 3 parts, got 2`},
		{"dataset not a tuple", "urn:li:dataset:abc", Parse, `urn: invalid dataset urn "urn:li:dataset:abc": want 3 parts, got 1`},
		{"dataset bare platform", "urn:li:dataset:(hive,t,PROD)", Parse, `urn: invalid dataset urn "urn:li:dataset:(hive,t,PROD)": platform "hive" is not a dataPlatform urn`},
		{"dataset bad platform", "urn:li:dataset:(urn:li:dataPlatform:a(b),t,PROD)", Parse, `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:a(b),t,PROD)": platform: name contains the reserved character "("`},
		{"dataset platform space", "urn:li:dataset:(urn:li:dataPlatform:hive ,t,PROD)", Parse, `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:hive ,t,PROD)": platform: trailing whitespace`},
		{"dataset raw paren in name", "urn:li:dataset:(urn:li:dataPlatform:hive,a(b),PROD)", Parse, `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:hive,a(b),PROD)": name contains the reserved character "("`},
		{"dataset lower-case env", "urn:li:dataset:(urn:li:dataPlatform:hive,t,prod)", Parse, `urn: invalid dataset urn "urn:li:dataset:(urn:li:dataPlatform:hive,t,prod)": env "prod" is not a FabricType value (one of DEV, TEST, QA, UAT, EI, PRE, STG, NON_PROD, PROD, CORP, RVW, PRD, TST, SIT, SBX, SANDBOX, CERT)`},
		{"dataset wrong type", "urn:li:corpuser:x", asURN(ParseDataset), `urn: invalid dataset urn "urn:li:corpuser:x": entity type is "corpuser", want "dataset"`},
		{"dataset bad prefix", "x", asURN(ParseDataset), `urn: invalid dataset urn "x": missing "urn:li:" prefix`},
		{"mlFeature three parts", "urn:li:mlFeature:(a,b,c)", Parse, `urn: invalid mlFeature urn "urn:li:mlFeature:(a,b,c)": want 2 parts, got 3`},
		{"mlFeature namespace paren", "urn:li:mlFeature:(a(x),b)", Parse, `urn: invalid mlFeature urn "urn:li:mlFeature:(a(x),b)": namespace contains the reserved character "("`},
		{"mlFeature name paren", "urn:li:mlFeature:(a,b(x))", Parse, `urn: invalid mlFeature urn "urn:li:mlFeature:(a,b(x))": name contains the reserved character "("`},
		{"mlFeatureTable one part", "urn:li:mlFeatureTable:x", Parse, `urn: invalid mlFeatureTable urn "urn:li:mlFeatureTable:x": want 2 parts, got 1`},
		{"mlFeatureTable platform", "urn:li:mlFeatureTable:(feast,x)", Parse, `urn: invalid mlFeatureTable urn "urn:li:mlFeatureTable:(feast,x)": platform "feast" is not a dataPlatform urn`},
		{"mlFeatureTable nested platform error", "urn:li:mlFeatureTable:(urn:li:dataPlatform:,x)", Parse, `urn: invalid mlFeatureTable urn "urn:li:mlFeatureTable:(urn:li:dataPlatform:,x)": platform: empty entity id`},
		{"mlFeatureTable name", "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,(x))", Parse, `urn: invalid mlFeatureTable urn "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,(x))": name contains the reserved character "("`},
		{"mlModel env", "urn:li:mlModel:(urn:li:dataPlatform:s,m,LIVE)", Parse, `urn: invalid mlModel urn "urn:li:mlModel:(urn:li:dataPlatform:s,m,LIVE)": env "LIVE" is not a FabricType value (one of DEV, TEST, QA, UAT, EI, PRE, STG, NON_PROD, PROD, CORP, RVW, PRD, TST, SIT, SBX, SANDBOX, CERT)`},
		{"mlModelGroup parts", "urn:li:mlModelGroup:(urn:li:dataPlatform:s,m)", Parse, `urn: invalid mlModelGroup urn "urn:li:mlModelGroup:(urn:li:dataPlatform:s,m)": want 3 parts, got 2`},
		{"corpuser tuple", "urn:li:corpuser:(a)", Parse, `urn: invalid corpuser urn "urn:li:corpuser:(a)": id contains the reserved character "("`},
		{"corpuser comma", "urn:li:corpuser:a,b", Parse, `urn: invalid corpuser urn "urn:li:corpuser:a,b": id contains the reserved character ","`},
		{"dataPlatform paren", "urn:li:dataPlatform:(x)", Parse, `urn: invalid dataPlatform urn "urn:li:dataPlatform:(x)": name contains the reserved character "("`},
		{"test paren", "urn:li:test:x()", Parse, `urn: invalid test urn "urn:li:test:x()": id contains the reserved character "("`},
		{"tag comma", "urn:li:tag:a,b", Parse, `urn: invalid tag urn "urn:li:tag:a,b": name contains the reserved character ","`},
		{"glossaryTerm paren", "urn:li:glossaryTerm:(a)", Parse, `urn: invalid glossaryTerm urn "urn:li:glossaryTerm:(a)": name contains the reserved character "("`},
		{"schemaField one part", "urn:li:schemaField:x", Parse, `urn: invalid schemaField urn "urn:li:schemaField:x": want 2 parts, got 1`},
		{"schemaField parent not urn", "urn:li:schemaField:(x,f)", Parse, `urn: invalid schemaField urn "urn:li:schemaField:(x,f)": parent "x" is not a urn`},
		{"schemaField bad parent", "urn:li:schemaField:(urn:li:dataset:(a,b),f)", Parse, `urn: invalid schemaField urn "urn:li:schemaField:(urn:li:dataset:(a,b),f)": parent: want 3 parts, got 2`},
		{"schemaField raw paren", "urn:li:schemaField:(urn:li:corpuser:x,a(b))", Parse, `urn: invalid schemaField urn "urn:li:schemaField:(urn:li:corpuser:x,a(b))": field path contains the reserved character "("`},
		{"generic via typed parser", "urn:li:corpuser:", asURN(ParseGeneric), `urn: invalid corpuser urn "urn:li:corpuser:": empty entity id`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.parse(tt.in)
			if err == nil {
				t.Fatalf("parse(%q) = %v, want error", tt.in, got)
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Input != tt.in {
				t.Errorf("error %#v is not a *ParseError with Input %q", err, tt.in)
			}
			if !errors.Is(err, datahub.ErrValidation) {
				t.Errorf("errors.Is(%v, datahub.ErrValidation) = false", err)
			}
		})
	}
}

// asURN adapts a typed parser to the signature of Parse.
func asURN[T URN](parse func(string) (T, error)) func(string) (URN, error) {
	return func(s string) (URN, error) {
		v, err := parse(s)
		if err != nil {
			return nil, err
		}
		return v, nil
	}
}

func TestParseTyped(t *testing.T) {
	t.Parallel()
	// Each ParseX accepts its own type and refuses the others.
	tests := []struct {
		in    string
		parse func(string) (URN, error)
	}{
		{"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", asURN(ParseDataset)},
		{"urn:li:mlFeature:(a,b)", asURN(ParseMLFeature)},
		{"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)", asURN(ParseMLFeatureTable)},
		{"urn:li:mlModel:(urn:li:dataPlatform:s,m,PROD)", asURN(ParseMLModel)},
		{"urn:li:mlModelGroup:(urn:li:dataPlatform:s,g,PROD)", asURN(ParseMLModelGroup)},
		{"urn:li:corpuser:x", asURN(ParseCorpUser)},
		{"urn:li:dataPlatform:x", asURN(ParseDataPlatform)},
		{"urn:li:test:x", asURN(ParseTest)},
		{"urn:li:tag:x", asURN(ParseTag)},
		{"urn:li:glossaryTerm:x", asURN(ParseGlossaryTerm)},
		{"urn:li:schemaField:(urn:li:corpuser:x,f)", asURN(ParseSchemaField)},
	}
	for i, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			got, err := tt.parse(tt.in)
			if err != nil {
				t.Fatalf("parse(%q): %v", tt.in, err)
			}
			want := MustParse(tt.in)
			if got != want {
				t.Errorf("typed parse = %#v, Parse = %#v", got, want)
			}
			g, err := ParseGeneric(tt.in)
			if err != nil || g.String() != tt.in {
				t.Errorf("ParseGeneric(%q) = %v, %v", tt.in, g, err)
			}
			other := tests[(i+1)%len(tests)]
			if _, err := tt.parse(other.in); err == nil || !strings.Contains(err.Error(), "entity type is") {
				t.Errorf("parse(%q) = %v, want an entity type error", other.in, err)
			}
		})
	}
}

func TestMustParsePanics(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("MustParse(\"x\") did not panic")
		}
	}()
	MustParse("x")
}
