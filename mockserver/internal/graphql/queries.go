package graphql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// Other Query fields over the core: counts, autocomplete, the signed-in
// user, settings of a fresh DataHub, and the fields of subsystems the mock
// does not run (see subsystemFields).

// meURN is the user the mock's GraphQL answers as signed in: DataHub's
// root user, whose token the mock accepts.
const meURN = "urn:li:corpuser:datahub"

func init() {
	query("getEntityCounts", getEntityCounts)
	query("autoComplete", autoComplete)
	query("autoCompleteForMultiple", autoCompleteForMultiple)
	query("me", me)
	query("listMyViews", func(c *Ctx, a Args) (any, error) {
		return list(c, a, listSpec{field: "listMyViews", entity: "dataHubView", result: "views", count: 20})
	})
	query("listAccessTokens", func(c *Ctx, a Args) (any, error) {
		return list(c, a, listSpec{field: "listAccessTokens", entity: "dataHubAccessToken", result: "tokens", count: 20})
	})
	query("searchUsers", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input searchAcrossEntitiesInput }
		if err := a.Decode(&in); err != nil {
			return nil, badRequest(err.Error())
		}
		i := in.Input
		return c.x.h.res.offsetSearch(c, []string{"corpuser"}, i.Query, buildFilter(i.Filters, i.OrFilters), intOr(i.Start, 0), intOr(i.Count, 10), i.SearchFlags, false)
	})
	for _, f := range []string{"listDataProductAssets", "listApplicationAssets"} {
		field := "dataProducts"
		if f == "listApplicationAssets" {
			field = "applications"
		}
		query(f, func(c *Ctx, a Args) (any, error) {
			var in struct {
				Urn   string
				Input searchAcrossEntitiesInput
			}
			if err := a.Decode(&in); err != nil {
				return nil, badRequest(err.Error())
			}
			if _, err := gms.CheckURN(in.Urn); err != nil {
				return nil, fromCore(err)
			}
			i := in.Input
			f := buildFilter(i.Filters, i.OrFilters)
			with := gms.Criterion{Field: field, Condition: gms.CondEqual, Values: []string{in.Urn}}
			if len(f) == 0 {
				f = gms.Filter{{with}}
			} else {
				for k := range f {
					f[k] = append(f[k], with)
				}
			}
			return c.x.h.res.offsetSearch(c, typesOf(i.Types), i.Query, f, intOr(i.Start, 0), intOr(i.Count, 10), i.SearchFlags, false)
		})
	}
	for name, answer := range subsystemFields {
		query(name, func(*Ctx, Args) (any, error) { return answer, nil })
	}
	for name, fail := range subsystemErrors {
		query(name, func(_ *Ctx, a Args) (any, error) { return nil, fail(a) })
	}
}

// subsystemErrors are the Query fields of subsystems the mock does not run
// that DataHub answers with an error when they are off: semantic search
// disabled (SemanticSearchDisabledException), no S3 for uploads.
var subsystemErrors = map[string]func(Args) *gqlError{
	"semanticSearch":               func(Args) *gqlError { return badRequest("Semantic search is disabled in this environment") },
	"semanticSearchAcrossEntities": func(Args) *gqlError { return badRequest("Semantic search is disabled in this environment") },
	"getPresignedUploadUrl":        func(Args) *gqlError { return badRequest("S3Util isn't provided") },
}

// subsystemFields are the Query fields of subsystems the mock does not run,
// answered as a DataHub with that subsystem off or empty answers them:
// analytics disabled, no recommendations or quick filters, no lifecycle
// stages.
var subsystemFields = map[string]any{
	"isAnalyticsEnabled":         false,
	"getAnalyticsCharts":         []any{},
	"getHighlights":              []any{},
	"getMetadataAnalyticsCharts": []any{},
	"listRecommendations":        map[string]any{"modules": []any{}},
	"getQuickFilters":            map[string]any{"quickFilters": []any{}},
	"listLifecycleStages":        []any{},
	"latestProductUpdate":        nil,
	"globalHomePageSettings":     map[string]any{"defaultTemplate": nil},
}

// getEntityCounts answers the number of entities of each type asked
// (EntityCountsResolver), from the index.
func getEntityCounts(c *Ctx, a Args) (any, error) {
	in, _ := a["input"].(map[string]any)
	var types []string
	if ts, ok := in["types"].([]any); ok {
		for _, t := range ts {
			if s, ok := t.(string); ok {
				types = append(types, s)
			}
		}
	}
	if len(types) == 0 {
		types = searchableTypes
	}
	counts := make([]any, 0, len(types))
	for _, t := range types {
		if e := charge(c); e != nil {
			return nil, e
		}
		names := typesOf(&[]string{t})
		n := 0
		if len(names) > 0 {
			res, err := c.x.h.res.search.Search(c, gms.Query{Types: names, Text: "*", Count: 0, SkipAggregates: true})
			if err != nil {
				return nil, searchFailed(names, "*", nil, 0, 0, err)
			}
			n = res.Total
		}
		counts = append(counts, map[string]any{"entityType": t, "count": n})
	}
	return map[string]any{"counts": counts}, nil
}

