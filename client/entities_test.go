package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/internal/entitystate"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// sampleEntities returns one entity of every type package entity has,
// each with several aspects.
func sampleEntities(t testing.TB) []entity.Entity {
	t.Helper()
	ds := entity.NewDataset(urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:snowflake,shop.orders,PROD)").(urn.Dataset),
		"Orders placed on the web shop.",
		entity.Column{Name: "id", Type: "bigint", Description: "Order id"},
		entity.Column{Name: "placed_at", Type: "timestamp", Description: "When it was placed", Nullable: true})
	ds.GlobalTags = &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:pii"}}}
	ds.Ownership = &aspects.Ownership{Owners: []aspects.Owner{{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner}}}
	model := entity.NewMLModel(urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-v1,PROD)").(urn.MLModel),
		"Churn classifier", map[string]any{"learning_rate": 0.01, "max_depth": 6}, map[string]any{"auc": 0.91, "accuracy": "0.88"})
	model.Properties.Groups = []string{"urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)"}
	model.GlossaryTerms = &aspects.GlossaryTerms{Terms: []aspects.GlossaryTermAssociation{{URN: "urn:li:glossaryTerm:Churn"}},
		AuditStamp: aspects.AuditStamp{Time: 1, Actor: "urn:li:corpuser:jdoe"}} // DataHub refuses an empty actor
	group := &entity.MLModelGroup{URN: urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)").(urn.MLModelGroup),
		Properties: &aspects.MLModelGroupProperties{Description: aspects.Ptr("All churn models")},
		Status:     &aspects.Status{}}
	dt := aspects.MLFeatureDataTypeContinuous
	feature := &entity.MLFeature{URN: urn.MustParse("urn:li:mlFeature:(users,age)").(urn.MLFeature),
		Properties:         &aspects.MLFeatureProperties{Description: aspects.Ptr("Age in years"), DataType: &dt, Sources: []string{ds.URN.String()}},
		EditableProperties: &aspects.EditableMLFeatureProperties{Description: aspects.Ptr("Age, edited")}}
	table := &entity.MLFeatureTable{URN: urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)").(urn.MLFeatureTable),
		Properties: &aspects.MLFeatureTableProperties{Description: aspects.Ptr("User features"), MLFeatures: []string{feature.URN.String()}},
		InstitutionalMemory: &aspects.InstitutionalMemory{Elements: []aspects.InstitutionalMemoryMetadata{{URL: "https://wiki/users", Description: "Docs",
			CreateStamp: aspects.AuditStamp{Time: 1, Actor: "urn:li:corpuser:jdoe"}}}}}
	exp := &entity.Container{URN: urn.MustParse("urn:li:container:0123456789abcdef").(urn.Container),
		Properties:           &aspects.ContainerProperties{Name: "churn-experiment", CustomProperties: map[string]string{"artifact_location": "s3://mlflow/1"}},
		SubTypes:             &aspects.SubTypes{TypeNames: []string{"ML Experiment"}},
		DataPlatformInstance: &aspects.DataPlatformInstance{Platform: "urn:li:dataPlatform:mlflow"}}
	run := entity.NewTrainingRun(urn.MustParse("urn:li:dataProcessInstance:run-42").(urn.DataProcessInstance), "churn-run-42",
		map[string]any{"learning_rate": 0.01}, map[string]any{"auc": 0.91})
	run.Container = &aspects.Container{Container: exp.URN.String()}
	run.Input = &aspects.DataProcessInstanceInput{Inputs: []string{}, InputEdges: []aspects.Edge{{DestinationURN: ds.URN.String()}}}
	run.Output = &aspects.DataProcessInstanceOutput{Outputs: []string{}, OutputEdges: []aspects.Edge{{DestinationURN: model.URN.String()}}}
	run.RunEvents = []aspects.DataProcessInstanceRunEvent{{TimestampMillis: 1_700_000_000_000, Status: aspects.DataProcessRunStatusComplete,
		Result: &aspects.DataProcessInstanceRunResult{Type: aspects.RunResultTypeSuccess, NativeResultType: "mlflow"}}}
	flow := &entity.DataFlow{URN: urn.MustParse("urn:li:dataFlow:(airflow,train_churn,prod)").(urn.DataFlow),
		Info: &aspects.DataFlowInfo{Name: "train_churn", Description: aspects.Ptr("Trains the churn model nightly")}}
	job := &entity.DataJob{URN: urn.MustParse("urn:li:dataJob:(urn:li:dataFlow:(airflow,train_churn,prod),fit)").(urn.DataJob),
		Info:        &aspects.DataJobInfo{Name: "fit", Type: aspects.DataJobInfoType{String: aspects.Ptr("COMMAND")}},
		InputOutput: &aspects.DataJobInputOutput{InputDatasetEdges: []aspects.Edge{{DestinationURN: ds.URN.String()}}}}
	tag := &entity.Tag{URN: urn.MustParse("urn:li:tag:pii").(urn.Tag), Properties: &aspects.TagProperties{Name: "PII", ColorHex: aspects.Ptr("#ff0000")}}
	term := &entity.GlossaryTerm{URN: urn.MustParse("urn:li:glossaryTerm:Churn").(urn.GlossaryTerm),
		Info: &aspects.GlossaryTermInfo{Name: aspects.Ptr("Churn"), Definition: "A customer who leaves.", TermSource: "INTERNAL"}}
	domain := &entity.Domain{URN: urn.MustParse("urn:li:domain:marketing").(urn.Domain),
		Properties: &aspects.DomainProperties{Name: "Marketing", Description: aspects.Ptr("Campaigns and customers")}}
	user := &entity.CorpUser{URN: urn.MustParse("urn:li:corpuser:jdoe").(urn.CorpUser),
		Info: &aspects.CorpUserInfo{Active: true, DisplayName: aspects.Ptr("Jane Doe"), Email: aspects.Ptr("jdoe@example.com")}}
	pk := &entity.MLPrimaryKey{URN: urn.MustParse("urn:li:mlPrimaryKey:(users,user_id)").(urn.MLPrimaryKey),
		Properties: &aspects.MLPrimaryKeyProperties{Description: aspects.Ptr("User id"), Sources: []string{ds.URN.String()}}}
	return []entity.Entity{ds, model, group, feature, table, exp, run, flow, job, tag, term, domain, user, pk}
}

