package client

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

func exist(t *testing.T, s *mockserver.Server, us ...urn.URN) {
	t.Helper()
	for _, u := range us {
		if err := s.PutAspectJSON(u.String(), "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
}

func destinations(edges []aspects.Edge) []string {
	out := make([]string, 0, len(edges))
	for _, e := range edges {
		out = append(out, e.DestinationURN)
	}
	slices.Sort(out)
	return out
}

// TestLineagePythonPairs: each pair DataHub's Python SDK adds besides
// dataset→dataset lands in the aspect field Python's patch writes, and 16
// concurrent adds of different upstreams onto one entity lose none.
func TestLineagePythonPairs(t *testing.T) {
	t.Parallel()
	const n = 16
	ds := func(i int) urn.URN {
		return urn.MustParse(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.t%02d,PROD)", i))
	}
	chart := func(i int) urn.URN { return urn.MustParse(fmt.Sprintf("urn:li:chart:(looker,c%02d)", i)) }
	dash := func(i int) urn.URN { return urn.MustParse(fmt.Sprintf("urn:li:dashboard:(looker,d%02d)", i)) }
	job := func(i int) urn.URN {
		return urn.MustParse(fmt.Sprintf("urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),j%02d)", i))
	}
	for _, tc := range []struct {
		pair     string
		up       func(int) urn.URN
		down     urn.URN
		upstream bool // the upstream is patched (dataJob→dataset): the n adds go from one job to n datasets
		read     func(*Client, *testing.T, urn.URN) []string
	}{
		{"dataset→chart", ds, chart(99), false, func(c *Client, t *testing.T, u urn.URN) []string {
			a, err := GetAspect[aspects.ChartInfo](t.Context(), c, u)
			if err != nil {
				t.Fatal(err)
			}
			return destinations(a.InputEdges)
		}},
		{"dataset→dashboard", ds, dash(99), false, func(c *Client, t *testing.T, u urn.URN) []string {
			a, err := GetAspect[aspects.DashboardInfo](t.Context(), c, u)
			if err != nil {
				t.Fatal(err)
			}
			return destinations(a.DatasetEdges)
		}},
		{"chart→dashboard", chart, dash(98), false, func(c *Client, t *testing.T, u urn.URN) []string {
			a, err := GetAspect[aspects.DashboardInfo](t.Context(), c, u)
			if err != nil {
				t.Fatal(err)
			}
			return destinations(a.ChartEdges)
		}},
		{"dashboard→dashboard", dash, dash(97), false, func(c *Client, t *testing.T, u urn.URN) []string {
			a, err := GetAspect[aspects.DashboardInfo](t.Context(), c, u)
			if err != nil {
				t.Fatal(err)
			}
			return destinations(a.Dashboards)
		}},
		{"dataset→dataJob", ds, job(99), false, func(c *Client, t *testing.T, u urn.URN) []string {
			a, err := GetAspect[aspects.DataJobInputOutput](t.Context(), c, u)
			if err != nil {
				t.Fatal(err)
			}
			return destinations(a.InputDatasetEdges)
		}},
		{"dataJob→dataJob", job, job(98), false, func(c *Client, t *testing.T, u urn.URN) []string {
			a, err := GetAspect[aspects.DataJobInputOutput](t.Context(), c, u)
			if err != nil {
				t.Fatal(err)
			}
			return destinations(a.InputDatajobEdges)
		}},
		{"dataJob→dataset", ds, job(97), true, func(c *Client, t *testing.T, u urn.URN) []string {
			a, err := GetAspect[aspects.DataJobInputOutput](t.Context(), c, u)
			if err != nil {
				t.Fatal(err)
			}
			return destinations(a.OutputDatasetEdges)
		}},
	} {
		t.Run(tc.pair, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			c := newTestClient(t, s)
			exist(t, s, tc.down)
			var want []string
			var wg sync.WaitGroup
			errs := make([]error, n)
			for i := range n {
				exist(t, s, tc.up(i))
				want = append(want, tc.up(i).String())
				wg.Add(1)
				go func() {
					defer wg.Done()
					if tc.upstream { // the job feeds dataset i
						errs[i] = c.Lineage().Add(t.Context(), tc.down, tc.up(i))
					} else {
						errs[i] = c.Lineage().Add(t.Context(), tc.up(i), tc.down)
					}
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			slices.Sort(want)
			if got := tc.read(c, t, tc.down); !slices.Equal(got, want) {
				t.Errorf("edges\n%v\nwant\n%v", got, want)
			}
		})
	}
}

// TestLineageAddRefusesColumnsOnOtherPairs: column lineage, matching and
// transformation text are for two datasets only, and a missing entity
// to patch is not found; nothing is written either way.
func TestLineageAddRefusesColumnsOnOtherPairs(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)")
	other := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)")
	chart := urn.MustParse("urn:li:chart:(looker,c)")
	exist(t, s, ds, chart)
	for name, opt := range map[string]LineageOption{
		"columns":        WithColumnLineage(ColumnLineage{"a", "b"}),
		"matching":       WithColumnMatching(MatchFuzzy),
		"transformation": WithTransformation("SELECT 1"),
	} {
		if err := c.Lineage().Add(t.Context(), ds, chart, opt); !errors.Is(err, datahub.ErrValidation) {
			t.Errorf("%s on dataset→chart: %v", name, err)
		}
	}
	if err := c.Lineage().Add(t.Context(), other, ds, WithColumnLineage(ColumnLineage{"a", "b"}), WithColumnMatching(MatchStrict)); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("given and matched: %v", err)
	}
	if err := c.Lineage().Add(t.Context(), other, ds, WithColumnMatching(ColumnMatch(7))); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("bad matching: %v", err)
	}
	if err := c.Lineage().Add(t.Context(), other, ds, WithTransformation("")); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("empty transformation: %v", err)
	}
	var nf *EntityNotFoundError
	if err := c.Lineage().Add(t.Context(), ds, other); !errors.As(err, &nf) || !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("missing downstream: %v", err)
	}
	if _, err := GetAspect[aspects.UpstreamLineage](t.Context(), c, ds); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("something was written: %v", err)
	}
}

