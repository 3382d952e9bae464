package pdlparse

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func prim(n string) TypeExpr { return TypeExpr{Kind: ExprPrimitive, Name: n} }
func ref(n string) TypeExpr  { return TypeExpr{Kind: ExprRef, Name: n} }
func arr(t TypeExpr) TypeExpr {
	return TypeExpr{Kind: ExprArray, Items: &t}
}
func mapOf(t TypeExpr) TypeExpr { return TypeExpr{Kind: ExprMap, Items: &t} }

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
		want *File
	}{
		{
			name: "record with includes, optional fields, defaults, arrays and maps",
			src: `namespace com.linkedin.ml.metadata

import com.linkedin.common.Urn
import com.linkedin.common.CustomProperties

/**
 * Doc comment,
 *   kept with its lines.
 */
@Aspect = {
  "name": "mlFeatureProperties"
}
record MLFeatureProperties includes CustomProperties, com.linkedin.common.ExternalReference {
  // line comment
  /** What it is. */
  description: optional string
  /* not a doc comment */
  @Relationship = { "/*": { "name": "DerivedFrom", "entityTypes": [ "dataset" ] } }
  @deprecated = "Use other."
  sources: optional array[Urn]
  /** Tags,
   * in order. */
  @Deprecated
  tags: array[string] = []
  props: map[string, Urn] = {}
  version: VersionTag
  created: AuditStampLike = { "time": 0, "actor": "urn:li:corpuser:unknown" }
  old?: boolean = false
}`,
			want: &File{
				Namespace: "com.linkedin.ml.metadata",
				Imports:   []string{"com.linkedin.common.Urn", "com.linkedin.common.CustomProperties"},
				Decls: []*Decl{{
					Kind:        DeclRecord,
					Name:        "com.linkedin.ml.metadata.MLFeatureProperties",
					Includes:    []string{"com.linkedin.common.CustomProperties", "com.linkedin.common.ExternalReference"},
					Aspect:      &Aspect{Name: "mlFeatureProperties"},
					Annotations: map[string]json.RawMessage{"Aspect": json.RawMessage(`{"name":"mlFeatureProperties"}`)},
					File:        "t.pdl",
					Doc:         "Doc comment,\n  kept with its lines.",
					Fields: []Field{
						{Name: "description", Optional: true, Type: prim("string"), Doc: "What it is."},
						{Name: "sources", Optional: true, Type: arr(ref("com.linkedin.common.Urn")), Deprecated: ptr("Use other."),
							Annotations: map[string]json.RawMessage{
								"Relationship": json.RawMessage(`{"/*":{"name":"DerivedFrom","entityTypes":["dataset"]}}`),
								"deprecated":   json.RawMessage(`"Use other."`),
							}},
						{Name: "tags", Default: json.RawMessage(`[]`), Type: arr(prim("string")), Doc: "Tags,\nin order.", Deprecated: ptr("")},
						{Name: "props", Default: json.RawMessage(`{}`), Type: mapOf(ref("com.linkedin.common.Urn"))},
						{Name: "version", Type: ref("com.linkedin.ml.metadata.VersionTag")},
						{Name: "created", Default: json.RawMessage(`{"time":0,"actor":"urn:li:corpuser:unknown"}`), Type: ref("com.linkedin.ml.metadata.AuditStampLike")},
						{Name: "old", Optional: true, Default: json.RawMessage(`false`), Type: prim("boolean")},
					},
				}},
			},
		},
		{
			name: "timeseries aspect annotation with trailing comma",
			src: `namespace com.linkedin.dataset
@Aspect = {
  "name": "datasetProfile",
  "type": "timeseries",
}
record DatasetProfile { rowCount: optional long }`,
			want: &File{Namespace: "com.linkedin.dataset", Decls: []*Decl{{
				Kind: DeclRecord, Name: "com.linkedin.dataset.DatasetProfile", File: "t.pdl",
				Aspect:      &Aspect{Name: "datasetProfile", Type: "timeseries"},
				Annotations: map[string]json.RawMessage{"Aspect": json.RawMessage(`{"name":"datasetProfile","type":"timeseries"}`)},
				Fields:      []Field{{Name: "rowCount", Optional: true, Type: prim("long")}},
			}}},
		},
		{
			name: "default without commas between members, and an empty union",
			src: `namespace com.linkedin.settings
record S {
  f: optional F = {
    "enabled": true
    "list": [1 2, "a" {"x": null}]
  }
  d: union[]
}`,
			want: &File{Namespace: "com.linkedin.settings", Decls: []*Decl{{
				Kind: DeclRecord, Name: "com.linkedin.settings.S", File: "t.pdl",
				Fields: []Field{
					{Name: "f", Optional: true, Default: json.RawMessage(`{"enabled":true,"list":[1,2,"a",{"x":null}]}`), Type: ref("com.linkedin.settings.F")},
					{Name: "d", Type: TypeExpr{Kind: ExprUnion}},
				},
			}}},
		},
		{
			name: "unions without and with aliases, inline record and enum",
			src: `namespace com.linkedin.schema
record SchemaFieldDataType {
  type: union[
    BooleanType,
    com.linkedin.other.FixedType,
    null
  ]
  cost: union[
    costId: double,
    costCode: string
  ]
  inline: union[record Inline { a: int }, enum Color { RED, GREEN }]
  nested: optional array[record Quantile {
    quantile: string
    value: string
  }]
}`,
			want: &File{Namespace: "com.linkedin.schema", Decls: []*Decl{
				{Kind: DeclRecord, Name: "com.linkedin.schema.SchemaFieldDataType", File: "t.pdl", Fields: []Field{
					{Name: "type", Type: TypeExpr{Kind: ExprUnion, Members: []Member{
						{Type: ref("com.linkedin.schema.BooleanType")}, {Type: ref("com.linkedin.other.FixedType")}, {Type: prim("null")}}}},
					{Name: "cost", Type: TypeExpr{Kind: ExprUnion, Members: []Member{
						{Alias: "costId", Type: prim("double")}, {Alias: "costCode", Type: prim("string")}}}},
					{Name: "inline", Type: TypeExpr{Kind: ExprUnion, Members: []Member{
						{Type: ref("com.linkedin.schema.Inline")}, {Type: ref("com.linkedin.schema.Color")}}}},
					{Name: "nested", Optional: true, Type: arr(ref("com.linkedin.schema.Quantile"))},
				}},
				{Kind: DeclRecord, Name: "com.linkedin.schema.Inline", File: "t.pdl", Fields: []Field{{Name: "a", Type: prim("int")}}},
				{Kind: DeclEnum, Name: "com.linkedin.schema.Color", File: "t.pdl", Symbols: []string{"RED", "GREEN"}},
				{Kind: DeclRecord, Name: "com.linkedin.schema.Quantile", File: "t.pdl", Fields: []Field{
					{Name: "quantile", Type: prim("string")}, {Name: "value", Type: prim("string")}}},
			}},
		},
		{
			name: "enum with symbol docs and annotations",
			src: `namespace com.linkedin.common
/** Owner category */
enum OwnershipType {
  /** a doc */
  TECHNICAL_OWNER
  @deprecated
  DATAOWNER
  @deprecated = "use X"
  DEVELOPER
}`,
			want: &File{Namespace: "com.linkedin.common", Decls: []*Decl{{
				Kind: DeclEnum, Name: "com.linkedin.common.OwnershipType", File: "t.pdl",
				Symbols: []string{"TECHNICAL_OWNER", "DATAOWNER", "DEVELOPER"},
				Doc:     "Owner category", SymbolDocs: map[string]string{"TECHNICAL_OWNER": "a doc"},
			}}},
		},
		{
			name: "typeref with escaped annotation name",
			src:  "namespace com.linkedin.common\n@java.class = \"com.linkedin.common.urn.CorpuserUrn\"\n@validate.`com.linkedin.common.validator.TypedUrnValidator` = {\n  \"accessible\" : true,\n  \"fields\" : [ { \"name\" : \"username\" } ]\n}\ntyperef CorpuserUrn = string",
			want: &File{Namespace: "com.linkedin.common", Decls: []*Decl{{
				Kind: DeclTyperef, Name: "com.linkedin.common.CorpuserUrn", File: "t.pdl", Ref: &TypeExpr{Kind: ExprPrimitive, Name: "string"},
				Annotations: map[string]json.RawMessage{
					"java.class": json.RawMessage(`"com.linkedin.common.urn.CorpuserUrn"`),
					"validate.com.linkedin.common.validator.TypedUrnValidator": json.RawMessage(`{"accessible":true,"fields":[{"name":"username"}]}`),
				},
			}}},
		},
		{
			name: "typeref to a union",
			src:  "namespace com.linkedin.ml.metadata\ntyperef HyperParameterValueType = union[string, int, float, double, boolean]",
			want: &File{Namespace: "com.linkedin.ml.metadata", Decls: []*Decl{{
				Kind: DeclTyperef, Name: "com.linkedin.ml.metadata.HyperParameterValueType", File: "t.pdl",
				Ref: &TypeExpr{Kind: ExprUnion, Members: []Member{{Type: prim("string")}, {Type: prim("int")}, {Type: prim("float")}, {Type: prim("double")}, {Type: prim("boolean")}}},
			}}},
		},
		{
			name: "fixed",
			src:  "namespace com.linkedin.avro2pegasus.events\nfixed UUID 16",
			want: &File{Namespace: "com.linkedin.avro2pegasus.events", Decls: []*Decl{{
				Kind: DeclFixed, Name: "com.linkedin.avro2pegasus.events.UUID", File: "t.pdl", Size: 16,
			}}},
		},
		{
			name: "default string holding braces",
			src:  `namespace a.b record R { s: string = "a } ] ," t: float = 0 }`,
			want: &File{Namespace: "a.b", Decls: []*Decl{{
				Kind: DeclRecord, Name: "a.b.R", File: "t.pdl", Fields: []Field{
					{Name: "s", Default: json.RawMessage(`"a } ] ,"`), Type: prim("string")},
					{Name: "t", Default: json.RawMessage(`0`), Type: prim("float")},
				},
			}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse("t.pdl", []byte(tt.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      SyntaxError
	}{
		{"empty", "namespace a", SyntaxError{File: "t.pdl", Line: 1, Reason: "no type declared"}},
		{"unterminated record", "namespace a\nrecord R {\n  x: int\n", SyntaxError{File: "t.pdl", Line: 4, Reason: "unterminated record R"}},
		{"missing colon", "namespace a\nrecord R {\n  x int\n}", SyntaxError{File: "t.pdl", Line: 3, Reason: `expected ':', found 'i'`}},
		{"bad keyword", "namespace a\nstruct R {}", SyntaxError{File: "t.pdl", Line: 2, Reason: `expected record, enum, typeref or fixed, found "struct"`}},
		{"bad default", "namespace a\nrecord R { x: int = {oops} }", SyntaxError{File: "t.pdl", Line: 2, Reason: "bad default of field x: invalid character 'o' looking for beginning of object key string"}},
		{"aspect without name", "namespace a\n@Aspect = {\"type\": \"timeseries\"}\nrecord R {}", SyntaxError{File: "t.pdl", Line: 2, Reason: "@Aspect without a name"}},
		{"two declarations", "namespace a\nrecord R {}\nrecord S {}", SyntaxError{File: "t.pdl", Line: 3, Reason: "more than one top-level declaration"}},
		{"unterminated string", "namespace a\nrecord R { s: string = \"abc }", SyntaxError{File: "t.pdl", Line: 2, Reason: "unterminated string"}},
		{"bad fixed", "namespace a\nfixed F x", SyntaxError{File: "t.pdl", Line: 2, Reason: `bad fixed size "x"`}},
		{"missing type", "namespace a\nrecord R { x: }", SyntaxError{File: "t.pdl", Line: 2, Reason: `expected a type, found '}'`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse("t.pdl", []byte(tt.src))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse() = %v, want *SyntaxError", err)
			}
			if diff := cmp.Diff(tt.want, *se); diff != "" {
				t.Errorf("error mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("namespace a\nrecord R includes S { x: optional array[map[string, union[a: int, b: record I { y: string = \"}\" }]]] }"))
	f.Add([]byte("namespace a\n@Aspect = {\"name\": \"x\",}\nenum E { A, B }"))
	f.Add([]byte("typeref T = union[string, null]"))
	f.Add([]byte("namespace a /* x"))
	f.Add([]byte("@validate.`x.y` = {\"a\": [1, {\"b\": \"]\"}]} fixed F 4"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.pdl", src)
		if err == nil && len(file.Decls) == 0 {
			t.Fatal("Parse succeeded without declarations")
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a *SyntaxError", err)
			}
		}
	})
}

func ptr(s string) *string { return &s }
