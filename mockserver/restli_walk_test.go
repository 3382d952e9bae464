package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/restli"
)

// restspecParam is one parameter of a restspec method or action.
type restspecParam struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Optional *bool  `json:"optional"`
	Default  any    `json:"default"`
}

// required reports whether Rest.li requires the parameter.
func (p restspecParam) required() bool {
	return (p.Optional == nil || !*p.Optional) && p.Default == nil
}

// restspecOp is one method or action of a restspec.
type restspecOp struct {
	Method     string          `json:"method"`
	Name       string          `json:"name"`
	Parameters []restspecParam `json:"parameters"`
}

// restspec is the part of a *.restspec.json file the walk reads.
type restspec struct {
	Name   string
	Path   string
	Kind   string // "collection", "simple", "actionsSet"
	Method []restspecOp
	Action []restspecOp
}

// readRestspecs reads DataHub's restspecs vendored in testdata/restspec.
func readRestspecs(t *testing.T) []restspec {
	t.Helper()
	files, err := filepath.Glob("testdata/restspec/*.restspec.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no restspecs in testdata/restspec: %v", err)
	}
	var out []restspec
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var rs restspec
		_ = json.Unmarshal(raw["name"], &rs.Name)
		_ = json.Unmarshal(raw["path"], &rs.Path)
		for _, kind := range []string{"collection", "simple", "actionsSet"} {
			body, ok := raw[kind]
			if !ok {
				continue
			}
			rs.Kind = kind
			var r struct {
				Methods []restspecOp `json:"methods"`
				Actions []restspecOp `json:"actions"`
			}
			if err := json.Unmarshal(body, &r); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			rs.Method, rs.Action = r.Methods, r.Actions
		}
		out = append(out, rs)
	}
	return out
}

// walkValue is a minimal valid value of a restspec parameter for the walk.
func walkValue(resource, action string, p restspecParam) any {
	switch p.Name {
	case "urn", "resource":
		return dsURN
	case "entity", "entityName", "entityType":
		if p.Type == "string" {
			return "dataset"
		}
		return map[string]any{"value": map[string]any{"com.linkedin.metadata.snapshot.DatasetSnapshot": map[string]any{
			"urn": dsURN, "aspects": []any{map[string]any{"com.linkedin.common.Status": map[string]any{"removed": false}}}}}}
	case "aspect", "aspectName":
		if resource == "operations" || action == "getTimeseriesAspectValues" || resource == "analytics" {
			return "datasetProfile"
		}
		return "status"
	case "direction":
		if resource == "entities" || action == "getLineage" {
			return "DOWNSTREAM"
		}
		return "OUTGOING"
	case "duration":
		return "DAY"
	case "rangeFromEnd":
		return "WEEK"
	case "runId":
		return "walk-run"
	case "keepAlive":
		return "5m"
	case "path":
		return "/"
	case "name":
		return "entityChangeEvent"
	case "proposal":
		return mcp("dataset", dsURN, "UPSERT", "status", `{"removed":false}`)
	case "proposals":
		return []any{mcp("dataset", dsURN, "UPSERT", "status", `{"removed":false}`)}
	case "event":
		return map[string]any{"header": map[string]any{"timestampMillis": 1}, "name": "entityChangeEvent",
			"payload": map[string]any{"value": "{}", "contentType": "application/json"}}
	case "request":
		return map[string]any{"urns": []string{dsURN}}
	case "entities":
		if action == "batchIngest" {
			return []any{walkValue(resource, action, restspecParam{Name: "entity", Type: "record"})}
		}
		return []string{"dataset"}
	case "buckets":
		if resource == "usageStats" {
			return []any{map[string]any{"bucket": 0, "duration": "DAY", "resource": dsURN, "metrics": map[string]any{}}}
		}
		return []any{}
	case "metrics":
		return []any{map[string]any{"aggregationType": "LATEST", "fieldPath": "rowCount"}}
	case "filter":
		return map[string]any{"or": []any{}}
	}
	switch {
	case p.Type == "string":
		return "x"
	case p.Type == "int" || p.Type == "long":
		return 1
	case p.Type == "boolean":
		return false
	case strings.Contains(p.Type, `"array"`):
		return []any{}
	}
	return map[string]any{}
}