// aspectJSON returns the JSON of every aspect field of e that is set, by
// name: two entities are equal when these are.
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

func TestEntitiesRoundTrip(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	all := sampleEntities(t)
	types := map[string]bool{}
	for _, want := range all {
		types[want.EntityURN().EntityType()] = true
		t.Run(want.EntityURN().EntityType(), func(t *testing.T) {
			if err := es.Create(t.Context(), want); err != nil {
				t.Fatal(err)
			}
			got, err := es.Get(t.Context(), want.EntityURN())
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
				t.Fatalf("Get returned a %T, want %T", got, want)
			}
			if diff := cmp.Diff(aspectJSON(t, want), aspectJSON(t, got)); diff != "" {
				t.Errorf("Create then Get (-created +read):\n%s", diff)
			}
			if got.EntityURN().String() != want.EntityURN().String() {
				t.Errorf("URN %s, want %s", got.EntityURN(), want.EntityURN())
			}
			if run, ok := want.(*entity.DataProcessInstance); ok {
				ev, err := LatestTimeseries[aspects.DataProcessInstanceRunEvent](t.Context(), es.c, run.URN)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(run.RunEvents[0].Result, ev.Result); diff != "" || ev.TimestampMillis != run.RunEvents[0].TimestampMillis {
					t.Errorf("run event read back (-written +read):\n%s", diff)
				}
			}
			acc, _ := entitystate.Of(got)
			for _, sl := range acc.Slots {
				want := "-1"
				if sl.Get() != nil {
					want = "1"
				}
				if v := metaOf(got).Version(sl.Name); v != want {
					t.Errorf("version of %s = %q, want %q", sl.Name, v, want)
				}
			}
		})
	}
	// Package entity's TestCreateGetEveryType round-trips every one of its
	// 71 types with every aspect; this one covers the types sampleEntities
	// fills by hand, with versions.
	if len(types) != len(all) {
		t.Errorf("sampleEntities has %d entities of %d types", len(all), len(types))
	}
}

// metaOf returns the Meta of one of package entity's types.
func metaOf(e entity.Entity) interface{ Version(string) string } {
	return e.(interface{ Version(string) string })
}

