package client

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
	"github.com/vektah/gqlparser/v2/validator/rules"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/testshared"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestGraphQLDocumentsValidate checks every document the SDK sends against
// DataHub's own SDL files.
func TestGraphQLDocumentsValidate(t *testing.T) {
	dir := testshared.Path(t, "reference", "datahub", "datahub-graphql-core", "src", "main", "resources")
	files, err := filepath.Glob(filepath.Join(dir, "*.graphql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no SDL under %s: %v", dir, err)
	}
	var srcs []*ast.Source
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, &ast.Source{Name: filepath.Base(f), Input: string(b)})
	}
	schema, err := gqlparser.LoadSchema(srcs...)
	if err != nil {
		t.Fatalf("load DataHub's SDL: %v", err)
	}
	// validate parses and validates doc and coerces vars for its operation.
	validate := func(doc string, vars map[string]any) error {
		q, err := parser.ParseQuery(&ast.Source{Input: doc})
		if err != nil {
			return err
		}
		if errs := validator.ValidateWithRules(schema, q, rules.NewDefaultRules()); len(errs) > 0 {
			return errs
		}
		for _, op := range q.Operations {
			if _, err := validator.VariableValues(schema, op, vars); err != nil {
				return err
			}
		}
		return nil
	}
	docs := graphQLDocuments()
	if len(docs) != 10 {
		t.Errorf("%d documents, want 10 (the five reads, updateDescription, three searches and lineage)", len(docs))
	}
	// The search inputs as the SDK builds them, from a filter using every
	// kind of rule.
	clauses, types, err := And(EntityType("dataset", "mlModel"), Or(Tag("pii"), Not(OwnedBy("urn:li:corpuser:jo"))),
		Env("PROD"), Field("name", StartWith, "a"), Field("urn", Exists)).compile()
	if err != nil {
		t.Fatal(err)
	}
	searchInput := map[string]any{"query": "*", "orFilters": orFiltersJSON(clauses), "searchFlags": searchFlags, "types": types}
	for name, doc := range docs {
		vars := map[string]any{"urn": "urn:li:x:y"}
		switch name {
		case "updateDescription":
			vars = map[string]any{"input": map[string]any{"description": "d", "resourceUrn": "u", "subResourceType": "DATASET_FIELD", "subResource": "c"}}
		case "scrollAcrossEntities":
			vars = map[string]any{"input": merged(searchInput, map[string]any{"count": 10, "scrollId": "x"})}
		case "searchAcrossEntities":
			vars = map[string]any{"input": merged(searchInput, map[string]any{"start": 0, "count": 0})}
		case "aggregateAcrossEntities":
			vars = map[string]any{"input": merged(searchInput, map[string]any{"facets": []string{"platform"}})}
		case "scrollAcrossLineage":
			vars = map[string]any{"input": merged(searchInput, map[string]any{"urn": "urn:li:x:y", "direction": "UPSTREAM", "count": 10, "scrollId": "x"})}
		}
		// The server sees the variables as JSON: validate what they decode to.
		raw, err := json.Marshal(vars)
		if err != nil {
			t.Fatal(err)
		}
		vars = nil
		if err := json.Unmarshal(raw, &vars); err != nil {
			t.Fatal(err)
		}
		if err := validate(doc, vars); err != nil {
			t.Errorf("%s does not validate against DataHub's SDL: %v", name, err)
		}
	}
	if err := validate(`query q($u: String!) { mlFeature(urn: $u) { urn } }`, map[string]any{}); err == nil {
		t.Error("a document without its required variable validated: the variables are not checked")
	}
	if err := validate(`{ mlFeature(urn: "x") { nope } }`, nil); err == nil {
		t.Error("a wrong document validated: the check cannot fail")
	}
}

