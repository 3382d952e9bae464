package entity_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// newClient returns a client of the mock s.
func newClient(t testing.TB, s *mockserver.Server) *client.Client {
	t.Helper()
	c, err := client.New(s.URL(), testshared.EndpointOption())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// fullEntity returns an entity of type et with every versioned aspect the
// registry gives it set to a value DataHub accepts.
func fullEntity(t *testing.T, et string) entity.Entity {
	t.Helper()
	e, err := entity.New(urn.MustParse(testshared.SampleURN(et)))
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := aspects.LookupEntity(et)
	for _, a := range spec.Aspects {
		if info, _ := aspects.Lookup(a); info.Timeseries {
			continue
		}
		raw, err := json.Marshal(testshared.AspectValue(et, a))
		if err != nil {
			t.Fatal(err)
		}
		v, _ := aspects.New(a)
		if err := json.Unmarshal(raw, v); err != nil {
			t.Fatalf("%s: decode %s: %v", et, a, err)
		}
		if !entity.SetAspect(e, v) {
			t.Fatalf("%s: no field for %s", et, a)
		}
	}
	return e
}

// aspectJSON returns the JSON of every aspect e holds, by name.
func aspectJSON(t testing.TB, e entity.Entity) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, a := range entity.Aspects(e) {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		out[a.AspectName()] = string(b)
	}
	return out
}

// TestCreateGetEveryType creates an entity of each of the registry's
// entity types with every versioned aspect its type has, against the
// mock, and reads it back equal.
func TestCreateGetEveryType(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newClient(t, s).Entities()
	for _, et := range entity.Types() {
		t.Run(et, func(t *testing.T) {
			want := fullEntity(t, et)
			written := aspectJSON(t, want) // Create reads the entity back into want
			if len(written) != len(entity.Aspects(want)) {
				t.Fatal("aspectJSON lost aspects")
			}
			if err := es.Create(t.Context(), want); err != nil {
				t.Fatal(err)
			}
			got, err := es.Get(t.Context(), want.EntityURN())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(written, aspectJSON(t, got)); diff != "" {
				t.Errorf("read back (-written +read):\n%s", diff)
			}
		})
	}
}

// TestHelpersWrittenAndRead applies every shared helper to a dataset and
// the model helpers to a model, creates them against the mock and reads
// them back equal: what the helpers make is what DataHub accepts.
func TestHelpersWrittenAndRead(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	// GMS checks structured property values against their definitions.
	if err := s.PutAspectJSON("urn:li:structuredProperty:retention", "propertyDefinition", json.RawMessage(
		`{"qualifiedName":"retention","valueType":"urn:li:dataType:datahub.number","entityTypes":["urn:li:entityType:datahub.dataset"]}`)); err != nil {
		t.Fatal(err)
	}
	es := newClient(t, s).Entities()
	parent := &entity.Container{URN: urn.MustParse("urn:li:container:db").(urn.Container)}
	if err := parent.SetBrowsePath("prod"); err != nil {
		t.Fatal(err)
	}
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:postgres,db.public.orders,PROD)").(urn.Dataset)
	ds := entity.NewDataset(u, "Orders.", entity.Column{Name: "id", Type: "bigint"})
	ds.SetTags(urn.MustParse("urn:li:tag:pii").(urn.Tag))
	ds.AddTerm(urn.MustParse("urn:li:glossaryTerm:Order").(urn.GlossaryTerm))
	ds.AddOwner(entity.NewOwner(urn.MustParse("urn:li:corpuser:jdoe").(urn.CorpUser), ""))
	ds.AddOwner(entity.NewCustomOwner(urn.MustParse("urn:li:corpGroup:data").(urn.CorpGroup), urn.MustParse("urn:li:ownershipType:steward").(urn.OwnershipType)))
	ds.SetDomain(urn.MustParse("urn:li:domain:sales").(urn.Domain))
	ds.AddLink("https://wiki/orders", "Wiki")
	ds.SetSubtype("Table")
	ds.SetCustomProperty("team", "shop")
	ds.Deprecate("Use orders_v2.", time.Time{})
	ds.SetVersion("2")
	for _, err := range []error{
		ds.SetPlatformInstance(urn.MustParse("urn:li:dataPlatform:postgres").(urn.DataPlatform), "eu"),
		ds.SetContainer(parent),
		ds.SetStructuredProperty(urn.MustParse("urn:li:structuredProperty:retention").(urn.StructuredProperty), 30),
		ds.SetColumnDescription("id", "Order id"),
		ds.AddColumnTag("id", urn.MustParse("urn:li:tag:key").(urn.Tag)),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	m := entity.NewMLModel(urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)").(urn.MLModel), "Churn", nil, nil)
	m.SetHyperParams(map[string]any{"lr": 0.1})
	m.SetModelGroup(urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)").(urn.MLModelGroup))
	if err := m.AddTrainingJob(urn.MustParse("urn:li:dataProcessInstance:run1")); err != nil {
		t.Fatal(err)
	}
	m.AddDeployment(urn.MustParse("urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn,PROD)").(urn.MLModelDeployment))
	if err := m.AddVersionAlias("champion"); err != nil {
		t.Fatal(err)
	}
	for _, e := range []entity.Entity{parent, ds, m} {
		written := aspectJSON(t, e)
		if err := es.Create(t.Context(), e); err != nil {
			t.Fatal(err)
		}
		got, err := es.Get(t.Context(), e.EntityURN())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(written, aspectJSON(t, got)); diff != "" {
			t.Errorf("%s read back (-written +read):\n%s", e.EntityURN(), diff)
		}
	}
}
