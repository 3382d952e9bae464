package emitter_test

import (
	"context"

	"encoding/json"
	"fmt"
	"github.com/catalogkit/datahub-go/urn"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
)

func encodedSize(t *testing.T, v any) int {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func TestFitQuerySubjects(t *testing.T) {
	t.Parallel()
	subject := func(u string) aspects.QuerySubject { return aspects.QuerySubject{Entity: u} }
	ds := func(i int) string { return fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,t%d,PROD)", i) }
	col := func(i int) string { return fmt.Sprintf("urn:li:schemaField:(%s,c)", ds(i)) }
	one := encodedSize(t, subject(ds(0)))
	// Column-level first in the list: table-level ones are kept first all
	// the same.
	q := &aspects.QuerySubjects{Subjects: []aspects.QuerySubject{subject(col(0)), subject(ds(0)), subject(col(1)), subject(ds(1))}}
	res, err := emitter.Fit(q, 2*one+encodedSize(t, subject(col(0)))+1)
	if err != nil {
		t.Fatal(err)
	}
	want := []aspects.QuerySubject{subject(ds(0)), subject(ds(1)), subject(col(0))}
	if diff := cmp.Diff(want, q.Subjects); diff != "" || !res.Trimmed {
		t.Errorf("subjects (-want +got):\n%s\nresult %+v", diff, res)
	}
	// When a table-level subject does not fit, no column-level one is kept.
	q = &aspects.QuerySubjects{Subjects: []aspects.QuerySubject{subject(ds(0)), subject(col(0)), subject(ds(1))}}
	res, err = emitter.Fit(q, one+1)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]aspects.QuerySubject{subject(ds(0))}, q.Subjects); diff != "" || len(res.Notes) != 2 {
		t.Errorf("subjects (-want +got):\n%s\nresult %+v", diff, res)
	}
	// Subjects that fit are left alone.
	res, err = emitter.Fit(q, 0)
	if err != nil || res.Trimmed || len(q.Subjects) != 1 {
		t.Errorf("fitting subjects: %+v, %v, %v", res, err, q.Subjects)
	}
	if _, err := emitter.Fit(aspects.QuerySubjects{}, 0); err == nil {
		t.Error("Fit of a value: no error")
	}
}

func TestFitQueryProperties(t *testing.T) {
	t.Parallel()
	stmt := "SELECT " + strings.Repeat("é\"\n", 2000) + " FROM t"
	q := &aspects.QueryProperties{Statement: aspects.QueryStatement{Value: stmt, Language: "SQL"},
		Name: aspects.Ptr("q"), Description: aspects.Ptr("a query"), CustomProperties: map[string]string{}}
	limit := 3000
	res, err := emitter.Fit(q, limit)
	if err != nil {
		t.Fatal(err)
	}
	got := q.Statement.Value
	if size := encodedSize(t, q); size >= limit || !res.Trimmed || q.Name == nil {
		t.Errorf("after Fit: %d bytes (limit %d), result %+v, name %v", size, limit, res, q.Name)
	}
	i := strings.Index(got, "... [original value was ")
	if i < 0 || !strings.HasPrefix(stmt, got[:i]) || !strings.HasSuffix(got, fmt.Sprintf(" bytes and truncated to %d bytes]", len([]rune(got[:i])))) {
		t.Errorf("statement %q is not a prefix and its note", got)
	}
	// One character more would not fit: the prefix is the longest.
	longer := *q
	longer.Statement.Value = string([]rune(stmt)[:len([]rune(got[:i]))+1]) + fmt.Sprintf("... [original value was %d bytes and truncated to %d bytes]", len([]rune(stmt)), len([]rune(got[:i]))+1)
	if encodedSize(t, longer) < limit {
		t.Errorf("a longer prefix would fit too")
	}

	// The name and description go when the rest alone is too large.
	q = &aspects.QueryProperties{Statement: aspects.QueryStatement{Value: stmt}, Name: aspects.Ptr(strings.Repeat("n", 2000)),
		Description: aspects.Ptr(strings.Repeat("d", 2000))}
	res, err = emitter.Fit(q, 3000)
	if err != nil {
		t.Fatal(err)
	}
	if q.Name != nil || q.Description != nil || len(res.Notes) != 3 {
		t.Errorf("name %v, description %v, notes %q", q.Name, q.Description, res.Notes)
	}
	// QueryStatementLimit caps a larger limit.
	q = &aspects.QueryProperties{Statement: aspects.QueryStatement{Value: strings.Repeat("x", emitter.QueryStatementLimit)}}
	if res, err = emitter.Fit(q, 16*1024*1024); err != nil || !res.Trimmed || encodedSize(t, q) >= emitter.QueryStatementLimit {
		t.Errorf("a statement over QueryStatementLimit: %+v, %v, %d bytes", res, err, encodedSize(t, q))
	}
}

