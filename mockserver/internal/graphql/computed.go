package graphql

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The computed fields of the entity types, which DataHub fills from its
// graph, search and timeseries indices rather than from one aspect:
// relationships(input) on every entity type that has it, lineage(input),
// parentContainers and health. They are registered for every type of the
// schema that has the field, by registerComputed when the first handler
// is made (see registerEntityRoots): reading the schema at init would load
// it in every program that links the mock, GraphQL or not.

// entityOf is the entity a field is resolved on (nil when the parent is
// not an entity).
func entityOf(parent any) *entity {
	switch p := parent.(type) {
	case baser:
		return p.base()
	case *entityR:
		return p.e
	}
	return nil
}

// healthConfig is which healths DataHub computes for a type
// (GmsGraphQLEngine's EntityHealthResolver.Config): assertions, incidents.
var healthConfig = map[string][2]bool{
	"Dataset": {true, true}, "Chart": {false, true}, "Dashboard": {false, true},
	"DataFlow": {false, true}, "DataJob": {false, true},
}

// registerComputed registers the computed fields' resolvers of every entity
// type of s that has them.
func registerComputed(s *ast.Schema) {
	for _, def := range s.Types {
		if def.Kind != ast.Object || !slices.Contains(def.Interfaces, "Entity") {
			continue
		}
		if f := def.Fields.ForName("relationships"); f != nil && f.Arguments.ForName("input") != nil {
			Register(def.Name+".relationships", entityRelationships)
		}
		if f := def.Fields.ForName("lineage"); f != nil && f.Arguments.ForName("input") != nil {
			Register(def.Name+".lineage", entityLineage)
		}
		if def.Fields.ForName("parentContainers") != nil {
			Register(def.Name+".parentContainers", parentContainers)
		}
		if f := def.Fields.ForName("siblingsSearch"); f != nil && f.Arguments.ForName("input") != nil {
			Register(def.Name+".siblingsSearch", siblingsSearch)
		}
		if f := def.Fields.ForName("incidents"); f != nil && f.Type.Name() == "EntityIncidentsResult" {
			Register(def.Name+".incidents", entityIncidents)
		}
		if f := def.Fields.ForName("assertions"); f != nil && f.Type.Name() == "EntityAssertionsResult" {
			Register(def.Name+".assertions", entityAssertions)
		}
		if cfg, ok := healthConfig[def.Name]; ok && def.Fields.ForName("health") != nil {
			Register(def.Name+".health", func(c *Ctx, a Args) (any, error) { return entityHealth(c, cfg) })
		}
	}
}

// entityRelationships resolves relationships(input) as DataHub's
// EntityRelationshipsResultResolver: the entity's edges of the types given
// (none: any type; OUTGOING: those it names, INCOMING: those naming it) from the core's
// graph, paged (start 0 and count 100 unless given), the soft-deleted
// other ends left out unless includeSoftDelete (true by default), and only
// the related entity types given.
func entityRelationships(c *Ctx, a Args) (any, error) {
	e := entityOf(c.Parent)
	if e == nil {
		return nil, nil
	}
	var in struct {
		Input struct {
			Types              []string
			Direction          string
			Start, Count       *int
			IncludeSoftDelete  *bool
			RelatedEntityTypes []string
		}
	}
	if err := decodeInput(a, &in); err != nil {
		return nil, err
	}
	incoming := in.Input.Direction == "INCOMING"
	q := gms.EdgeQuery{Types: in.Input.Types, IncludeRemoved: in.Input.IncludeSoftDelete == nil || *in.Input.IncludeSoftDelete}
	if incoming {
		q.Destination = e.urn
	} else {
		q.Source = e.urn
	}
	edges, err := c.Core().Edges(c, q)
	if err != nil {
		return nil, fromCore(err)
	}
	start, count := 0, 100
	if in.Input.Start != nil {
		start = max(*in.Input.Start, 0)
	}
	if in.Input.Count != nil {
		count = max(*in.Input.Count, 0)
	}
	total := len(edges)
	edges = edges[min(start, len(edges)):min(start+count, len(edges))]
	rels := []any{}
	for _, ed := range edges {
		other := ed.Destination
		if incoming {
			other = ed.Source
		}
		if in.Input.RelatedEntityTypes != nil && !slices.Contains(in.Input.RelatedEntityTypes, gms.EntityTypeOf(other)) {
			total--
			continue
		}
		rel := map[string]any{"type": ed.Type, "direction": in.Input.Direction, "entity": nil}
		if ent, gerr := e.r.load(c, other, ""); gerr == nil {
			rel["entity"] = newEntityR(ent)
		}
		rels = append(rels, rel)
	}
	return map[string]any{"start": start, "count": len(rels), "total": total, "relationships": rels}, nil
}