// autoCompleteFor runs one type's autocomplete: a search of the query text,
// its hits as entities and the values the text matched as suggestions.
func autoCompleteFor(c *Ctx, types []string, text string, f gms.Filter, limit int) ([]any, []any, error) {
	if e := charge(c); e != nil {
		return nil, nil, e
	}
	q := gms.Query{Types: types, Text: text, Filter: f, Count: limit, SkipAggregates: true, WithAspects: true}
	res, err := c.x.h.res.search.Search(c, q)
	if err != nil {
		return nil, nil, searchFailed(types, text, f, 0, limit, err)
	}
	suggestions, entities := []any{}, []any{}
	seen := map[string]bool{}
	for i, h := range res.Hits {
		if err := stopped(c, i); err != nil {
			return nil, nil, err
		}
		e, gerr := c.x.h.res.loadHit(c, res, h)
		if gerr != nil {
			return nil, nil, gerr
		}
		entities = append(entities, newEntityR(e))
		for _, m := range h.Matched {
			if !seen[m.Value] {
				seen[m.Value] = true
				suggestions = append(suggestions, m.Value)
			}
			break
		}
	}
	return suggestions, entities, nil
}

type autoCompleteInput struct {
	Type      *string
	Types     *[]string
	Query     string
	Limit     *int32
	Filters   *[]facetFilterInput
	OrFilters *[]andFilterInput
}

// autoComplete resolves Query.autoComplete (AutoCompleteResolver): limit 10
// by default.
func autoComplete(c *Ctx, a Args) (any, error) {
	var in struct{ Input autoCompleteInput }
	if err := a.Decode(&in); err != nil {
		return nil, badRequest(err.Error())
	}
	i := in.Input
	var types []string
	if i.Type != nil {
		types = typesOf(&[]string{*i.Type})
	} else {
		types = typesOf(nil)
	}
	s, e, err := autoCompleteFor(c, types, strings.TrimSpace(i.Query), buildFilter(i.Filters, i.OrFilters), intOr(i.Limit, 10))
	if err != nil {
		return nil, err
	}
	return map[string]any{"query": i.Query, "suggestions": s, "entities": e}, nil
}

// autoCompleteForMultiple resolves Query.autoCompleteForMultiple
// (AutoCompleteForMultipleResolver): one result per type asked (the
// searchable types when none), limit 10 by default.
func autoCompleteForMultiple(c *Ctx, a Args) (any, error) {
	var in struct{ Input autoCompleteInput }
	if err := a.Decode(&in); err != nil {
		return nil, badRequest(err.Error())
	}
	i := in.Input
	types := searchableTypes
	if i.Types != nil && len(*i.Types) > 0 {
		types = *i.Types
	}
	out := []any{}
	for _, t := range types {
		names := typesOf(&[]string{t})
		if len(names) == 0 {
			continue
		}
		s, e, err := autoCompleteFor(c, names, strings.TrimSpace(i.Query), buildFilter(i.Filters, i.OrFilters), intOr(i.Limit, 10))
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"type": t, "suggestions": s, "entities": e})
	}
	return map[string]any{"query": i.Query, "suggestions": out}, nil
}

// me answers the signed-in user (DataHub's root user) with every platform
// privilege, as DataHub's MeResolver answers for the root user.
func me(c *Ctx, _ Args) (any, error) {
	e, err := c.x.h.res.load(c, meURN, "corpuser")
	if err != nil {
		return nil, err
	}
	privileges := map[string]any{}
	if def := c.x.schema.Types["PlatformPrivileges"]; def != nil {
		for _, f := range def.Fields {
			privileges[f.Name] = true
		}
	}
	return map[string]any{"corpUser": newEntityR(e), "platformPrivileges": privileges}, nil
}

func init() {
	query("versionedDataset", versionedDataset)
}

// versionedDataset resolves Query.versionedDataset: the dataset with the
// aspect versions its versionStamp names ("schemaMetadata:2;ownership:0",
// each aspect at that version, the others latest), the latest without one.
func versionedDataset(c *Ctx, a Args) (any, error) {
	e, err := c.x.h.res.load(c, a.String("urn"), "dataset")
	if err != nil {
		return nil, err
	}
	if stamp := a.String("versionStamp"); stamp != "" {
		aspects := slices.Clone(e.aspects) // the loaded ones are shared
		for part := range strings.SplitSeq(stamp, ";") {
			name, ver, ok := strings.Cut(part, ":")
			if !ok {
				return nil, badRequest(fmt.Sprintf("Invalid version stamp %s", stamp))
			}
			v, perr := strconv.ParseInt(ver, 10, 64)
			if perr != nil {
				return nil, badRequest(fmt.Sprintf("Invalid version stamp %s", stamp))
			}
			va, gerr := c.Core().GetAspect(c, e.urn, name, v)
			if ge := gms.AsError(gerr); ge != nil && ge.Kind == gms.NotFound {
				aspects = slices.DeleteFunc(aspects, func(x gms.Aspect) bool { return x.Name == name })
				continue
			} else if gerr != nil {
				return nil, fromCore(gerr)
			}
			i := slices.IndexFunc(aspects, func(x gms.Aspect) bool { return x.Name == name })
			if i < 0 {
				aspects = append(aspects, va.Aspect)
			} else {
				aspects[i] = va.Aspect
			}
		}
		v := *e
		v.aspects = aspects
		e = &v
		if err := e.loadProps(); err != nil {
			return nil, err
		}
	}
	return &datasetR{e}, nil
}
