package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func ordersDataset(t testing.TB, s *mockserver.Server) urn.Dataset {
	t.Helper()
	u, err := urn.NewDataset("snowflake", "shop.orders", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PutAspect(u.String(), aspects.DatasetProperties{Description: aspects.Ptr("Orders.")}); err != nil {
		t.Fatal(err)
	}
	return u
}

// TestAssertions upserts a custom assertion (new, then replaced), reports
// results, reads them back and deletes it.
func TestAssertions(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	ds := ordersDataset(t, s)
	as := c.Assertions()
	u, err := as.UpsertCustom(ctx, CustomAssertion{Entity: ds, Type: "Data Diff", Description: "matches the source",
		Platform: "dbt", FieldPath: "amount", Logic: "select 1", ExternalURL: "https://ci/diff"})
	if err != nil {
		t.Fatal(err)
	}
	again, err := as.UpsertCustom(ctx, CustomAssertion{URN: u, Entity: ds, Type: "Data Diff", Description: "matches the source, to the cent",
		Platform: "urn:li:dataPlatform:great-expectations"})
	if err != nil || again != u {
		t.Fatal(again, err)
	}
	e, err := c.Entities().Get(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	a := e.(*entity.Assertion)
	if a.Info.Type != aspects.AssertionTypeCustom || *a.Info.Description != "matches the source, to the cent" ||
		a.Info.CustomAssertion == nil || a.Info.CustomAssertion.Entity != ds.String() ||
		a.DataPlatformInstance.Platform != "urn:li:dataPlatform:great-expectations" {
		t.Errorf("read back: %+v %+v", a.Info, a.DataPlatformInstance)
	}

	t0 := time.UnixMilli(1_767_000_000_000)
	if err := as.Report(ctx, u, AssertionRun{Type: aspects.AssertionResultTypeSuccess, Time: t0, Properties: map[string]string{"rows": "10", "diff": "0"}}); err != nil {
		t.Fatal(err)
	}
	if err := as.Report(ctx, u, AssertionRun{Type: aspects.AssertionResultTypeFailure, Time: t0.Add(time.Hour),
		Severity: aspects.AssertionResultSeverityHigh, ExternalURL: "https://ci/run/2"}); err != nil {
		t.Fatal(err)
	}
	if err := as.Report(ctx, u, AssertionRun{Type: aspects.AssertionResultTypeError, Time: t0.Add(2 * time.Hour),
		ErrorType: aspects.AssertionResultErrorTypeSourceQueryFailed, ErrorMessage: "timeout"}); err != nil {
		t.Fatal(err)
	}
	runs, err := as.Results(ctx, u, TimeseriesQuery{})
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		At       int64
		Type     aspects.AssertionResultType
		Severity string
		Native   map[string]string
		Error    string
		Assertee string
	}
	var got []run
	for _, r := range runs {
		g := run{At: r.TimestampMillis, Type: r.Result.Type, Native: r.Result.NativeResults, Assertee: r.AsserteeURN}
		if r.Result.Severity != nil {
			g.Severity = string(*r.Result.Severity)
		}
		if r.Result.Error != nil {
			g.Error = string(r.Result.Error.Type) + ": " + r.Result.Error.Properties["message"]
		}
		got = append(got, g)
	}
	ms := t0.UnixMilli()
	want := []run{
		{At: ms + 2*3600_000, Type: "ERROR", Error: "SOURCE_QUERY_FAILED: timeout", Assertee: ds.String()},
		{At: ms + 3600_000, Type: "FAILURE", Severity: "HIGH", Assertee: ds.String()},
		{At: ms, Type: "SUCCESS", Native: map[string]string{"rows": "10", "diff": "0"}, Assertee: ds.String()},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("results (-want +got):\n%s", d)
	}

	for _, bad := range []CustomAssertion{{Type: "t", Description: "d", Platform: "p"}, {Entity: ds, Description: "d", Platform: "p"},
		{Entity: ds, Type: "t", Description: "d"}} {
		if _, err := as.UpsertCustom(ctx, bad); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("UpsertCustom(%+v): %v", bad, err)
		}
	}
	if err := as.Report(ctx, u, AssertionRun{}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("Report without a type: %v", err)
	}
	if err := as.Delete(ctx, u); err != nil {
		t.Fatal(err)
	}
	if ok, err := c.Exists(ctx, u); err != nil || ok {
		t.Errorf("after Delete: exists %v %v", ok, err)
	}
	// DataHub refuses a result of an assertion it does not know.
	err = as.Report(ctx, u, AssertionRun{Type: aspects.AssertionResultTypeSuccess})
	var ge *GraphQLError
	if !errors.As(err, &ge) || !strings.Contains(ge.Message, "does not exist or is not associated with any entity") {
		t.Errorf("Report of a deleted assertion: %v", err)
	}
}

