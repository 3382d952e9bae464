package graphql

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The list queries: a search of one entity type through the core, answered
// as DataHub's List*Resolver answers it ({start, count, total, <things>}),
// with the resolver's defaults (start 0, count 20 unless said, query "").
// The mock's index has no sort: a list is in the index's order, where
// DataHub sorts some by creation time.

// listSpec is one list query.
type listSpec struct {
	field  string // the Query field
	entity string // the registry entity listed
	result string // the result's list field
	count  int    // the default count
	// filter is the list's own filter (nil: none) from its input.
	filter func(in map[string]any) gms.Filter
	// value is the answer of one entity (nil: the entity).
	value func(e *entity) (any, error)
}

var lists = []listSpec{
	{field: "listDomains", entity: "domain", result: "domains", count: 20, filter: func(in map[string]any) gms.Filter {
		if p, _ := in["parentDomain"].(string); p != "" {
			return gms.Filter{{{Field: "parentDomain", Condition: gms.CondEqual, Values: []string{p}}}}
		}
		return gms.Filter{{{Field: "parentDomain", Condition: "EXISTS", Negated: true}}}
	}},
	{field: "listPolicies", entity: "dataHubPolicy", result: "policies", count: 20, value: policyOf},
	{field: "listUsers", entity: "corpuser", result: "users", count: 20},
	{field: "listGroups", entity: "corpGroup", result: "groups", count: 20},
	{field: "listRoles", entity: "dataHubRole", result: "roles", count: 20},
	{field: "listTests", entity: "test", result: "tests", count: 20},
	{field: "listQueries", entity: "query", result: "queries", count: 100, filter: func(in map[string]any) gms.Filter {
		var and []gms.Criterion
		if s, _ := in["source"].(string); s != "" {
			and = append(and, gms.Criterion{Field: "source", Condition: gms.CondEqual, Values: []string{s}})
		}
		if d, _ := in["datasetUrn"].(string); d != "" {
			and = append(and, gms.Criterion{Field: "entities", Condition: gms.CondEqual, Values: []string{d}})
		}
		if and == nil {
			return nil
		}
		return gms.Filter{and}
	}},
	{field: "listPosts", entity: "post", result: "posts", count: 20},
	{field: "listOwnershipTypes", entity: "ownershipType", result: "ownershipTypes", count: 20},
	{field: "listGlobalViews", entity: "dataHubView", result: "views", count: 20, filter: func(map[string]any) gms.Filter {
		return gms.Filter{{{Field: "type", Condition: gms.CondEqual, Values: []string{"GLOBAL"}}}}
	}},
	{field: "listBusinessAttributes", entity: "businessAttribute", result: "businessAttributes", count: 20},
	{field: "getRootGlossaryTerms", entity: "glossaryTerm", result: "terms", count: 20, filter: rootGlossary},
	{field: "getRootGlossaryNodes", entity: "glossaryNode", result: "nodes", count: 20, filter: rootGlossary},
}

// rootGlossary keeps the terms or nodes without a parent node
// (GetRootGlossary*Resolver).
func rootGlossary(map[string]any) gms.Filter {
	return gms.Filter{{{Field: "parentNode", Condition: "EXISTS", Negated: true}}}
}

func init() {
	for _, l := range lists {
		query(l.field, func(c *Ctx, a Args) (any, error) { return list(c, a, l) })
	}
}

// list runs one list query.
func list(c *Ctx, a Args, l listSpec) (any, error) {
	in, _ := a["input"].(map[string]any)
	text, _ := in["query"].(string)
	var f gms.Filter
	if l.filter != nil {
		f = l.filter(in)
	}
	q := gms.Query{Types: []string{l.entity}, Text: text, Filter: f, Start: intArg(in, "start", 0), Count: intArg(in, "count", l.count),
		WithAspects: true}
	return listPage(c, q, l.result, func(res gms.SearchResult, h gms.SearchHit) (any, error) {
		e, gerr := c.x.h.res.loadHit(c, res, h)
		if gerr != nil {
			return nil, gerr
		}
		if l.value == nil {
			return newEntityR(e), nil
		}
		return l.value(e)
	})
}

// listPage runs the list query q over the index (its text "*" when empty)
// and answers {start, count, total, <result>}: each hit's value from each,
// a nil value left out.
func listPage(c *Ctx, q gms.Query, result string, each func(res gms.SearchResult, h gms.SearchHit) (any, error)) (any, error) {
	if q.Text == "" {
		q.Text = "*"
	}
	q.SkipAggregates = true
	if e := charge(c); e != nil {
		return nil, e
	}
	res, err := c.x.h.res.search.Search(c, q)
	if err != nil {
		return nil, searchFailed(q.Types, q.Text, q.Filter, q.Start, q.Count, err)
	}
	things := make([]any, 0, len(res.Hits))
	for i, h := range res.Hits {
		if err := stopped(c, i); err != nil {
			return nil, err
		}
		v, err := each(res, h)
		if err != nil {
			return nil, err
		}
		if v != nil {
			things = append(things, v)
		}
	}
	return map[string]any{"start": res.Start, "count": res.PageSize, "total": res.Total, result: things}, nil
}