// entityLineage resolves lineage(input) as DataHub's
// EntityLineageResultResolver: the entities one hop up or down the
// entity's lineage (the core's lineage walk), paged (start 0 and count 100
// unless given), each with its edge's type and degree 1.
func entityLineage(c *Ctx, a Args) (any, error) {
	e := entityOf(c.Parent)
	if e == nil {
		return nil, nil
	}
	var in struct {
		Input struct {
			Direction    string
			Start, Count *int
		}
	}
	if err := decodeInput(a, &in); err != nil {
		return nil, err
	}
	start, count := 0, 100
	if in.Input.Start != nil {
		start = max(*in.Input.Start, 0)
	}
	if in.Input.Count != nil {
		count = max(*in.Input.Count, 0)
	}
	up := in.Input.Direction == "UPSTREAM"
	// One hop of the graph, as DataHub's lineage field reads it: schema
	// fields stay schema fields (no grouping into datasets).
	res, err := c.Core().SearchLineage(c, gms.LineageQuery{URN: e.urn, Upstream: up, KeepSchemaFields: true, Query: gms.Query{Text: "*",
		Filter: gms.Filter{{{Field: "degree", Condition: gms.CondEqual, Values: []string{"1"}}}}, Start: start, Count: count}})
	if err != nil {
		return nil, fromCore(err)
	}
	rels := []any{}
	for _, h := range res.Hits {
		from, to := e.urn, h.URN
		if !up {
			from, to = to, from
		}
		rel := map[string]any{"type": c.Core().EdgeType(from, to), "degree": 1, "entity": nil, "paths": []any{}}
		if ent, gerr := e.r.load(c, h.URN, ""); gerr == nil {
			rel["entity"] = newEntityR(ent)
		}
		rels = append(rels, rel)
	}
	return map[string]any{"start": start, "count": len(rels), "total": res.Total, "filtered": 0, "relationships": rels}, nil
}

// parentContainers resolves parentContainers as DataHub's
// ParentContainersResolver: the chain of the entity's container aspects,
// nearest first, stopping at a cycle; a parent that does not exist is left
// out.
func parentContainers(c *Ctx, _ Args) (any, error) {
	e := entityOf(c.Parent)
	if e == nil {
		return nil, nil
	}
	containers := []any{}
	seen := map[string]bool{e.urn: true}
	cur := e
	for {
		v, err := cur.aspectAny("container")
		if err != nil {
			return nil, err
		}
		m, _ := v.(map[string]any)
		p, _ := m["container"].(string)
		if p == "" || seen[p] {
			break
		}
		seen[p] = true
		next, gerr := e.r.load(c, p, "")
		if gerr != nil {
			break
		}
		if ok, _ := e.r.exists(c, p); ok {
			containers = append(containers, newEntityR(next))
		}
		cur = next
	}
	return map[string]any{"count": len(containers), "containers": containers}, nil
}