func TestEntitiesCreateExisting(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)").(urn.Dataset)
	if err := s.PutAspect(u.String(), aspects.Status{}); err != nil {
		t.Fatal(err)
	}
	before := len(s.Proposals())
	ds := entity.NewDataset(u, "new description", entity.Column{Name: "id", Type: "int"})
	err := es.Create(t.Context(), ds)
	if !errors.Is(err, datahub.ErrAlreadyExists) {
		t.Fatalf("Create of an existing entity: %v, want an error matching ErrAlreadyExists", err)
	}
	ps := s.Proposals()[before:]
	if testshared.OverOpenAPI() {
		// Over OpenAPI the Create is one batch POST of writes conditional
		// on absence, refused whole.
		if len(ps) != 3 || ps[0].AspectName != "datasetKey" || !ps[0].Batch {
			t.Errorf("proposals sent over OpenAPI: %+v, want datasetKey and two aspects in one batch", ps)
		}
		for _, p := range ps {
			if p.ChangeType != "UPSERT" || p.Headers["If-Version-Match"] != "-1" {
				t.Errorf("proposal %s %s %v over OpenAPI, want an UPSERT with If-Version-Match: -1", p.AspectName, p.ChangeType, p.Headers)
			}
		}
	} else if len(ps) != 3 || ps[0].ChangeType != "CREATE_ENTITY" || ps[0].AspectName != "datasetKey" || ps[1].ChangeType != "CREATE" || ps[2].ChangeType != "CREATE" {
		t.Errorf("proposals sent: %+v, want CREATE_ENTITY datasetKey then two CREATEs in one request", ps)
	}
	for _, p := range ps {
		if p.Err == "" {
			t.Errorf("proposal %s was accepted", p.AspectName)
		}
	}
	for _, name := range []string{"datasetProperties", "schemaMetadata"} {
		if _, err := s.GetAspect(u.String(), name); !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("%s after the refused Create: %v, want none", name, err)
		}
	}
}

func TestEntitiesGet(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	u := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)")
	missing := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,none,PROD)")
	if err := es.Create(t.Context(), &entity.MLModel{URN: u.(urn.MLModel),
		Properties: &aspects.MLModelProperties{Description: aspects.Ptr("d")}, Status: &aspects.Status{}}); err != nil {
		t.Fatal(err)
	}
	t.Run("missing", func(t *testing.T) {
		_, err := es.Get(t.Context(), missing)
		var nf *EntityNotFoundError
		if !errors.As(err, &nf) || !errors.Is(err, datahub.ErrNotFound) {
			t.Errorf("Get of a missing entity: %v, want an *EntityNotFoundError", err)
		}
	})
	t.Run("chosen aspects, one request", func(t *testing.T) {
		n := s.RequestCount(opGetEntity)
		e, err := es.Get(t.Context(), u, "status")
		if err != nil {
			t.Fatal(err)
		}
		m := e.(*entity.MLModel)
		if m.Properties != nil || m.Status == nil {
			t.Errorf("Get(status): properties %v, status %v; want only status", m.Properties, m.Status)
		}
		if got := m.ReadAspects(); !slices.Equal(got, []string{"status"}) {
			t.Errorf("ReadAspects = %v", got)
		}
		if d := s.RequestCount(opGetEntity) - n; d != 1 {
			t.Errorf("Get made %d entity reads, want 1", d)
		}
	})
	t.Run("unknown aspect", func(t *testing.T) {
		if _, err := es.Get(t.Context(), u, "datasetProperties"); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("Get of an aspect the type has no field for: %v", err)
		}
	})
	t.Run("entity type without a type", func(t *testing.T) {
		if _, err := es.Get(t.Context(), urn.MustParse("urn:li:noSuchType:x")); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("Get of an entity type outside the registry: %v, want ErrValidation", err)
		}
	})
	t.Run("many", func(t *testing.T) {
		got, err := es.GetMany(t.Context(), []urn.URN{u, missing, u})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0] == nil || got[1] != nil || got[2] == nil || got[0] == got[2] {
			t.Errorf("GetMany = %v, want the model, nil, the model again", got)
		}
	})
}

func TestEntitiesUpdateRefuses(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	u := urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g,PROD)").(urn.MLModelGroup)
	g := &entity.MLModelGroup{URN: u, Properties: &aspects.MLModelGroupProperties{Description: aspects.Ptr("d")}}
	if err := es.Create(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	before := len(s.Proposals())
	// A value built by hand, not read nor created through the client.
	other := &entity.MLModelGroup{URN: u, Properties: &aspects.MLModelGroupProperties{Description: aspects.Ptr("d")}}
	_, err := es.Update(t.Context(), other, func() error { other.Properties.Description = aspects.Ptr("x"); return nil })
	if !errors.Is(err, ErrNotRead) {
		t.Errorf("Update of an entity not read: %v, want ErrNotRead", err)
	}
	e, err := es.Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	read := e.(*entity.MLModelGroup)
	read.Properties.Description = aspects.Ptr("outside")
	_, err = es.Update(t.Context(), read, func() error { return nil })
	if !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("Update of an entity changed outside fn: %v, want ErrValidation", err)
	}
	if n := len(s.Proposals()) - before; n != 0 {
		t.Errorf("refused updates sent %d proposals", n)
	}
}