// intArg is an Int field of an input object, def when absent or null.
func intArg(in map[string]any, name string, def int) int {
	switch v := in[name].(type) {
	case int64:
		return int(v)
	case int:
		return v
	case float64:
		return int(v)
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return int(n)
		}
	}
	return def
}

// policyOf is a policy as ListPoliciesResolver answers it (a Policy, not
// the DataHubPolicy entity): its info with its urn.
func policyOf(e *entity) (any, error) {
	v, err := e.aspectAny("dataHubPolicyInfo")
	if err != nil {
		return nil, err
	}
	info, _ := v.(map[string]any)
	m := make(map[string]any, len(info)+1)
	for k, v := range info {
		m[k] = v
	}
	m["urn"] = e.urn
	return &gval{m: m, e: e}, nil
}

func init() {
	query("getRootMetrics", func(c *Ctx, a Args) (any, error) {
		return list(c, a, listSpec{field: "getRootMetrics", entity: "metric", result: "metrics", count: 25, filter: func(map[string]any) gms.Filter {
			return gms.Filter{{{Field: "parentMetric", Condition: "EXISTS", Negated: true}}}
		}})
	})
	query("getSemanticModels", func(c *Ctx, a Args) (any, error) {
		return list(c, a, listSpec{field: "getSemanticModels", entity: "semanticModel", result: "semanticModels", count: 25})
	})
	query("batchGetStepStates", batchGetStepStates)
}

// batchGetStepStates resolves Query.batchGetStepStates
// (BatchGetStepStatesResolver): the properties of each step state that
// exists (urn:li:dataHubStepState:<id>) and has them, as entries.
func batchGetStepStates(c *Ctx, a Args) (any, error) {
	var in struct{ Input struct{ Ids []string } }
	if err := a.Decode(&in); err != nil {
		return nil, badRequest(err.Error())
	}
	results := []any{}
	for _, id := range in.Input.Ids {
		urn := "urn:li:dataHubStepState:" + id
		va, err := c.Core().GetAspect(c, urn, "dataHubStepStateProperties", 0)
		if e := gms.AsError(err); e != nil && e.Kind == gms.NotFound {
			continue // none: left out, as DataHub does
		} else if err != nil {
			return nil, fromCore(err)
		}
		var v anyJSON
		if err := v.UnmarshalJSON(va.Value); err != nil {
			return nil, serverError(fmt.Sprintf(msgMapAspect, "dataHubStepStateProperties", gms.Abbreviate(urn), err))
		}
		props, _ := v.v.(map[string]any)
		entries := []any{}
		if m, ok := props["properties"].(map[string]any); ok {
			for _, k := range sortedAnyKeys(m) {
				entries = append(entries, map[string]any{"key": k, "value": m[k]})
			}
		}
		results = append(results, map[string]any{"id": id, "properties": entries})
	}
	return map[string]any{"results": results}, nil
}

func sortedAnyKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func init() {
	query("searchDocuments", func(c *Ctx, a Args) (any, error) {
		return list(c, a, listSpec{field: "searchDocuments", entity: "document", result: "documents", count: 20, filter: documentFilter})
	})
}

// documentFilter is SearchDocumentsResolver's filter: parent documents (or
// root ones only), sub types, domains, related assets, source type.
func documentFilter(in map[string]any) gms.Filter {
	strs := func(name string) []string {
		var out []string
		if vs, ok := in[name].([]any); ok {
			for _, v := range vs {
				if s, ok := v.(string); ok {
					out = append(out, s)
				}
			}
		}
		return out
	}
	var and []gms.Criterion
	if p := strs("parentDocuments"); len(p) > 0 {
		and = append(and, gms.Criterion{Field: "parentDocument", Condition: gms.CondEqual, Values: p})
	} else if root, _ := in["rootOnly"].(bool); root {
		and = append(and, gms.Criterion{Field: "parentDocument", Condition: "IS_NULL"})
	}
	for field, input := range map[string]string{"subTypes": "types", "domains": "domains", "relatedAssets": "relatedAssets"} {
		if v := strs(input); len(v) > 0 {
			and = append(and, gms.Criterion{Field: field, Condition: gms.CondEqual, Values: v})
		}
	}
	if s, _ := in["sourceType"].(string); s != "" {
		and = append(and, gms.Criterion{Field: "sourceType", Condition: gms.CondEqual, Values: []string{s}})
	}
	if and == nil {
		return nil
	}
	slices.SortFunc(and, func(a, b gms.Criterion) int { return strings.Compare(a.Field, b.Field) })
	return gms.Filter{and}
}
