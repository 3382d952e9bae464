package entity_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/urn"
)

// TestEveryRegistryAspectHasAField walks DataHub's entity registry: every
// entity type has a type here (New, Types), whose URN field is package
// urn's typed URN, and every aspect the registry gives the type has a
// field of its Go type (a pointer, or a slice for a timeseries aspect),
// found by SetAspect and listed by Aspects; the type has no other aspect
// field.
func TestEveryRegistryAspectHasAField(t *testing.T) {
	t.Parallel()
	es := aspects.Entities()
	if len(es) != 71 {
		t.Errorf("the registry has %d entity types, want 71", len(es))
	}
	var types []string
	for _, spec := range es {
		types = append(types, spec.Name)
		u, err := urn.Parse(testshared.SampleURN(spec.Name))
		if err != nil {
			t.Errorf("%s: sample URN: %v", spec.Name, err)
			continue
		}
		e, err := entity.New(u)
		if err != nil {
			t.Errorf("%s: New: %v", spec.Name, err)
			continue
		}
		rv := reflect.ValueOf(e).Elem()
		if got := rv.FieldByName("URN").Type(); got != reflect.TypeOf(u) {
			t.Errorf("%s: URN field is %v, want %T", spec.Name, got, u)
		}
		if e.EntityURN().String() != u.String() {
			t.Errorf("%s: EntityURN %v, want %v", spec.Name, e.EntityURN(), u)
		}
		if got := e.KeyAspect().AspectName(); got != spec.KeyAspect {
			t.Errorf("%s: KeyAspect is %s, want %s", spec.Name, got, spec.KeyAspect)
		}
		fields := map[string]bool{} // aspect fields of the Go type, by Go type
		for i := range rv.NumField() {
			ft := rv.Type().Field(i).Type
			if ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice {
				if ft.Elem().PkgPath() == reflect.TypeOf(aspects.Status{}).PkgPath() {
					fields[ft.Elem().Name()] = true
				}
			}
		}
		for _, a := range spec.Aspects {
			v, ok := aspects.New(a)
			if !ok {
				t.Errorf("%s: aspect %s has no Go type", spec.Name, a)
				continue
			}
			goType := reflect.TypeOf(v).Elem().Name()
			delete(fields, goType)
			info, _ := aspects.Lookup(a)
			if info.Timeseries {
				if !hasSliceOf(rv, reflect.TypeOf(v).Elem()) {
					t.Errorf("%s: no []aspects.%s field for timeseries aspect %s", spec.Name, goType, a)
				}
				continue
			}
			if !entity.SetAspect(e, v) {
				t.Errorf("%s: SetAspect(%s) found no field", spec.Name, a)
				continue
			}
			if !slices.ContainsFunc(entity.Aspects(e), func(x aspects.Aspect) bool { return x.AspectName() == a }) {
				t.Errorf("%s: Aspects does not list %s after SetAspect", spec.Name, a)
			}
		}
		if len(fields) > 0 {
			t.Errorf("%s: aspect fields the registry does not give it: %v", spec.Name, fields)
		}
		if n := len(entity.Aspects(e)); n != countVersioned(spec) {
			t.Errorf("%s: Aspects lists %d, want %d", spec.Name, n, countVersioned(spec))
		}
	}
	slices.Sort(types)
	if got := entity.Types(); !slices.Equal(got, types) {
		t.Errorf("Types() = %v\nwant %v", got, types)
	}
}

func hasSliceOf(rv reflect.Value, elem reflect.Type) bool {
	for i := range rv.NumField() {
		if ft := rv.Type().Field(i).Type; ft.Kind() == reflect.Slice && ft.Elem() == elem {
			return true
		}
	}
	return false
}

func countVersioned(spec aspects.EntitySpec) int {
	n := 0
	for _, a := range spec.Aspects {
		if info, _ := aspects.Lookup(a); !info.Timeseries {
			n++
		}
	}
	return n
}

// TestKeyAspectFromURN checks the key aspect built from a URN of each of
// today's hand-described types against the key DataHub stores for it.
func TestKeyAspectFromURN(t *testing.T) {
	t.Parallel()
	for u, want := range map[string]string{
		"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)":      `{"platform":"urn:li:dataPlatform:hive","name":"db.t","origin":"PROD"}`,
		"urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,prod),task)": `{"flow":"urn:li:dataFlow:(airflow,dag,prod)","jobId":"task"}`,
		"urn:li:mlFeature:(users,age)":                             `{"featureNamespace":"users","name":"age"}`,
		"urn:li:container:abc":                                     `{"guid":"abc"}`,
		"urn:li:corpuser:jdoe":                                     `{"username":"jdoe"}`,
		"urn:li:dataFlow:(airflow,dag,prod)":                       `{"orchestrator":"airflow","flowId":"dag","cluster":"prod"}`,
		"urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)":  `{"platform":"urn:li:dataPlatform:feast","name":"users"}`,
		"urn:li:dataHubRetention:(dataset,status)":                 `{"entityName":"dataset","aspectName":"status"}`,
	} {
		e, err := entity.New(urn.MustParse(u))
		if err != nil {
			t.Fatal(err)
		}
		got := jsonOf(t, e.KeyAspect())
		if got != want {
			t.Errorf("key of %s = %s, want %s", u, got, want)
		}
	}
	if got := jsonOf(t, (&entity.Dataset{}).KeyAspect()); !strings.Contains(got, `"name":""`) {
		t.Errorf("key of the zero dataset = %s", got)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestKeyAspectIsAValue checks KeyAspect returns the key as a value, as
// the hand-written types did.
func TestKeyAspectIsAValue(t *testing.T) {
	t.Parallel()
	d := &entity.Dataset{URN: urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)").(urn.Dataset)}
	k, ok := d.KeyAspect().(aspects.DatasetKey)
	if !ok || k.Name != "db.t" || k.Origin != "PROD" {
		t.Errorf("KeyAspect() = %#v", d.KeyAspect())
	}
}