func schemaOf(ds urn.URN, paths ...string) aspects.SchemaMetadata {
	sm := aspects.SchemaMetadata{SchemaName: "s", Platform: "urn:li:dataPlatform:hive", PlatformSchema: aspects.OtherSchema{}}
	for _, p := range paths {
		sm.Fields = append(sm.Fields, aspects.SchemaField{FieldPath: p, Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"})
	}
	return sm
}

func field(t *testing.T, ds urn.URN, path string) urn.SchemaField {
	t.Helper()
	f, err := urn.NewSchemaField(ds, path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func fieldStrings(fs []urn.SchemaField) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.String())
	}
	return out
}

// TestColumnLineageRoundTrip: column lineage written with Lineage.Add
// (given, strictly matched, fuzzily matched) reads back through
// Lineage.Columns upstream and downstream as written.
func TestColumnLineageRoundTrip(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	src := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.src,PROD)")
	given := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.given,PROD)")
	strict := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.strict,PROD)")
	fuzzy := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.fuzzy,PROD)")
	for u, paths := range map[urn.URN][]string{
		src:    {"id", "Customer_Id", "email_address", "amount"},
		given:  {"user_id", "total"},
		strict: {"ID", "customer_id", "emailaddress"},
		fuzzy:  {"id", "customerid", "email_addr", "amt"},
	} {
		if err := s.PutAspect(u.String(), schemaOf(u, paths...)); err != nil {
			t.Fatal(err)
		}
	}
	ctx := t.Context()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Lineage().Add(ctx, src, given, WithColumnLineage(ColumnLineage{"id", "user_id"}, ColumnLineage{"amount", "total"}, ColumnLineage{"Customer_Id", "user_id"})))
	must(c.Lineage().Add(ctx, src, strict, WithColumnMatching(MatchStrict)))
	must(c.Lineage().Add(ctx, src, fuzzy, WithColumnMatching(MatchFuzzy)))

	f := func(ds urn.URN, p string) string { return field(t, ds, p).String() }
	upstream := map[string][]string{
		f(given, "user_id"):       {f(src, "Customer_Id"), f(src, "id")},
		f(given, "total"):         {f(src, "amount")},
		f(strict, "ID"):           {f(src, "id")},
		f(strict, "customer_id"):  {f(src, "Customer_Id")},
		f(strict, "emailaddress"): {},
		f(fuzzy, "id"):            {f(src, "id")},
		f(fuzzy, "customerid"):    {f(src, "Customer_Id")},
		// "emailaddr" is 0.857 similar to "emailaddress"; "amt" only 0.667 to "amount".
		f(fuzzy, "email_addr"): {f(src, "email_address")},
		f(fuzzy, "amt"):        {},
	}
	for down, want := range upstream {
		got, err := c.Lineage().Columns(ctx, urn.MustParse(down).(urn.SchemaField), Upstream)
		must(err)
		if !slices.Equal(fieldStrings(got), want) {
			t.Errorf("upstream of %s: %v, want %v", down, fieldStrings(got), want)
		}
	}
	downstream := map[string][]string{
		f(src, "id"):            {f(fuzzy, "id"), f(given, "user_id"), f(strict, "ID")},
		f(src, "Customer_Id"):   {f(fuzzy, "customerid"), f(given, "user_id"), f(strict, "customer_id")},
		f(src, "email_address"): {f(fuzzy, "email_addr")},
		f(src, "amount"):        {f(given, "total")},
	}
	for up, want := range downstream {
		slices.Sort(want)
		got, err := c.Lineage().Columns(ctx, urn.MustParse(up).(urn.SchemaField), Downstream)
		must(err)
		if !slices.Equal(fieldStrings(got), want) {
			t.Errorf("downstream of %s: %v, want %v", up, fieldStrings(got), want)
		}
	}
	// The table-level edge is a COPY without a query.
	ul, err := GetAspect[aspects.UpstreamLineage](ctx, c, given)
	must(err)
	if len(ul.Upstreams) != 1 || ul.Upstreams[0].Dataset != src.String() || ul.Upstreams[0].Type != "COPY" || ul.Upstreams[0].Query != nil {
		t.Errorf("upstreams: %+v", ul.Upstreams)
	}
	if _, err := c.Lineage().Columns(ctx, field(t, urn.MustParse("urn:li:chart:(looker,c)"), "x"), Upstream); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("column of a chart: %v", err)
	}
}