func TestFitViewProperties(t *testing.T) {
	t.Parallel()
	logic := strings.Repeat("select 1 union ", 100)
	// formattedViewLogic is cut first; viewLogic is kept when that is enough.
	v := &aspects.ViewProperties{ViewLogic: logic, FormattedViewLogic: aspects.Ptr(logic + logic), ViewLanguage: "SQL"}
	limit := encodedSize(t, v) - len(logic)
	res, err := emitter.Fit(v, limit)
	if err != nil {
		t.Fatal(err)
	}
	if v.ViewLogic != logic || !strings.Contains(*v.FormattedViewLogic, "... [truncated from 3000 to ") || encodedSize(t, v) >= limit || len(res.Notes) != 1 {
		t.Errorf("after Fit: viewLogic kept %v, formatted %q, %d bytes, notes %q", v.ViewLogic == logic, *v.FormattedViewLogic, encodedSize(t, v), res.Notes)
	}
	// Then viewLogic; a text of which nothing fits is replaced by a note.
	v = &aspects.ViewProperties{ViewLogic: logic, FormattedViewLogic: aspects.Ptr(logic), ViewLanguage: "SQL"}
	limit = encodedSize(t, aspects.ViewProperties{ViewLanguage: "SQL", FormattedViewLogic: aspects.Ptr("[removed due to size - original was 1500 chars]")}) + 200
	res, err = emitter.Fit(v, limit)
	if err != nil {
		t.Fatal(err)
	}
	if *v.FormattedViewLogic != "[removed due to size - original was 1500 chars]" || !strings.Contains(v.ViewLogic, "... [truncated from 1500 to ") || len(res.Notes) != 2 {
		t.Errorf("after Fit: %+v, notes %q", v, res.Notes)
	}
	if size := encodedSize(t, v); size >= limit {
		t.Errorf("%d bytes after Fit, limit %d", size, limit)
	}
}

func ExampleFit_queryProperties() {
	mock, srv := serveMock()
	defer srv.Close()
	e, err := emitter.NewREST(srv.URL)
	if err != nil {
		panic(err)
	}
	// A generated statement of 6 MB: over the 5 MiB Fit keeps queries under.
	q := &aspects.QueryProperties{
		Statement:        aspects.QueryStatement{Value: "SELECT " + strings.Repeat("c, ", 2<<20) + "d FROM t", Language: aspects.QueryLanguageSQL},
		Source:           aspects.QuerySourceSystem,
		CustomProperties: map[string]string{},
		Created:          aspects.AuditStamp{Actor: aspects.UnknownActor},
		LastModified:     aspects.AuditStamp{Actor: aspects.UnknownActor},
	}
	res, err := emitter.Fit(q, 0)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Trimmed, q.Statement.Value[len(q.Statement.Value)-69:])
	u := urn.MustParse("urn:li:query:big")
	p, err := emitter.NewProposal(u, q)
	if err != nil {
		panic(err)
	}
	if err := e.Emit(context.Background(), p); err != nil {
		panic(err)
	}
	got, _ := mock.GetAspect(u.String(), "queryProperties")
	fmt.Println(len(got.(*aspects.QueryProperties).Statement.Value) < emitter.QueryStatementLimit)
	// Output:
	// true ... [original value was 6291471 bytes and truncated to 5242612 bytes]
	// true
}
