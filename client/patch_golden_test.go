package client

import (
	"context"
	"net/http/httptest"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// TestPatchRequestShapes pins the requests each helper sends with the
// patch strategy: the existence check, then one PATCH proposal.
func TestPatchRequestShapes(t *testing.T) {
	t.Parallel()
	table := urn.MustParse("urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,user features)").(urn.MLFeatureTable)
	feature := urn.MustParse("urn:li:mlFeature:(user features,age)").(urn.MLFeature)
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)").(urn.Dataset)
	schemaJSON := `{"schemaName":"users","platform":"urn:li:dataPlatform:hive","version":0,"created":{"time":0,"actor":"urn:li:corpuser:unknown"},"lastModified":{"time":0,"actor":"urn:li:corpuser:unknown"},"hash":"","platformSchema":{"com.linkedin.schema.OtherSchema":{"rawSchema":""}},"fields":[{"fieldPath":"a/b~c","nullable":false,"type":{"type":{"com.linkedin.schema.NumberType":{}}},"nativeDataType":"int","recursive":false,"isPartOfKey":false}]}`
	for _, tc := range []struct {
		name   string
		values map[string]string
		call   func(ctx context.Context, c *Client) error
	}{
		{"AddFeatureToTable", nil, func(ctx context.Context, c *Client) error { return c.AddFeatureToTable(ctx, table, feature) }},
		{"RemoveFeatureFromTable", nil, func(ctx context.Context, c *Client) error { return c.RemoveFeatureFromTable(ctx, table, feature) }},
		{"AddFeatureToModel", nil, func(ctx context.Context, c *Client) error { return c.AddFeatureToModel(ctx, testModel, feature) }},
		{"AddModelToGroup", nil, func(ctx context.Context, c *Client) error { return c.AddModelToGroup(ctx, testModel, testGroup) }},
		{"AddSourceToFeature", nil, func(ctx context.Context, c *Client) error { return c.AddSourceToFeature(ctx, feature, ds) }},
		{"AddLink", nil, func(ctx context.Context, c *Client) error {
			return c.AddLink(ctx, ds, "https://wiki.example.com/users?x=1&y=<2>", "Design doc ünïcode")
		}},
		{"RemoveLink", nil, func(ctx context.Context, c *Client) error {
			return c.RemoveLink(ctx, ds, "https://wiki.example.com/a~b")
		}},
		{"AddTag", nil, func(ctx context.Context, c *Client) error { return c.AddTag(ctx, ds, testTag) }},
		{"RemoveTag", nil, func(ctx context.Context, c *Client) error { return c.RemoveTag(ctx, ds, testTag) }},
		{"AddTerm", nil, func(ctx context.Context, c *Client) error { return c.AddTerm(ctx, ds, testTerm) }},
		{"RemoveTerm", nil, func(ctx context.Context, c *Client) error { return c.RemoveTerm(ctx, ds, testTerm) }},
		{"AddOwner", nil, func(ctx context.Context, c *Client) error {
			return c.AddOwner(ctx, ds, testOwner, aspects.OwnershipTypeTechnicalOwner)
		}},
		{"RemoveOwner", nil, func(ctx context.Context, c *Client) error { return c.RemoveOwner(ctx, ds, testOwner) }},
		{"SetDescription", nil, func(ctx context.Context, c *Client) error { return c.SetDescription(ctx, ds, "Users.") }},
		{"SetFieldDescription", map[string]string{"schemaMetadata": schemaJSON},
			func(ctx context.Context, c *Client) error { return c.SetFieldDescription(ctx, ds, "a/b~c", "A.") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeGMS{values: tc.values}
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			c, err := New(srv.URL+"/api/gms", datahub.WithToken("secret-token"), WithActor("urn:li:corpuser:jdoe"), WithWriteStrategy(Patch))
			if err != nil {
				t.Fatal(err)
			}
			fixedClock(c, testTime)
			if err := tc.call(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "patch "+tc.name, f.reqs)
		})
	}
}
