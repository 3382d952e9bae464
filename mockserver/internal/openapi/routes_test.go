package openapi

import (
	"net/http"
	"testing"
)

// TestMatch checks how paths map to routes: the most specific route wins,
// a URN may hold slashes (not an aspect name after a slash inside its
// parentheses), another method of a matched path is 405, any other path
// 404.
func TestMatch(t *testing.T) {
	t.Parallel()
	const ds = "urn:li:dataset:(urn:li:dataPlatform:s3,bucket/key,PROD)"
	cases := []struct {
		method, path, pattern string
		vars                  Vars
		status                int
	}{
		{"GET", "/openapi/v2/entity/dataset/" + ds, "/openapi/v2/entity/{entityName}/{urn}", Vars{"entityName": "dataset", "urn": ds}, 200},
		{"GET", "/openapi/v2/entity/dataset/" + ds + "/status", "/openapi/v2/entity/{entityName}/{urn}/{aspectName}", Vars{"entityName": "dataset", "urn": ds, "aspectName": "status"}, 200},
		{"GET", "/openapi/v2/entity/dataset/urn%3Ali%3Acorpuser%3Aa", "/openapi/v2/entity/{entityName}/{urn}", Vars{"entityName": "dataset", "urn": "urn:li:corpuser:a"}, 200},
		{"POST", "/openapi/v2/entity/batch/dataset", "/openapi/v2/entity/batch/{entityName}", Vars{"entityName": "dataset"}, 200},
		{"POST", "/openapi/v3/relationship/scroll", "/openapi/v3/relationship/scroll", nil, 200},
		{"GET", "/openapi/v3/relationship/scroll", "/openapi/v3/relationship/{relationshipType}", Vars{"relationshipType": "scroll"}, 200},
		{"GET", "/openapi/v1/entities/counts", "/openapi/v1/entities/counts", nil, 200},
		{"GET", "/openapi/v1/registry/lineage/edges/dataset/UPSTREAM", "/openapi/v1/registry/lineage/edges/{entityName}/{direction}", Vars{"entityName": "dataset", "direction": "UPSTREAM"}, 200},
		{"DELETE", "/openapi/v1/entities/counts", "", nil, 405},
		{"GET", "/openapi/v2/entity/dataset/not-a-urn", "", nil, 404},
		{"GET", "/openapi/v9/nothing", "", nil, 404},
	}
	for _, c := range cases {
		rt, vars, status := Match(c.method, c.path)
		got := ""
		if rt != nil {
			got = rt.Pattern
		}
		if got != c.pattern || status != c.status || len(vars) != len(c.vars) {
			t.Errorf("Match(%s %s) = %q %v %d, want %q %v %d", c.method, c.path, got, vars, status, c.pattern, c.vars, c.status)
			continue
		}
		for k, v := range c.vars {
			if vars[k] != v {
				t.Errorf("Match(%s %s) var %s = %q, want %q", c.method, c.path, k, vars[k], v)
			}
		}
		if status == http.StatusOK && rt.Method != c.method {
			t.Errorf("Match(%s %s) = a %s route", c.method, c.path, rt.Method)
		}
	}
}
