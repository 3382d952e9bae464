package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/urn"
)

// fakeGraphQL records the GraphQL requests and answers each operation with
// a canned answer; other requests go to the fake GMS.
type fakeGraphQL struct {
	gms     *fakeGMS
	answers map[string]string
}

func (f *fakeGraphQL) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/api/graphql" {
		f.gms.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req struct {
		OperationName string `json:"operationName"`
	}
	_ = json.Unmarshal(body, &req)
	rec := recordOf(r, body)
	f.gms.mu.Lock()
	f.gms.reqs = append(f.gms.reqs, rec)
	f.gms.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, f.answers[req.OperationName])
}

// TestSearchRequestShapes pins the GraphQL requests of Search (two pages),
// Count, Facets and GetLineage, and the PATCH proposals of AddLineage.
func TestSearchRequestShapes(t *testing.T) {
	t.Parallel()
	ds := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)")
	up := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:s3,raw,PROD)")
	answers := map[string]string{
		"scrollAcrossEntities": `{"data":{"scrollAcrossEntities":{"nextScrollId":null,"count":1,"total":1,
			"searchResults":[{"matchedFields":[],"entity":{"urn":"urn:li:tag:a","type":"TAG"}}]}}}`,
		"searchAcrossEntities":    `{"data":{"searchAcrossEntities":{"total":3}}}`,
		"aggregateAcrossEntities": `{"data":{"aggregateAcrossEntities":{"facets":[]}}}`,
		"scrollAcrossLineage":     `{"data":{"scrollAcrossLineage":{"nextScrollId":null,"count":0,"total":0,"searchResults":[]}}}`,
	}
	filter := And(EntityType("dataset"), Platform("hive"), Not(Tag("pii")), HasCustomProperty("team", "ml"))
	for _, tc := range []struct {
		name string
		call func(ctx context.Context, c *Client) error
	}{
		{"search_Search", func(ctx context.Context, c *Client) error {
			for _, err := range c.Search().Results(ctx, "users", filter, WithPageSize(50)) {
				if err != nil {
					return err
				}
			}
			return nil
		}},
		{"search_Count", func(ctx context.Context, c *Client) error { _, err := c.Search().Count(ctx, "", filter); return err }},
		{"search_Facets", func(ctx context.Context, c *Client) error {
			_, err := c.Search().Facets(ctx, "*", SoftDeleted(AnySoftDeleted), "platform", "_entityType")
			return err
		}},
		{"search_GetLineage", func(ctx context.Context, c *Client) error {
			_, err := c.Lineage().Get(ctx, ds, Upstream, 2, EntityType("dataset"))
			return err
		}},
		{"search_AddLineage", func(ctx context.Context, c *Client) error {
			return c.Lineage().Add(ctx, up, ds, WithColumnLineage(ColumnLineage{Upstream: "id", Downstream: "user_id"}))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := &fakeGraphQL{gms: &fakeGMS{}, answers: answers}
			srv := httptest.NewServer(f)
			t.Cleanup(srv.Close)
			c, err := New(srv.URL+"/api/gms", datahub.WithToken("secret-token"))
			if err != nil {
				t.Fatal(err)
			}
			fixedClock(c, testTime)
			if err := tc.call(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name, f.gms.reqs)
		})
	}
}