func TestEntitiesUpdateWritesOnlyChanges(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	ds := sampleEntities(t)[0].(*entity.Dataset)
	if err := es.Create(t.Context(), ds); err != nil {
		t.Fatal(err)
	}
	e, err := es.Get(t.Context(), ds.URN)
	if err != nil {
		t.Fatal(err)
	}
	d := e.(*entity.Dataset)
	before := len(s.Proposals())
	calls := 0
	res, err := es.Update(t.Context(), d, func() error {
		calls++
		d.Properties.Description = aspects.Ptr("Orders, all of them.")
		d.EditableProperties = &aspects.EditableDatasetProperties{Description: aspects.Ptr("edited")}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The result says what was written, and leaves the rest Unchanged.
	if got, want := res.Written(), []string{"datasetProperties", "editableDatasetProperties"}; !slices.Equal(got, want) || res.URN != ds.URN.String() || !res.Changed() {
		t.Errorf("Update result %+v: written %v, want %v", res, got, want)
	}
	for n, o := range res.Aspects {
		if o != Updated && o != Unchanged {
			t.Errorf("Update result: %s %s", n, o)
		}
	}
	if len(res.Aspects) <= 2 {
		t.Errorf("Update result names only %v, not the unchanged aspects the dataset holds", res.Aspects)
	}
	ps := s.Proposals()[before:]
	var got []string
	for _, p := range ps {
		got = append(got, p.AspectName+" "+p.ChangeType+" If-Version-Match="+p.Headers["If-Version-Match"])
	}
	want := []string{"datasetProperties UPSERT If-Version-Match=1", "editableDatasetProperties UPSERT If-Version-Match=-1"}
	if diff := cmp.Diff(want, got); diff != "" || calls != 1 {
		t.Errorf("Update sent (-want +got), fn called %d times:\n%s", calls, diff)
	}
	if v := d.Version("datasetProperties"); v != "2" {
		t.Errorf("version after Update = %q, want 2", v)
	}
	// A second Update that changes nothing sends nothing.
	before = len(s.Proposals())
	res, err = es.Update(t.Context(), d, func() error { d.Properties.Description = aspects.Ptr("Orders, all of them."); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if n := len(s.Proposals()) - before; n != 0 || res.Changed() {
		t.Errorf("an Update without change sent %d proposals, reported written %v", n, res.Written())
	}
	res, err = es.Update(t.Context(), d, func() error { return ErrNoChange })
	if err != nil || res.Changed() {
		t.Errorf("Update with ErrNoChange: %v, written %v", err, res.Written())
	}
	unknown := aspects.AuditStamp{Actor: aspects.UnknownActor}
	mockserver.Check(t, s, ds.URN.String(), aspects.EditableDatasetProperties{Description: aspects.Ptr("edited"), Created: unknown, LastModified: unknown})
}

func TestEntitiesUpdateConflictReapplies(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s, WithConflictPolicy(ConflictPolicy{MaxAttempts: 3})).Entities()
	u := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)").(urn.MLModel)
	if err := es.Create(t.Context(), entity.NewMLModel(u, "d", nil, nil)); err != nil {
		t.Fatal(err)
	}
	e, err := es.Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	m := e.(*entity.MLModel)
	// Another writer changes the model after the read.
	if err := s.PutAspect(u.String(), aspects.MLModelProperties{Description: aspects.Ptr("d"), Groups: []string{"urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g,PROD)"}}); err != nil {
		t.Fatal(err)
	}
	calls := 0
	if _, err := es.Update(t.Context(), m, func() error {
		calls++
		m.Properties.TrainingMetrics = append(m.Properties.TrainingMetrics, aspects.MLMetric{Name: "auc", Value: aspects.Ptr("0.9")})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Errorf("fn called %d times, want 2 (once more after the conflict)", calls)
	}
	got, err := mockserver.Get[aspects.MLModelProperties](s, u.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Groups) != 1 || len(got.TrainingMetrics) != 1 {
		t.Errorf("stored %+v, want the other writer's group and the metric", got)
	}

	t.Run("gives up", func(t *testing.T) {
		s.Fail(opWrite, mockserver.FailSpec{Status: 412, Times: 10})
		defer s.ClearFaults()
		_, err := es.Update(t.Context(), m, func() error { m.Properties.Description = aspects.Ptr("again"); return nil })
		var ce *ConflictError
		if !errors.As(err, &ce) || ce.Attempts != 3 {
			t.Fatalf("Update against a server that always conflicts: %v, want a *ConflictError after 3 attempts", err)
		}
		if *m.Properties.Description != "d" {
			t.Errorf("after a failed Update the entity holds %q, want what was read", *m.Properties.Description)
		}
	})
}

func TestEntitiesUpdateLostAnswer(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 1})).Entities()
	u := urn.MustParse("urn:li:mlFeature:(users,age)").(urn.MLFeature)
	if err := es.Create(t.Context(), &entity.MLFeature{URN: u, Properties: &aspects.MLFeatureProperties{Sources: []string{}}}); err != nil {
		t.Fatal(err)
	}
	e, err := es.Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	f := e.(*entity.MLFeature)
	s.CommitThenDrop(opWrite, 1)
	calls := 0
	if _, err := es.Update(t.Context(), f, func() error {
		calls++
		f.Properties.Sources = append(f.Properties.Sources, "urn:li:dataset:(urn:li:dataPlatform:hive,users,PROD)")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := mockserver.Get[aspects.MLFeatureProperties](s, u.String())
	if err != nil {
		t.Fatal(err)
	}
	if calls != 1 || len(got.Sources) != 1 {
		t.Errorf("fn called %d times, sources %v; want once and one source (the lost answer resolved by reading)", calls, got.Sources)
	}
}

func TestEntitiesConcurrentUpdates(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s, WithConflictPolicy(ConflictPolicy{MaxAttempts: 500, MinWait: time.Millisecond, MaxWait: 20 * time.Millisecond}))
	es := c.Entities()
	u := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,shared,PROD)").(urn.MLModel)
	if err := es.Create(t.Context(), entity.NewMLModel(u, "shared", nil, nil)); err != nil {
		t.Fatal(err)
	}
	const writers = 64
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for i := range writers {
		wg.Go(func() {
			e, err := es.Get(t.Context(), u)
			if err != nil {
				errs <- err
				return
			}
			m := e.(*entity.MLModel)
			_, err = es.Update(t.Context(), m, func() error {
				if i%2 == 0 { // half set a property, half add a tag
					m.Properties.CustomProperties[fmt.Sprintf("k%02d", i)] = "v"
					return nil
				}
				if m.GlobalTags == nil {
					m.GlobalTags = &aspects.GlobalTags{}
				}
				m.GlobalTags.Tags = append(m.GlobalTags.Tags, aspects.TagAssociation{Tag: fmt.Sprintf("urn:li:tag:t%02d", i)})
				return nil
			})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	props, err := mockserver.Get[aspects.MLModelProperties](s, u.String())
	if err != nil {
		t.Fatal(err)
	}
	tags, err := mockserver.Get[aspects.GlobalTags](s, u.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(props.CustomProperties) != writers/2 || len(tags.Tags) != writers/2 {
		t.Errorf("kept %d properties and %d tags, want %d of each", len(props.CustomProperties), len(tags.Tags), writers/2)
	}
	t.Logf("%d updates: %d proposals received (refused ones included), %d entity reads", writers,
		writeRequests(s), s.RequestCount(opGetEntity))
}

func TestEntitiesDelete(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	ds := sampleEntities(t)[0].(*entity.Dataset)
	if err := es.Create(t.Context(), ds); err != nil {
		t.Fatal(err)
	}
	// The request is pinned by the golden file entities_DeleteAspects.json.
	if err := es.DeleteAspects(t.Context(), ds.URN, "datasetKey"); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("DeleteAspects of the key aspect: %v, want ErrValidation", err)
	}
	if err := es.DeleteAspects(t.Context(), ds.URN, "datasetProperties"); err != nil {
		t.Fatalf("DeleteAspects: %v", err)
	}
	e, err := es.Get(t.Context(), ds.URN)
	if err != nil {
		t.Fatalf("Get after DeleteAspects: %v", err)
	}
	if got := e.(*entity.Dataset); got.Properties != nil || got.Schema == nil {
		t.Errorf("after DeleteAspects(datasetProperties): properties %v, schema %v; want no properties and the schema kept", got.Properties, got.Schema != nil)
	}
	if err := es.Delete(t.Context(), ds.URN, false); err != nil {
		t.Fatal(err)
	}
	e, err = es.Get(t.Context(), ds.URN, "status")
	if err != nil {
		t.Fatal(err)
	}
	if st := e.(*entity.Dataset).Status; st == nil || !st.Removed {
		t.Errorf("after a soft delete: status %v, want removed", st)
	}
	if err := es.Delete(t.Context(), ds.URN, true); err != nil {
		t.Fatal(err)
	}
	if _, err := es.Get(t.Context(), ds.URN); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("Get after a hard delete: %v, want ErrNotFound", err)
	}
	if err := es.Delete(t.Context(), ds.URN, true); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("Delete of a missing entity: %v, want ErrNotFound", err)
	}
}

func TestEntitiesUpdatePatch(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s, WithWriteStrategy(Patch))
	es := c.Entities()
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.patched,PROD)").(urn.Dataset)
	ds := entity.NewDataset(u, "d")
	ds.GlobalTags = &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:old"}}}
	if err := es.Create(t.Context(), ds); err != nil {
		t.Fatal(err)
	}
	e, err := es.Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	d := e.(*entity.Dataset)
	// Another writer adds a tag after the read.
	if err := s.PutAspect(u.String(), aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:old"}, {Tag: "urn:li:tag:theirs"}}}); err != nil {
		t.Fatal(err)
	}
	before := len(s.Proposals())
	calls := 0
	if _, err := es.Update(t.Context(), d, func() error {
		calls++
		d.GlobalTags.Tags = []aspects.TagAssociation{{Tag: "urn:li:tag:mine"}} // removes old, adds mine
		d.Properties.Description = aspects.Ptr("patched and conditional")
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ps := s.Proposals()[before:]
	var got []string
	for _, p := range ps {
		got = append(got, p.AspectName+" "+p.ChangeType+" "+p.Headers["If-Version-Match"])
	}
	// The add and the remove go as documents of their own (their items are
	// keyed differently), as DataHub's Python builder sends them.
	if diff := cmp.Diff([]string{"datasetProperties UPSERT 1", "globalTags PATCH ", "globalTags PATCH "}, got); diff != "" || calls != 1 {
		t.Errorf("proposals (-want +got), fn called %d times (want 1: a patch does not conflict):\n%s", calls, diff)
	}
	tags, err := mockserver.Get[aspects.GlobalTags](s, u)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range tags.Tags {
		names = append(names, tg.Tag)
	}
	if diff := cmp.Diff([]string{"urn:li:tag:theirs", "urn:li:tag:mine"}, names); diff != "" {
		t.Errorf("tags (-want +got): the other writer's tag must stay, old must go:\n%s", diff)
	}

	t.Run("a change in place is conditional", func(t *testing.T) {
		e, err := es.Get(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		d := e.(*entity.Dataset)
		before := len(s.Proposals())
		if _, err := es.Update(t.Context(), d, func() error {
			d.GlobalTags.Tags[0].Context = aspects.Ptr("moved")
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if ps := s.Proposals()[before:]; len(ps) != 1 || ps[0].ChangeType != "UPSERT" || ps[0].Headers["If-Version-Match"] == "" {
			t.Errorf("proposals %+v, want one conditional UPSERT", ps)
		}
	})
}

func TestEntitiesConcurrentPatchUpdates(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s, WithWriteStrategy(Patch))
	es := c.Entities()
	u := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,patched)").(urn.MLFeatureTable)
	if err := es.Create(t.Context(), &entity.MLFeatureTable{URN: u, Properties: &aspects.MLFeatureTableProperties{}}); err != nil {
		t.Fatal(err)
	}
	const writers = 64
	var wg sync.WaitGroup
	var mu sync.Mutex
	calls := 0
	for i := range writers {
		wg.Go(func() {
			e, err := es.Get(t.Context(), u)
			if err != nil {
				t.Error(err)
				return
			}
			tb := e.(*entity.MLFeatureTable)
			if _, err := es.Update(t.Context(), tb, func() error {
				mu.Lock()
				calls++
				mu.Unlock()
				if tb.Ownership == nil {
					tb.Ownership = &aspects.Ownership{}
				}
				tb.Ownership.Owners = append(tb.Ownership.Owners, aspects.Owner{Owner: fmt.Sprintf("urn:li:corpuser:u%02d", i), Type: aspects.OwnershipTypeTechnicalOwner})
				return nil
			}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	own, err := mockserver.Get[aspects.Ownership](s, u)
	if err != nil {
		t.Fatal(err)
	}
	if len(own.Owners) != writers || calls != writers {
		t.Errorf("%d owners kept, fn called %d times; want %d and %d (patches do not conflict)", len(own.Owners), calls, writers, writers)
	}
}

func TestEntitiesUpsert(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	u := urn.MustParse("urn:li:glossaryTerm:Revenue").(urn.GlossaryTerm)
	owners := aspects.Ownership{Owners: []aspects.Owner{{Owner: "urn:li:corpuser:cfo", Type: aspects.OwnershipTypeBusinessOwner}}}
	if err := s.PutAspect(u.String(), owners); err != nil {
		t.Fatal(err)
	}
	// Upsert replaces the aspects it holds, whole, and leaves the others.
	term := &entity.GlossaryTerm{URN: u, Info: &aspects.GlossaryTermInfo{Definition: "Money in.", TermSource: "INTERNAL"}}
	for range 2 {
		if err := es.Upsert(t.Context(), term); err != nil {
			t.Fatal(err)
		}
	}
	e, err := es.Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	got := e.(*entity.GlossaryTerm)
	if got.Info == nil || got.Info.Definition != "Money in." || got.Ownership == nil || len(got.Ownership.Owners) != 1 {
		t.Errorf("after Upsert: info %+v, ownership %+v", got.Info, got.Ownership)
	}
	if v := got.Version("glossaryTermInfo"); v != "1" {
		t.Errorf("two identical Upserts made version %s, want 1", v)
	}
}

func TestEntitiesCanceled(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	ds := sampleEntities(t)[0].(*entity.Dataset)
	if err := es.Create(t.Context(), ds); err != nil {
		t.Fatal(err)
	}
	e, err := es.Get(t.Context(), ds.URN)
	if err != nil {
		t.Fatal(err)
	}
	d := e.(*entity.Dataset)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	before := len(s.Proposals())
	_, err = es.Update(ctx, d, func() error { d.Properties.Description = aspects.Ptr("never"); return nil })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Update with a canceled context: %v", err)
	}
	if *d.Properties.Description == "never" {
		t.Error("a failed Update left fn's change in the entity")
	}
	for name, call := range map[string]func() error{
		"Get":    func() error { _, err := es.Get(ctx, ds.URN); return err },
		"Create": func() error { return es.Create(ctx, entity.NewDataset(ds.URN, "x")) },
		"Upsert": func() error { return es.Upsert(ctx, ds) },
		"Delete": func() error { return es.Delete(ctx, ds.URN, true) },
	} {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a canceled context: %v", name, err)
		}
	}
	if n := len(s.Proposals()) - before; n != 0 {
		t.Errorf("%d proposals reached the server", n)
	}
}

func TestEntitiesUpdateUnreadAspect(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	u := urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,partial,PROD)").(urn.MLModel)
	if err := es.Create(t.Context(), entity.NewMLModel(u, "d", nil, map[string]any{"auc": 0.5})); err != nil {
		t.Fatal(err)
	}
	e, err := es.Get(t.Context(), u, "status") // properties not read
	if err != nil {
		t.Fatal(err)
	}
	m := e.(*entity.MLModel)
	calls := 0
	if _, err := es.Update(t.Context(), m, func() error {
		calls++
		if m.Properties == nil {
			m.Properties = &aspects.MLModelProperties{}
		}
		m.Properties.TrainingMetrics = append(m.Properties.TrainingMetrics, aspects.MLMetric{Name: "f1", Value: aspects.Ptr("0.4")})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	got, err := mockserver.Get[aspects.MLModelProperties](s, u)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 2 || len(got.TrainingMetrics) != 2 || *got.Description != "d" {
		t.Errorf("fn called %d times (want 2: once more after reading the aspect), stored %+v", calls, got)
	}
}

// TestEntitiesCreateThenUpdate proves that an entity passed to Create can go
// to Update without a Get (Update refused it with ErrNotRead before).
func TestEntitiesCreateThenUpdate(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	es := newTestClient(t, s).Entities()
	u := urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,created,PROD)").(urn.MLModelGroup)
	g := &entity.MLModelGroup{URN: u, Properties: &aspects.MLModelGroupProperties{Description: aspects.Ptr("d")}}
	if err := es.Create(t.Context(), g); err != nil {
		t.Fatal(err)
	}
	if _, err := es.Update(t.Context(), g, func() error { g.Properties.Description = aspects.Ptr("x"); return nil }); err != nil {
		t.Fatalf("Update after Create: %v", err)
	}
	e, err := es.Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	if d := e.(*entity.MLModelGroup).Properties.Description; d == nil || *d != "x" {
		t.Errorf("description after Update = %v, want x", d)
	}
}

// TestEntitiesUpdateAfterPatch checks that after an Update under the Patch
// strategy, the next Update of the same entity value that changes the
// patched aspect in place (a conditional write) reads its version first and
// succeeds at once: with MaxAttempts 1 it failed before with "412 Expected
// version , actual version 1" (the patched version left "" and sent as
// If-Version-Match).
func TestEntitiesUpdateAfterPatch(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s, WithWriteStrategy(Patch), WithConflictPolicy(ConflictPolicy{MaxAttempts: 1}))
	es := c.Entities()
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.patched_then_set,PROD)").(urn.Dataset)
	ds := entity.NewDataset(u, "d")
	ds.GlobalTags = &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:old"}}}
	if err := es.Create(t.Context(), ds); err != nil {
		t.Fatal(err)
	}
	e, err := es.Get(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	d := e.(*entity.Dataset)
	if _, err := es.Update(t.Context(), d, func() error {
		d.GlobalTags.Tags = append(d.GlobalTags.Tags, aspects.TagAssociation{Tag: "urn:li:tag:new"})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	before := len(s.Proposals())
	if _, err := es.Update(t.Context(), d, func() error {
		d.GlobalTags.Tags[0].Context = aspects.Ptr("in place") // not a pure add or remove: conditional
		return nil
	}); err != nil {
		t.Fatalf("conditional Update after a patch: %v", err)
	}
	ps := s.Proposals()[before:]
	if len(ps) != 1 || ps[0].ChangeType != "UPSERT" || ps[0].Headers["If-Version-Match"] != "2" {
		t.Errorf("proposals %+v, want one UPSERT with If-Version-Match: 2 (the version the patch made)", ps)
	}
	tags, err := mockserver.Get[aspects.GlobalTags](s, u)
	if err != nil {
		t.Fatal(err)
	}
	want := &aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:old", Context: aspects.Ptr("in place")}, {Tag: "urn:li:tag:new"}}}
	if diff := cmp.Diff(want, &tags); diff != "" {
		t.Errorf("tags (-want +got):\n%s", diff)
	}
}

// TestEntitiesCreateAllOrNothing checks that Create writes all of an entity
// or nothing, over both endpoints: a Create refused for one bad aspect (an
// owner that is not a URN) leaves nothing stored, the fixed Create then
// succeeds, and a Create of the existing entity matches ErrAlreadyExists
// and changes nothing. Over OpenAPI the refused Create left the key and
// the aspects sent before the bad one, and the fixed Create failed with
// ErrAlreadyExists, before the fix.
func TestEntitiesCreateAllOrNothing(t *testing.T) {
	t.Parallel()
	for _, ep := range []datahub.Endpoint{datahub.EndpointRestli, datahub.EndpointOpenAPI} {
		t.Run(fmt.Sprint(ep), func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			es := newTestClient(t, s, datahub.WithEndpoint(ep)).Entities()
			u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.atomic,PROD)").(urn.Dataset)
			ds := entity.NewDataset(u, "first try")
			ds.Status = &aspects.Status{}
			ds.Ownership = &aspects.Ownership{Owners: []aspects.Owner{{Owner: "not-a-urn", Type: aspects.OwnershipTypeTechnicalOwner}}}
			err := es.Create(t.Context(), ds)
			if !errors.Is(err, datahub.ErrValidation) || errors.Is(err, datahub.ErrAlreadyExists) {
				t.Fatalf("Create with a bad owner: %v, want a refusal matching ErrValidation", err)
			}
			if ok, err := es.c.Exists(t.Context(), u); err != nil || ok {
				t.Fatalf("Exists after the refused Create = %v, %v; want false (nothing written)", ok, err)
			}
			ds.Ownership.Owners[0].Owner = "urn:li:corpuser:jdoe"
			if err := es.Create(t.Context(), ds); err != nil {
				t.Fatalf("the fixed Create: %v", err)
			}
			got, err := es.Get(t.Context(), u)
			if err != nil {
				t.Fatal(err)
			}
			if d := got.(*entity.Dataset); d.Ownership == nil || d.Status == nil || d.Properties == nil || *d.Properties.Description != "first try" {
				t.Errorf("stored %+v, want every aspect of the Create", d)
			}
			again := entity.NewDataset(u, "second")
			if err := es.Create(t.Context(), again); !errors.Is(err, datahub.ErrAlreadyExists) {
				t.Errorf("Create of an existing entity: %v, want ErrAlreadyExists", err)
			}
			got, err = es.Get(t.Context(), u)
			if err != nil {
				t.Fatal(err)
			}
			if d := got.(*entity.Dataset); *d.Properties.Description != "first try" {
				t.Errorf("description %q after a refused Create, want it unchanged", *d.Properties.Description)
			}
		})
	}
}