// merged returns a copy of a with b's entries.
func merged(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// The URNs of the end-to-end tests.
func gqlURNs(t *testing.T) (urn.MLFeatureTable, urn.MLFeature, urn.MLModel, urn.MLModelGroup, urn.Dataset) {
	t.Helper()
	model, err := urn.NewMLModel("sagemaker", "churn", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	group, err := urn.NewMLModelGroup("sagemaker", "churn-runs", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	ds, err := urn.NewDataset("hive", "db.users", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	return tableURN(t, "users"), featureURN(t, "users", "age"), model, group, ds
}

// emitAll writes the aspects with the REST emitter.
func emitAll(t *testing.T, s *mockserver.Server, writes map[urn.URN][]aspects.Aspect) {
	t.Helper()
	em, err := emitter.NewREST(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	var ps []emitter.Proposal
	for u, as := range writes {
		for _, a := range as {
			p, err := emitter.NewProposal(u, a)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
	}
	if err := em.Emit(t.Context(), ps...); err != nil {
		t.Fatal(err)
	}
}

func TestGraphQLReadsEndToEnd(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	table, feature, model, group, ds := gqlURNs(t)
	dt := aspects.MLFeatureDataTypeText
	emitAll(t, s, map[urn.URN][]aspects.Aspect{
		feature: {aspects.MLFeatureProperties{Description: aspects.Ptr("Age"), DataType: &dt,
			Version: &aspects.VersionTag{VersionTag: aspects.Ptr("2")}, Sources: []string{ds.String()}, CustomProperties: map[string]string{"unit": "years"}}},
		table: {aspects.MLFeatureTableProperties{Description: aspects.Ptr("User features"), MLFeatures: []string{feature.String()}}},
		model: {aspects.MLModelProperties{Description: aspects.Ptr("Churn"), Version: &aspects.VersionTag{VersionTag: aspects.Ptr("v3")},
			Type: aspects.Ptr("xgboost"), Groups: []string{group.String()}, MLFeatures: []string{feature.String()}}},
		group: {aspects.MLModelGroupProperties{Description: aspects.Ptr("All runs")}},
		ds: {aspects.DatasetProperties{Description: aspects.Ptr("Users")},
			aspects.SchemaMetadata{SchemaName: "users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
				Fields: []aspects.SchemaField{{FieldPath: "id", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string", Description: aspects.Ptr("key")}}},
			aspects.GlobalTags{Tags: []aspects.TagAssociation{{Tag: "urn:li:tag:pii"}}}},
	})
	c := newTestClient(t, s)
	ctx := t.Context()

	f, err := c.MLFeature(ctx, feature)
	if err != nil {
		t.Fatal(err)
	}
	if f.Name != "age" || f.FeatureNamespace != "users" || deref(f.Description) != "Age" || deref(f.DataType) != "TEXT" || f.Exists == nil || !*f.Exists ||
		f.Properties == nil || deref(f.Properties.Version.VersionTag) != "2" || len(f.Properties.Sources) != 1 || f.Properties.Sources[0].Name != "db.users" ||
		len(f.Properties.CustomProperties) != 1 || f.Properties.CustomProperties[0].Key != "unit" {
		t.Errorf("MLFeature = %+v, properties %+v", f, f.Properties)
	}
	tb, err := c.MLFeatureTable(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]EntityRef{{URN: feature.String(), Type: "MLFEATURE", Name: "age"}}, tb.Properties.MLFeatures); diff != "" || tb.Platform.Name != "feast" || deref(tb.Description) != "User features" {
		t.Errorf("MLFeatureTable = %+v (features -want +got):\n%s", tb, diff)
	}
	m, err := c.MLModel(ctx, model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Origin != "PROD" || deref(m.Properties.Version) != "v3" || deref(m.Properties.Type) != "xgboost" ||
		cmp.Diff([]string{feature.String()}, m.Properties.MLFeatures) != "" ||
		cmp.Diff([]EntityRef{{URN: group.String(), Type: "MLMODEL_GROUP", Name: "churn-runs"}}, m.Properties.Groups) != "" {
		t.Errorf("MLModel = %+v, properties %+v", m, m.Properties)
	}
	g, err := c.MLModelGroup(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	if g.Name != "churn-runs" || deref(g.Description) != "All runs" || g.Platform.Name != "sagemaker" {
		t.Errorf("MLModelGroup = %+v", g)
	}
	d, err := c.Dataset(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "db.users" || deref(d.Properties.Description) != "Users" || len(d.SchemaMetadata.Fields) != 1 ||
		d.SchemaMetadata.Fields[0].Type != "STRING" || deref(d.SchemaMetadata.Fields[0].Description) != "key" ||
		d.Tags == nil || len(d.Tags.Tags) != 1 || d.Tags.Tags[0].Tag.Name != "pii" || d.EditableSchemaMetadata != nil {
		t.Errorf("Dataset = %+v", d)
	}

	// A model without groups or features, and one never written.
	bare, _ := urn.NewMLModel("sagemaker", "bare", "DEV")
	emitAll(t, s, map[urn.URN][]aspects.Aspect{bare: {aspects.MLModelProperties{Description: aspects.Ptr("b")}}})
	b, err := c.MLModel(ctx, bare)
	if err != nil {
		t.Fatal(err)
	}
	if b.Properties.Groups == nil || len(b.Properties.Groups) != 0 || b.Properties.MLFeatures != nil {
		t.Errorf("model without groups: groups %#v (want empty, not nil), mlFeatures %#v (want nil)", b.Properties.Groups, b.Properties.MLFeatures)
	}
	ghost, _ := urn.NewMLModel("mlflow", "ghost", "QA")
	gh, err := c.MLModel(ctx, ghost)
	if err != nil {
		t.Fatal(err)
	}
	if gh.Exists == nil || *gh.Exists || gh.Name != "ghost" || gh.Origin != "QA" || gh.Properties != nil {
		t.Errorf("never-written model = %+v", gh)
	}
}

func TestGraphQLUpdateDescriptionEndToEnd(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	_, feature, _, _, ds := gqlURNs(t)
	emitAll(t, s, map[urn.URN][]aspects.Aspect{
		ds: {aspects.SchemaMetadata{SchemaName: "users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
			Fields: []aspects.SchemaField{{FieldPath: "id", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"}}}},
		feature: {aspects.MLFeatureProperties{Description: aspects.Ptr("Age")}},
	})
	c := newTestClient(t, s)
	ctx := t.Context()
	const md = "**Stable** id.\n\n```sql\nselect id\n```"
	if err := c.UpdateDescription(ctx, DescriptionUpdate{ResourceURN: ds.String(), SubResourceType: SubResourceDatasetField, SubResource: "id", Description: md}); err != nil {
		t.Fatal(err)
	}
	d, err := c.Dataset(ctx, ds)
	if err != nil {
		t.Fatal(err)
	}
	if d.EditableSchemaMetadata == nil || len(d.EditableSchemaMetadata.EditableSchemaFieldInfo) != 1 || deref(d.EditableSchemaMetadata.EditableSchemaFieldInfo[0].Description) != md {
		t.Errorf("editableSchemaMetadata after the mutation = %+v", d.EditableSchemaMetadata)
	}

	missing, _ := urn.NewDataset("hive", "ghost", "PROD")
	tests := []struct {
		name     string
		in       DescriptionUpdate
		sentinel error
		code     int
		status   int // of the unwrapped *datahub.Error
		msg      string
	}{
		{"missing entity", DescriptionUpdate{ResourceURN: missing.String(), SubResourceType: SubResourceDatasetField, SubResource: "id", Description: "x"},
			datahub.ErrNotFound, 400, 404, "Failed to update " + missing.String() + ". " + missing.String() + " does not exist."},
		{"no such field", DescriptionUpdate{ResourceURN: ds.String(), SubResourceType: SubResourceDatasetField, SubResource: "nope", Description: "x"},
			datahub.ErrValidation, 400, 400, "Failed to update " + ds.String() + " & field nope. Field nope does not exist in the datasets schema."},
		{"ML entity", DescriptionUpdate{ResourceURN: feature.String(), Description: "x"},
			nil, 500, 500, "Failed to update description. Unsupported resource type " + feature.String() + " provided."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := c.UpdateDescription(ctx, tt.in)
			var ge *GraphQLError
			if !errors.As(err, &ge) {
				t.Fatalf("error %v (%T), want a *GraphQLError", err, err)
			}
			if ge.Code != tt.code || ge.Message != tt.msg || cmp.Diff([]any{"updateDescription"}, ge.Path) != "" || len(ge.Locations) != 1 {
				t.Errorf("GraphQLError = %+v, want code %d message %q", ge, tt.code, tt.msg)
			}
			var de *datahub.Error
			if !errors.As(err, &de) || de.StatusCode != tt.status {
				t.Errorf("errors.As *datahub.Error = %v, want status %d", de, tt.status)
			}
			// One error, one kind: the sentinel expected and no other.
			for _, s := range []error{datahub.ErrNotFound, datahub.ErrValidation, datahub.ErrUnauthorized,
				datahub.ErrPreconditionFailed, datahub.ErrPayloadTooLarge, datahub.ErrOutcomeUnknown} {
				if got := errors.Is(err, s); got != (s == tt.sentinel) {
					t.Errorf("errors.Is(%v, %v) = %v", err, s, got)
				}
			}
		})
	}
}

func TestGraphQLHTTPErrors(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithToken("secret"))
	_, feature, _, _, _ := gqlURNs(t)
	c := newTestClient(t, s, datahub.WithToken("wrong"))
	_, err := c.MLFeature(t.Context(), feature)
	var de *datahub.Error
	if !errors.As(err, &de) || de.StatusCode != http.StatusUnauthorized || !errors.Is(err, datahub.ErrUnauthorized) {
		t.Fatalf("error %v, want a 401 *datahub.Error", err)
	}
	if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "wrong") {
		t.Errorf("error shows the token: %v", err)
	}

	// A 503 is retried by the shared policy (hasura's own retries are off).
	s2 := mockserver.Start(t, mockserver.WithFault(mockserver.Fault{Op: mockserver.OpGraphQL, Times: 2, Status: http.StatusServiceUnavailable}))
	c2 := newTestClient(t, s2, datahub.WithRetry(datahub.RetryPolicy{MaxAttempts: 3, Backoff: func(int, *http.Response) time.Duration { return 0 }}))
	if _, err := c2.MLFeature(t.Context(), feature); err != nil {
		t.Fatalf("after two 503s: %v", err)
	}
	if n := s2.RequestCount(mockserver.OpGraphQL); n != 3 {
		t.Errorf("%d GraphQL requests, want 3 (two 503s, then the answer)", n)
	}
}

func TestGraphQLURL(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ server, option, want string }{
		{"http://localhost:8080", "", "http://localhost:8080/api/graphql"},
		{"https://datahub.example.com/api/gms", "", "https://datahub.example.com/api/graphql"},
		{"https://datahub.example.com/api/gms/", "", "https://datahub.example.com/api/graphql"},
		{"http://gms:8080", "https://datahub.example.com/api/v2/graphql", "https://datahub.example.com/api/v2/graphql"},
	} {
		c, err := New(tt.server, WithGraphQLURL(tt.option))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.GraphQLURL(); got != tt.want {
			t.Errorf("New(%q, WithGraphQLURL(%q)).GraphQLURL() = %q, want %q", tt.server, tt.option, got, tt.want)
		}
	}
	if _, err := New("http://gms:8080", WithGraphQLURL("not a url")); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("a bad GraphQL URL: %v, want ErrValidation", err)
	}
}

func TestGraphQLRaw(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	table := tableURN(t, "raw")
	putTable(t, s, table)
	data, err := c.GraphQL(t.Context(), `query q($u: String!) { mlFeatureTable(urn: $u) { name description } }`, map[string]any{"u": table.String()}, "q")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), `{"mlFeatureTable":{"name":"raw","description":"t"}}`; got != want {
		t.Errorf("data %s, want %s", got, want)
	}
	_, err = c.GraphQL(t.Context(), `{ mlFeatureTable(urn: "x") { nope } }`, nil, "")
	var ge *GraphQLError
	if !errors.As(err, &ge) || ge.Classification != "ValidationError" || !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("invalid document: %v", err)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// TestSetFieldDescriptionBothPaths runs SetFieldDescription on the
// cases: the result and the errors.
func TestSetFieldDescriptionBothPaths(t *testing.T) {
	t.Parallel()
	paths := map[string]func(c *Client, ctx context.Context, ds urn.Dataset, fp, d string) error{
		"proposal": (*Client).SetFieldDescription,
	}
	for name, set := range paths {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := mockserver.Start(t)
			_, _, _, _, ds := gqlURNs(t)
			noSchema, _ := urn.NewDataset("hive", "noschema", "PROD")
			missing, _ := urn.NewDataset("hive", "ghost", "PROD")
			emitAll(t, s, map[urn.URN][]aspects.Aspect{
				ds: {aspects.SchemaMetadata{SchemaName: "users", Platform: ds.Platform().String(), PlatformSchema: aspects.OtherSchema{},
					Fields: []aspects.SchemaField{{FieldPath: "id", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
						{FieldPath: "[version=2.0].[type=string].name", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
						{FieldPath: "[version=2.0].[type=struct].[type=string].user_id", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
						{FieldPath: "[version=2.0].[type=union].[type=A].val", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"},
						{FieldPath: "[version=2.0].[type=union].[type=B].val", Type: aspects.DataType(aspects.StringType{}), NativeDataType: "string"}}},
					aspects.EditableSchemaMetadata{EditableSchemaFieldInfo: []aspects.EditableSchemaFieldInfo{{FieldPath: "other", Description: aspects.Ptr("kept")}}}},
				noSchema: {aspects.Status{Removed: false}},
			})
			c := newTestClient(t, s)
			ctx := t.Context()
			if err := set(c, ctx, ds, "id", "Stable id.\n\n*markdown*"); err != nil {
				t.Fatal(err)
			}
			if err := set(c, ctx, ds, "[version=2.0].[type=string].name", "v2"); err != nil {
				t.Fatal(err)
			}
			// A simple path that one v2 field simplifies to names it.
			if err := set(c, ctx, ds, "user_id", "Who."); err != nil {
				t.Fatal(err)
			}
			d, err := c.Dataset(ctx, ds)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, f := range d.EditableSchemaMetadata.EditableSchemaFieldInfo {
				got[f.FieldPath] = deref(f.Description)
			}
			if diff := cmp.Diff(map[string]string{"other": "kept", "id": "Stable id.\n\n*markdown*", "[version=2.0].[type=string].name": "v2",
				"[version=2.0].[type=struct].[type=string].user_id": "Who."}, got); diff != "" {
				t.Errorf("edited columns (-want +got):\n%s", diff)
			}
			var fe *FieldNotFoundError
			if err := set(c, ctx, ds, "nobody", "x"); !errors.As(err, &fe) || !errors.Is(err, datahub.ErrNotFound) {
				t.Errorf("a path no field has: %v, want *FieldNotFoundError", err)
			}
			// A simple path two v2 fields share is refused, naming both.
			var ae *AmbiguousFieldError
			err = set(c, ctx, ds, "val", "x")
			if !errors.As(err, &ae) || !errors.Is(err, datahub.ErrValidation) || errors.Is(err, datahub.ErrNotFound) ||
				cmp.Diff([]string{"[version=2.0].[type=union].[type=A].val", "[version=2.0].[type=union].[type=B].val"}, ae.Candidates) != "" ||
				!strings.Contains(err.Error(), "[version=2.0].[type=union].[type=B].val") {
				t.Errorf("an ambiguous simple path: %v, want *AmbiguousFieldError naming both fields", err)
			}
			if err := set(c, ctx, noSchema, "id", "x"); !errors.As(err, &fe) {
				t.Errorf("dataset without schema: %v, want *FieldNotFoundError", err)
			}
			var ee *EntityNotFoundError
			if err := set(c, ctx, missing, "id", "x"); !errors.As(err, &ee) {
				t.Errorf("missing dataset: %v, want *EntityNotFoundError", err)
			}
		})
	}
}
