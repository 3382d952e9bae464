package mockserver

import (
	"fmt"
	"github.com/catalogkit/datahub-go/mockserver/internal/openapi"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// docRoute is one row of the routes table in README.md.
type docRoute struct {
	route  string   // "POST /aspects?action=ingestProposal", "GET /aspects/{urn}"
	also   string   // the rest of the first cell (other paths of the route)
	op     string   // the Op column
	params []string // the parameter names the row lists
}

// readmeRoutes parses the routes table of the section "What it serves" of
// README.md.
func readmeRoutes(t *testing.T) (rows []docRoute, section string) {
	t.Helper()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "\n## What it serves\n")
	if !ok {
		t.Fatal(`README.md has no section "What it serves"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	tick := regexp.MustCompile("`([^`]*)`")
	name := regexp.MustCompile(`^[a-zA-Z]+$`)
	for line := range strings.Lines(section) {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 4 {
			t.Fatalf("README.md: a routes row has %d cells, want 4: %s", len(cells), line)
		}
		first := tick.FindStringSubmatchIndex(cells[0])
		r := docRoute{route: cells[0][first[2]:first[3]], also: cells[0][first[1]:], op: strings.Trim(strings.TrimSpace(cells[1]), "`")}
		for _, m := range tick.FindAllStringSubmatch(cells[2], -1) {
			if name.MatchString(m[1]) {
				r.params = append(r.params, m[1])
			}
		}
		rows = append(rows, r)
	}
	return rows, section
}

// servedRoutes are the routes of the route table (endpoints, GraphQL,
// /config), as the README writes them, with their Op.
func servedRoutes() map[string]Op {
	m := map[string]Op{
		"POST /api/graphql": OpGraphQL,
		"GET /config":       configEndpoint.op,
		"GET /health":       healthEndpoint.op,
	}
	for _, vr := range v3Routes {
		m[vr.method+" "+shapePaths[vr.shape]] = vr.ep.op
	}
	for k, ep := range restliEndpoints {
		m[restliRoute(k[0], k[1], ep.action != "")] = ep.op
	}
	for i, r := range openapi.Routes {
		m[r.Method+" "+r.Pattern] = routeEndpoints[i].op
	}
	for _, ep := range endpoints {
		if ep.action == "" {
			m[fmt.Sprintf("GET /%s/{urn}", ep.resource)] = ep.op
		} else {
			m[fmt.Sprintf("POST /%s?action=%s", ep.resource, ep.action)] = ep.op
		}
	}
	return m
}

// TestRoutesDocumented checks the README's routes table against the route
// table: every route the mock serves has a row with its Op, every row is a
// route the mock serves, every GraphQL path and fault operation is named,
// and no parameter a row lists is one the route refuses as unknown.
func TestRoutesDocumented(t *testing.T) {
	t.Parallel()
	rows, section := readmeRoutes(t)
	served := servedRoutes()
	documented := map[string]bool{}
	for _, r := range rows {
		documented[r.route] = true
		op, ok := served[r.route]
		if !ok {
			t.Errorf("README.md documents %q, which the mock does not serve", r.route)
			continue
		}
		if r.op != string(op) {
			t.Errorf("README.md gives %q the Op %q; the route table says %q", r.route, r.op, op)
		}
	}
	for route, op := range served {
		if !documented[route] {
			t.Errorf("the mock serves %q (Op %q), which README.md's routes table (What it serves) does not list: add a row with its parameters", route, op)
		}
	}
	for path := range graphQLPaths {
		if !strings.Contains(section, "`"+path+"`") && !strings.Contains(section, "`POST "+path+"`") {
			t.Errorf("README.md does not name the GraphQL path %s", path)
		}
	}
	for _, op := range knownOps {
		if !strings.Contains(section, "`"+string(op)+"`") {
			t.Errorf("README.md's routes section does not name the operation %q", op)
		}
	}

	s := newServer(t)
	for _, r := range rows {
		method, target, _ := strings.Cut(r.route, " ")
		if method != http.MethodPost || !strings.Contains(target, "?action=") {
			continue
		}
		for _, p := range r.params {
			// A value of the wrong type for every parameter: the route
			// may refuse its type, never the parameter itself.
			resp := serve(t, s, method, target, fmt.Sprintf(`{%q: {"x": [1]}}`, p))
			if strings.Contains(resp.Body, "/"+p+" :: unrecognized field") {
				t.Errorf("README.md lists the parameter %q of %s, which the route does not know: %s", p, r.route, resp.Body)
			}
		}
	}
}

// restliRoute is the README's route of an operation of the restli adapter.
func restliRoute(resource, name string, action bool) string {
	switch {
	case action:
		return fmt.Sprintf("POST /%s?action=%s", resource, name)
	case resource == "relationships":
		return strings.ToUpper(name) + " /relationships"
	case name == "get":
		return fmt.Sprintf("GET /%s/{urn}", resource)
	}
	return fmt.Sprintf("GET /%s?ids=List(...)", resource)
}
