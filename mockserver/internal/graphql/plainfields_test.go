package graphql

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// TestPlainFields checks that every field a resolver type answers itself
// (plainFielder) has the value the default resolver reads by reflection,
// for every field of its GraphQL type.
func TestPlainFields(t *testing.T) {
	t.Parallel()
	core, st := newTestCore(t)
	const (
		ds      = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"
		table   = "urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,tbl)"
		feature = "urn:li:mlFeature:(ns,f1)"
	)
	for _, a := range []store.Aspect{
		{URN: ds, Name: "datasetProperties", Value: json.RawMessage(`{"name":"shown","qualifiedName":"db.t","description":"d","externalUrl":"https://x","customProperties":{}}`)},
		{URN: feature, Name: "mlFeatureProperties", Value: json.RawMessage(`{"description":"f","dataType":"CONTINUOUS"}`)},
		{URN: table, Name: "mlFeatureTableProperties", Value: json.RawMessage(`{"description":"t","mlFeatures":["` + feature + `"]}`)},
	} {
		if err := st.Put(a); err != nil {
			t.Fatal(err)
		}
	}
	s, err := schema()
	if err != nil {
		t.Fatal(err)
	}
	r := &resolver{core: core, search: core}
	ctx := context.Background()
	load := func(urn string) *entity {
		e, gerr := r.load(ctx, urn, "")
		if gerr != nil {
			t.Fatal(gerr)
		}
		return e
	}
	d := &datasetR{load(ds)}
	tbl := &mlFeatureTableR{load(table)}
	values := map[string]plainFielder{
		"SearchResult":             &searchResultR{entity: newEntityR(d.entity), matched: []*matchedFieldR{{"name", "db.t"}}},
		"MatchedField":             &matchedFieldR{"name", "db.t"},
		"DataPlatform":             platformOf("urn:li:dataPlatform:hive"),
		"Dataset":                  d,
		"DatasetProperties":        d.Properties(),
		"MLFeatureTable":           tbl,
		"MLFeatureTableProperties": tbl.Properties(),
		"MLFeature":                &mlFeatureR{load(feature)},
	}
	for typ, v := range values {
		def := s.Types[typ]
		if def == nil {
			t.Fatalf("no type %s", typ)
		}
		answered := 0
		for _, fd := range def.Fields {
			got, ok := v.plainField(fd.Name)
			if !ok {
				continue
			}
			answered++
			a := findAccessor(reflect.TypeOf(v), fd.Name)
			if a == nil || a.method < 0 || a.ctx || a.args != nil || a.hasErr {
				t.Errorf("%s.%s: answered plainly, but its method is not plain (%+v)", typ, fd.Name, a)
				continue
			}
			want := a.fn.Call([]reflect.Value{reflect.ValueOf(v)})[0].Interface()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s.%s = %#v, by reflection %#v", typ, fd.Name, got, want)
			}
		}
		if answered == 0 {
			t.Errorf("%s: no field answered plainly", typ)
		}
	}
}