// TestRestspecsServed walks every restspec of DataHub's Rest.li API and
// sends each method and action a minimal valid request: none may answer
// 501 (an operation the mock does not serve) or a routing error.
func TestRestspecsServed(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	for _, rs := range readRestspecs(t) {
		res := strings.TrimPrefix(rs.Path, "/")
		for _, a := range rs.Action {
			t.Run(res+"?action="+a.Name, func(t *testing.T) {
				body := map[string]any{}
				for _, p := range a.Parameters {
					// getEsTaskStatus needs a task (all its parameters are optional).
					if p.required() || (a.Name == "getEsTaskStatus" && p.Name != "task") {
						body[p.Name] = walkValue(res, a.Name, p)
					}
				}
				b, _ := json.Marshal(body)
				resp := serve(t, s, http.MethodPost, "/"+res+"?action="+a.Name, string(b))
				checkServed(t, resp)
			})
		}
		for _, m := range rs.Method {
			t.Run(res+" "+m.Method, func(t *testing.T) {
				q := url.Values{}
				for _, p := range m.Parameters {
					// GET /aspects needs its optional aspect.
					if p.required() || (res == "aspects" && p.Name == "aspect") {
						q.Set(p.Name, fmt.Sprint(walkValue(res, m.Method, p)))
					}
				}
				var method, target string
				switch m.Method {
				case "get":
					method, target = http.MethodGet, "/"+res+"/"+dsPath
					if rs.Kind == "simple" {
						target = "/" + res
					}
				case "batch_get":
					method, target = http.MethodGet, "/"+res+"?ids=List("+url.QueryEscape(dsURN)+")"
					if res == "entitiesVersionedV2" {
						target = "/" + res + "?ids=List((urn:" + url.QueryEscape(url.QueryEscape(dsURN)) + ",versionStamp:status%3A0))"
					}
				case "delete":
					method, target = http.MethodDelete, "/"+res
				default:
					t.Fatalf("the walk does not know the method %s", m.Method)
				}
				if len(q) > 0 {
					sep := "?"
					if strings.Contains(target, "?") {
						sep = "&"
					}
					target += sep + q.Encode()
				}
				checkServed(t, serve(t, s, method, target, ""))
			})
		}
	}
}

// checkServed fails when resp says the mock does not serve the operation.
func checkServed(t *testing.T, resp response) {
	t.Helper()
	if resp.Status == http.StatusNotImplemented || strings.Contains(resp.Body, "does not implement") ||
		strings.Contains(resp.Body, "RoutingException") {
		t.Fatalf("not served: %d %s", resp.Status, resp.Body)
	}
	if resp.Status >= 300 {
		t.Errorf("a minimal valid request failed: %d %s", resp.Status, resp.Body)
	}
}

// TestRestspecParams checks the parameters the restli adapter declares
// against the restspecs: the same names, each required exactly when the
// restspec requires it, so that Rest.li's refusals match.
func TestRestspecParams(t *testing.T) {
	t.Parallel()
	for _, rs := range readRestspecs(t) {
		res := strings.TrimPrefix(rs.Path, "/")
		for _, a := range rs.Action {
			o := restli.Lookup(res, a.Name)
			if o == nil {
				continue // served by the server's own handlers
			}
			var want, got []string
			for _, p := range a.Parameters {
				want = append(want, fmt.Sprintf("%s required=%v", p.Name, p.required()))
			}
			for _, p := range o.Params {
				got = append(got, fmt.Sprintf("%s required=%v", p.Name, p.Required))
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Errorf("%s?action=%s: restspec parameters %v, adapter %v", res, a.Name, want, got)
			}
		}
	}
}
