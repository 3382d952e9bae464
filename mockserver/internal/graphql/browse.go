package graphql

import (
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// browseV2, browse and browsePaths over the core's browsing
// (gms.Core.BrowseV2, Browse, BrowsePaths).

func init() {
	query("browseV2", browseV2)
	query("browse", browse)
	query("browsePaths", browsePaths)
}

type browseInput struct {
	Type        *string
	Types       *[]string
	Path        *[]string
	Start       *int32
	Count       *int32
	Query       *string
	Filters     *[]facetFilterInput
	OrFilters   *[]andFilterInput
	SearchFlags *searchFlagsInput
}

// browseV2 resolves Query.browseV2 (BrowseV2Resolver): start 0, count 10,
// query "*" by default; the types are type or types.
func browseV2(c *Ctx, a Args) (any, error) {
	var in struct{ Input browseInput }
	if err := a.Decode(&in); err != nil {
		return nil, badRequest(err.Error())
	}
	i := in.Input
	var types []string
	switch {
	case i.Types != nil && len(*i.Types) > 0:
		types = typesOf(i.Types)
	case i.Type != nil:
		types = typesOf(&[]string{*i.Type})
	default:
		types = typesOf(nil)
	}
	text := "*"
	if i.Query != nil && *i.Query != "" {
		text = *i.Query
	}
	var path []string
	if i.Path != nil {
		path = *i.Path
	}
	if e := charge(c); e != nil {
		return nil, e
	}
	q := gms.Query{Types: types, Text: text, Filter: buildFilter(nil, i.OrFilters)}
	applyFlags(&q, i.SearchFlags)
	start, count := intOr(i.Start, 0), intOr(i.Count, 10)
	res, err := c.Core().BrowseV2(c, q, path, start, count)
	if err != nil {
		return nil, searchFailed(types, text, q.Filter, start, count, err)
	}
	groups := make([]any, 0, len(res.Groups))
	for _, g := range res.Groups {
		group := map[string]any{"name": g.Name, "count": g.Count, "hasSubGroups": g.HasSubGroups, "entity": nil}
		if g.URN != "" {
			e, gerr := c.x.h.res.load(c, g.URN, "")
			if gerr != nil {
				return nil, gerr
			}
			group["entity"] = newEntityR(e)
		}
		groups = append(groups, group)
	}
	return map[string]any{"groups": groups, "start": res.Start, "count": len(groups), "total": res.Total,
		"metadata": map[string]any{"path": nonNilPath(path), "totalNumEntities": res.Entities}}, nil
}

func nonNilPath(p []string) []string {
	if p == nil {
		return []string{}
	}
	return p
}

// browse resolves Query.browse (BrowseResolver, legacy browsePaths, the
// core's Browse): start 0, count 10 by default; entities are those whose
// browse path is the path, groups the segments below it.
func browse(c *Ctx, a Args) (any, error) {
	var in struct{ Input browseInput }
	if err := a.Decode(&in); err != nil {
		return nil, badRequest(err.Error())
	}
	i := in.Input
	entity := ""
	if i.Type != nil {
		entity = registryName(*i.Type)
	}
	var path []string
	if i.Path != nil {
		path = *i.Path
	}
	start, count := intOr(i.Start, 0), intOr(i.Count, 10)
	page, err := c.Core().Browse(c, entity, strings.Join(path, "/"), start, count)
	if err != nil {
		return nil, fromCore(err)
	}
	groups := make([]any, 0, len(page.Groups))
	for _, g := range page.Groups {
		groups = append(groups, map[string]any{"name": g.Name, "count": g.Count})
	}
	entities := make([]any, 0, len(page.Entities))
	for i, be := range page.Entities {
		if err := stopped(c, i); err != nil {
			return nil, err
		}
		e, gerr := c.x.h.res.load(c, be.URN, "")
		if gerr != nil {
			return nil, gerr
		}
		entities = append(entities, newEntityR(e))
	}
	return map[string]any{"entities": entities, "groups": groups, "start": start, "count": len(entities),
		"total": page.Total, "metadata": map[string]any{"path": nonNilPath(path), "totalNumEntities": page.TotalUnder}}, nil
}

// browsePaths resolves Query.browsePaths: the entity's legacy browse
// paths, each split at "/".
func browsePaths(c *Ctx, a Args) (any, error) {
	in, _ := a["input"].(map[string]any)
	urn, _ := in["urn"].(string)
	paths, err := c.Core().BrowsePaths(c, urn)
	if err != nil {
		return nil, fromCore(err)
	}
	out := make([]any, 0, len(paths))
	for _, p := range paths {
		parts := []string{}
		for s := range strings.SplitSeq(p, "/") {
			if s != "" {
				parts = append(parts, s)
			}
		}
		out = append(out, map[string]any{"path": parts})
	}
	return out, nil
}