// TestLineageTransformationQuery: transformation text is recorded as the
// query entity DataHub's Python SDK writes (URN from the text's SHA-256,
// queryProperties, querySubjects in Python's order) and the upstream and
// column lineage name it.
func TestLineageTransformationQuery(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	up := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)")
	down := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.names,PROD)")
	exist(t, s, up, down)
	const sql = "SELECT id, name FROM db.users"
	if err := c.Lineage().Add(ctx, up, down, WithTransformation(sql), WithColumnLineage(ColumnLineage{"id", "id"}, ColumnLineage{"name", "name"})); err != nil {
		t.Fatal(err)
	}
	q := QueryURN(sql)
	// hashlib.sha256(b"SELECT id, name FROM db.users").hexdigest()
	if want := "urn:li:query:7046ab3bc133cd00398221563d6e298befbaf22c9b3b8b19f5529745ffad4214"; q.String() != want {
		t.Errorf("query URN %s, want %s", q, want)
	}
	props, err := GetAspect[aspects.QueryProperties](ctx, c, q)
	if err != nil {
		t.Fatal(err)
	}
	stamp := aspects.AuditStamp{Time: 0, Actor: "urn:li:corpuser:__ingestion"}
	if props.Statement.Value != sql || props.Statement.Language != aspects.QueryLanguageSQL || props.Source != aspects.QuerySourceSystem ||
		props.Created != stamp || props.LastModified != stamp {
		t.Errorf("queryProperties %+v", props)
	}
	subj, err := GetAspect[aspects.QuerySubjects](ctx, c, q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range subj.Subjects {
		got = append(got, s.Entity)
	}
	want := []string{up.String(), down.String(),
		field(t, up, "id").String(), field(t, down, "id").String(), field(t, up, "name").String(), field(t, down, "name").String()}
	if !slices.Equal(got, want) {
		t.Errorf("subjects\n%v\nwant\n%v", got, want)
	}
	ul, err := GetAspect[aspects.UpstreamLineage](ctx, c, down)
	if err != nil {
		t.Fatal(err)
	}
	if len(ul.Upstreams) != 1 || ul.Upstreams[0].Type != "TRANSFORMED" || ul.Upstreams[0].Query == nil || *ul.Upstreams[0].Query != q.String() {
		t.Errorf("upstreams %+v", ul.Upstreams)
	}
	if len(ul.FineGrainedLineages) != 2 {
		t.Fatalf("fine-grained %+v", ul.FineGrainedLineages)
	}
	for _, fg := range ul.FineGrainedLineages {
		if fg.Query == nil || *fg.Query != q.String() {
			t.Errorf("fine-grained without the query: %+v", fg)
		}
	}
}

// TestLineageConcurrentColumnAdds: 16 concurrent dataset→dataset adds,
// each with its own column, onto one downstream lose no edge and no
// column.
func TestLineageConcurrentColumnAdds(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	down := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.all,PROD)")
	exist(t, s, down)
	var wg sync.WaitGroup
	errs := make([]error, 16)
	var want []string
	for i := range 16 {
		up := urn.MustParse(fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:hive,db.u%02d,PROD)", i))
		want = append(want, field(t, up, "v").String())
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Lineage().Add(t.Context(), up, down, WithColumnLineage(ColumnLineage{"v", fmt.Sprintf("c%02d", i)}))
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	ul, err := GetAspect[aspects.UpstreamLineage](t.Context(), c, down)
	if err != nil {
		t.Fatal(err)
	}
	if len(ul.Upstreams) != 16 {
		t.Errorf("%d upstreams, want 16", len(ul.Upstreams))
	}
	var got []string
	for _, fg := range ul.FineGrainedLineages {
		got = append(got, fg.Upstreams...)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("column upstreams\n%v\nwant\n%v", got, want)
	}
}