// entityHealth resolves health as DataHub's EntityHealthResolver, for the
// kinds cfg enables ([assertions, incidents]): INCIDENTS (FAIL with the
// count and the latest of the active incidents on the entity, PASS when
// none), then ASSERTIONS when the entity has assertions with completed
// runs (FAIL naming the assertions whose latest run did not succeed, PASS
// otherwise).
func entityHealth(c *Ctx, cfg [2]bool) (any, error) {
	e := entityOf(c.Parent)
	if e == nil {
		return nil, nil
	}
	out := []any{}
	if cfg[1] {
		h, err := incidentsHealth(c, e.urn)
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	if cfg[0] {
		h, err := assertionsHealth(c, e.urn)
		if err != nil {
			return nil, err
		}
		if h != nil {
			out = append(out, h)
		}
	}
	return out, nil
}

// incidentsHealth is the INCIDENTS health of u.
func incidentsHealth(c *Ctx, u string) (map[string]any, error) {
	edges, err := c.Core().Edges(c, gms.EdgeQuery{Destination: u, Types: []string{"IncidentOn"}})
	if err != nil {
		return nil, fromCore(err)
	}
	type active struct {
		urn, title string
		at         int64
	}
	var actives []active
	for _, ed := range edges {
		var info struct {
			Title  *string
			Status struct {
				State       string
				LastUpdated struct{ Time int64 }
			}
		}
		v, err := c.Core().GetAspect(c, ed.Source, "incidentInfo", 0)
		if err != nil || json.Unmarshal(v.Value, &info) != nil || info.Status.State != "ACTIVE" {
			continue
		}
		actives = append(actives, active{ed.Source, strOr(info.Title), info.Status.LastUpdated.Time})
	}
	if len(actives) == 0 {
		return map[string]any{"type": "INCIDENTS", "status": "PASS"}, nil
	}
	slices.SortStableFunc(actives, func(a, b active) int { return cmp.Compare(b.at, a.at) })
	latest := actives[0]
	plural := ""
	if len(actives) > 1 {
		plural = "s"
	}
	var title any
	if latest.title != "" {
		title = latest.title
	}
	return map[string]any{"type": "INCIDENTS", "reportedAt": latest.at, "status": "FAIL",
		"message": fmt.Sprintf("%d active incident%s", len(actives), plural),
		"activeIncidentHealthDetails": map[string]any{"latestIncidentUrn": latest.urn, "latestIncidentTitle": title,
			"lastActivityAt": latest.at, "count": len(actives)},
		"causes": []any{"ACTIVE_INCIDENTS"}}, nil
}

// assertionsHealth is the ASSERTIONS health of u, nil when it has no
// assertion with a completed run.
func assertionsHealth(c *Ctx, u string) (map[string]any, error) {
	edges, err := c.Core().Edges(c, gms.EdgeQuery{Destination: u, Types: []string{"Asserts"}})
	if err != nil {
		return nil, fromCore(err)
	}
	if len(edges) == 0 {
		return nil, nil
	}
	active := map[string]bool{}
	for _, ed := range edges {
		active[ed.Source] = true
	}
	// The latest completed run of each assertion on u (DataHub aggregates
	// the assertionRunEvent index by assertionUrn, newest first).
	hits, err := c.Core().TimeseriesOfType(c, "assertion", "assertionRunEvent", 0, 0)
	if err != nil {
		return nil, fromCore(err)
	}
	latest := map[string]string{} // assertion → its latest run's result type
	var order []string
	for _, h := range hits {
		var ev struct {
			AssertionUrn, AsserteeUrn, Status string
			Result                            struct{ Type string }
		}
		if json.Unmarshal(h.Value, &ev) != nil || ev.AsserteeUrn != u || ev.Status != "COMPLETE" {
			continue
		}
		if _, seen := latest[ev.AssertionUrn]; !seen {
			latest[ev.AssertionUrn] = ev.Result.Type
			order = append(order, ev.AssertionUrn)
		}
	}
	runs := len(latest)
	var failing []any
	slices.Sort(order)
	for _, a := range order {
		if active[a] && latest[a] != "SUCCESS" {
			failing = append(failing, a)
		}
	}
	if runs == 0 {
		return nil, nil
	}
	if len(failing) > 0 {
		return map[string]any{"type": "ASSERTIONS", "status": "FAIL",
			"message": fmt.Sprintf("%d of %d assertions are failing", len(failing), len(active)), "causes": failing}, nil
	}
	return map[string]any{"type": "ASSERTIONS", "status": "PASS", "message": "All assertions are passing"}, nil
}

// entityIncidents resolves incidents(...) as DataHub's
// EntityIncidentsResolver: the incidents on the entity (their
// incidentInfo.entities name it) of the state, stage, priority and
// assignees given, newest created first, paged (start 0, count 20 unless
// given).
func entityIncidents(c *Ctx, a Args) (any, error) {
	e := entityOf(c.Parent)
	if e == nil {
		return nil, nil
	}
	var in struct {
		State, Stage, Priority *string
		AssigneeUrns           []string
		Start, Count           *int
	}
	if err := decodeInput(a, &in); err != nil {
		return nil, err
	}
	edges, err := c.Core().Edges(c, gms.EdgeQuery{Destination: e.urn, Types: []string{"IncidentOn"}, IncludeRemoved: true})
	if err != nil {
		return nil, fromCore(err)
	}
	type found struct {
		urn     string
		created int64
	}
	var all []found
	for _, ed := range edges {
		var info struct {
			Priority  *json.Number
			Status    struct{ State, Stage string }
			Assignees []struct{ Actor string }
			Created   struct{ Time int64 }
		}
		v, err := c.Core().GetAspect(c, ed.Source, "incidentInfo", 0)
		if err != nil || json.Unmarshal(v.Value, &info) != nil {
			continue
		}
		if in.State != nil && info.Status.State != *in.State || in.Stage != nil && info.Status.Stage != *in.Stage {
			continue
		}
		if in.Priority != nil && (info.Priority == nil || incidentPriority(*info.Priority) != *in.Priority) {
			continue
		}
		if in.AssigneeUrns != nil && !slices.ContainsFunc(info.Assignees, func(a struct{ Actor string }) bool { return slices.Contains(in.AssigneeUrns, a.Actor) }) {
			continue
		}
		all = append(all, found{ed.Source, info.Created.Time})
	}
	slices.SortStableFunc(all, func(a, b found) int { return cmp.Compare(b.created, a.created) })
	start, count := pageArgs(in.Start, in.Count, 20)
	incidents := []any{}
	for _, f := range all[min(start, len(all)):min(start+count, len(all))] {
		if ent, gerr := e.r.load(c, f.urn, "incident"); gerr == nil {
			incidents = append(incidents, newEntityR(ent))
		}
	}
	return map[string]any{"start": start, "count": count, "total": len(all), "incidents": incidents}, nil
}

// incidentPriority is IncidentPriority of incidentInfo's priority number
// (IncidentUtils: 0 CRITICAL, 1 HIGH, 2 MEDIUM, 3 LOW).
func incidentPriority(n json.Number) string {
	switch n.String() {
	case "0":
		return "CRITICAL"
	case "1":
		return "HIGH"
	case "2":
		return "MEDIUM"
	case "3":
		return "LOW"
	}
	return ""
}

// pageArgs are a page's start and count, defaults applied.
func pageArgs(start, count *int, defaultCount int) (int, int) {
	s, n := 0, defaultCount
	if start != nil {
		s = max(*start, 0)
	}
	if count != nil {
		n = max(*count, 0)
	}
	return s, n
}

// entityAssertions resolves assertions(...) as DataHub's
// EntityAssertionsResolver: the assertions of the entity (the Asserts edges
// to it), paged (start 0, count 200 unless given), those without
// assertionInfo and, unless includeSoftDeleted, the soft-deleted left out
// of the page.
func entityAssertions(c *Ctx, a Args) (any, error) {
	e := entityOf(c.Parent)
	if e == nil {
		return nil, nil
	}
	var in struct {
		Start, Count       *int
		IncludeSoftDeleted *bool
	}
	if err := decodeInput(a, &in); err != nil {
		return nil, err
	}
	edges, err := c.Core().Edges(c, gms.EdgeQuery{Destination: e.urn, Types: []string{"Asserts"}, IncludeRemoved: true})
	if err != nil {
		return nil, fromCore(err)
	}
	start, count := pageArgs(in.Start, in.Count, 200)
	page := edges[min(start, len(edges)):min(start+count, len(edges))]
	assertions := []any{}
	for _, ed := range page {
		ent, gerr := e.r.load(c, ed.Source, "assertion")
		if gerr != nil {
			continue
		}
		if info, _ := ent.aspectAny("assertionInfo"); info == nil {
			continue
		}
		if in.IncludeSoftDeleted == nil || !*in.IncludeSoftDeleted {
			st, _ := ent.aspectAny("status")
			if m, _ := st.(map[string]any); m["removed"] == true {
				continue
			}
		}
		assertions = append(assertions, newEntityR(ent))
	}
	return map[string]any{"start": start, "count": len(page), "total": len(edges), "assertions": assertions}, nil
}

// siblingsSearch resolves siblingsSearch(input) as DataHub's
// SiblingsSearchResolver: scrollAcrossEntities with the input, each of its
// or-filters (or the filter, when none) also requiring that the entity is
// among the hit's siblings.
func siblingsSearch(c *Ctx, a Args) (any, error) {
	e := entityOf(c.Parent)
	if e == nil {
		return nil, nil
	}
	var in struct{ Input scrollAcrossEntitiesInput }
	if err := decodeInput(a, &in); err != nil {
		return nil, err
	}
	sib := facetFilterInput{Field: "siblings", Values: &[]string{e.urn}}
	ors := []andFilterInput{}
	if in.Input.OrFilters != nil {
		ors = *in.Input.OrFilters
	}
	if len(ors) == 0 {
		ors = []andFilterInput{{}}
	}
	for i, o := range ors {
		var and []facetFilterInput
		if o.And != nil {
			and = slices.Clone(*o.And)
		}
		and = append(and, sib)
		ors[i] = andFilterInput{And: &and}
	}
	in.Input.OrFilters = &ors
	return e.r.ScrollAcrossEntities(c, in)
}