// TestIncidents raises an incident, moves it to resolution and reads it
// back.
func TestIncidents(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	ds := ordersDataset(t, s)
	alice := urn.MustParse("urn:li:corpuser:alice")
	started := time.UnixMilli(1_767_000_000_000)
	inc := c.Incidents()
	u, err := inc.Raise(ctx, IncidentInput{Type: aspects.IncidentTypeFreshness, Title: "Orders are late", Description: "No load since 6:00.",
		Entities: []urn.URN{ds}, Priority: IncidentHigh, Assignees: []urn.URN{alice}, StartedAt: started, Stage: aspects.IncidentStageTriage})
	if err != nil {
		t.Fatal(err)
	}
	info := func() *aspects.IncidentInfo {
		t.Helper()
		e, err := c.Entities().Get(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		return e.(*entity.Incident).Info
	}
	i := info()
	if i.Type != aspects.IncidentTypeFreshness || *i.Title != "Orders are late" || *i.Priority != 1 || *i.StartedAt != started.UnixMilli() ||
		!cmp.Equal(i.Entities, []string{ds.String()}) || len(i.Assignees) != 1 || i.Assignees[0].Actor != alice.String() ||
		i.Status.State != aspects.IncidentStateActive || *i.Status.Stage != aspects.IncidentStageTriage {
		t.Errorf("raised: %+v", i)
	}
	if err := inc.UpdateStatus(ctx, u, aspects.IncidentStateActive, aspects.IncidentStageWorkInProgress, ""); err != nil {
		t.Fatal(err)
	}
	if err := inc.UpdateStatus(ctx, u, aspects.IncidentStateResolved, aspects.IncidentStageFixed, "reloaded"); err != nil {
		t.Fatal(err)
	}
	if i := info(); i.Status.State != aspects.IncidentStateResolved || *i.Status.Stage != aspects.IncidentStageFixed || *i.Status.Message != "reloaded" {
		t.Errorf("resolved: %+v", i.Status)
	}
	ghost := urn.MustParse("urn:li:incident:ghost").(urn.Incident)
	if err := inc.UpdateStatus(ctx, ghost, aspects.IncidentStateResolved, "", ""); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("UpdateStatus of a missing incident: %v", err)
	}
	for _, bad := range []IncidentInput{{Entities: []urn.URN{ds}}, {Type: aspects.IncidentTypeSQL}, {Type: aspects.IncidentTypeCustom, Entities: []urn.URN{ds}}} {
		if _, err := inc.Raise(ctx, bad); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("Raise(%+v): %v", bad, err)
		}
	}
	if err := inc.UpdateStatus(ctx, u, "", "", ""); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("UpdateStatus without a state: %v", err)
	}
}

// TestDataContracts sets a contract of assertions on a dataset, reads it
// back, and replaces it.
func TestDataContracts(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	ds := ordersDataset(t, s)
	var checks []urn.Assertion
	for _, kind := range []string{"schema", "freshness", "rows", "nulls"} {
		u, err := c.Assertions().UpsertCustom(ctx, CustomAssertion{Entity: ds, Type: kind, Description: kind, Platform: "dbt"})
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, u)
	}
	dc := c.DataContracts()
	u, err := dc.Set(ctx, DataContractSpec{Entity: ds, Schema: checks[:1], Freshness: checks[1:2], DataQuality: checks[2:]})
	if err != nil {
		t.Fatal(err)
	}
	// Python's DataContract.urn of this dataset.
	if u.String() != "urn:li:dataContract:27f265fc391eca788eb0ace2dc8c9edc" {
		t.Errorf("URN %s", u)
	}
	got, err := dc.Get(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	want := DataContractSpec{URN: u, Entity: ds, Schema: checks[:1], Freshness: checks[1:2], DataQuality: checks[2:], State: aspects.DataContractStatePending}
	eq := cmp.Comparer(func(a, b urn.URN) bool { return a.String() == b.String() })
	if d := cmp.Diff(want, got, eq); d != "" {
		t.Errorf("Get (-want +got):\n%s", d)
	}
	if removed, err := GetAspect[aspects.Status](ctx, c, u); err != nil || removed.Removed {
		t.Errorf("status: %+v %v", removed, err)
	}
	want.DataQuality, want.Schema, want.State = checks[3:], nil, aspects.DataContractStateActive
	if _, err := dc.Set(ctx, want); err != nil {
		t.Fatal(err)
	}
	got, err = dc.Get(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got, eq); d != "" {
		t.Errorf("Get after a second Set (-want +got):\n%s", d)
	}
	if _, err := dc.Get(ctx, urn.MustParse("urn:li:dataContract:ghost").(urn.DataContract)); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("Get of a missing contract: %v", err)
	}
	if _, err := dc.Set(ctx, DataContractSpec{}); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("Set without an entity: %v", err)
	}
}

// TestQualityCancelled: every new operation returns the context's error
// when its context is cancelled, and sends nothing.
func TestQualityCancelled(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithEntityVersioning(true))
	c := newTestClient(t, s)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,x,PROD)")
	as := urn.MustParse("urn:li:assertion:a").(urn.Assertion)
	prop := urn.MustParse("urn:li:structuredProperty:p").(urn.StructuredProperty)
	set := mustVersionSet(t, "s", "dataset")
	for name, call := range map[string]func() error{
		"UpsertCustom": func() error {
			_, err := c.Assertions().UpsertCustom(ctx, CustomAssertion{Entity: ds, Type: "t", Description: "d", Platform: "dbt"})
			return err
		},
		"Report": func() error {
			return c.Assertions().Report(ctx, as, AssertionRun{Type: aspects.AssertionResultTypeSuccess})
		},
		"Results": func() error { _, err := c.Assertions().Results(ctx, as, TimeseriesQuery{}); return err },
		"Delete":  func() error { return c.Assertions().Delete(ctx, as) },
		"Raise": func() error {
			_, err := c.Incidents().Raise(ctx, IncidentInput{Type: aspects.IncidentTypeSQL, Entities: []urn.URN{ds}})
			return err
		},
		"UpdateStatus": func() error {
			return c.Incidents().UpdateStatus(ctx, urn.MustParse("urn:li:incident:i").(urn.Incident), aspects.IncidentStateResolved, "", "")
		},
		"Set contract": func() error { _, err := c.DataContracts().Set(ctx, DataContractSpec{Entity: ds}); return err },
		"Get contract": func() error {
			_, err := c.DataContracts().Get(ctx, urn.MustParse("urn:li:dataContract:c").(urn.DataContract))
			return err
		},
		"Create property": func() error {
			_, err := c.StructuredProperties().Create(ctx, PropertyDefinition{QualifiedName: "p", Type: PropertyString})
			return err
		},
		"Set property":   func() error { return c.StructuredProperties().Set(ctx, ds, prop, "x") },
		"Link version":   func() error { _, _, err := c.Versions().Link(ctx, ds, set, "1"); return err },
		"Get versions":   func() error { _, err := c.Versions().Get(ctx, set); return err },
		"Unlink version": func() error { _, _, err := c.Versions().Unlink(ctx, ds); return err },
	} {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := writeRequests(s); n != 0 {
		t.Errorf("%d writes sent", n)
	}
}
