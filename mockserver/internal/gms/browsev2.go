package gms

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
)

// DataHub's browseV2: the folders of browsePathsV2, computed from the
// entities a search finds (the legacy browse is Browse, in browse.go).

// BrowseV2Group is one folder under a browse path: its name (the path entry's
// id), the entity the entry names (URN, "" for none), how many entities are
// under it, and whether any is in a folder under it.
type BrowseV2Group struct {
	Name         string
	URN          string
	Count        int
	HasSubGroups bool
}

// BrowseV2Result is a page of the folders under a path, with the number of
// folders (Total) and of entities under the path (Entities); Leaves are the
// entities right at the path.
type BrowseV2Result struct {
	Groups   []BrowseV2Group
	Start    int
	Total    int
	Entities int
	Leaves   []string
}

// maxBrowsed bounds the entities one browse reads.
const maxBrowsed = 100_000

// BrowseV2 answers the folders right under path of the entities q finds,
// each entity placed by the ids of its browsePathsV2 (an entity without one
// is at the root), the page [start, start+count) of them by name.
func (c *Core) BrowseV2(ctx context.Context, q Query, path []string, start, count int) (BrowseV2Result, error) {
	return c.browseV2(ctx, q, path, start, count, func(urn string) ([][2]string, error) {
		a, err := c.GetAspect(ctx, urn, "browsePathsV2", 0)
		if err != nil || a.Value == nil {
			return nil, ignoreAbsent(err)
		}
		var v struct {
			Path []struct {
				ID  string  `json:"id"`
				URN *string `json:"urn"`
			} `json:"path"`
		}
		if err := json.Unmarshal(a.Value, &v); err != nil {
			return nil, nil
		}
		out := make([][2]string, 0, len(v.Path))
		for _, p := range v.Path {
			u := ""
			if p.URN != nil {
				u = *p.URN
			}
			out = append(out, [2]string{p.ID, u})
		}
		return out, nil
	})
}

func (c *Core) browseV2(ctx context.Context, q Query, path []string, start, count int, pathOf func(string) ([][2]string, error)) (BrowseV2Result, error) {
	q.SkipAggregates = true
	groups := map[string]*BrowseV2Group{}
	var res BrowseV2Result
	for from := 0; from < maxBrowsed; {
		q.Start, q.Count = from, MaxCount
		page, err := c.Search(ctx, q)
		if err != nil {
			return BrowseV2Result{}, err
		}
		for _, h := range page.Hits {
			if err := ctx.Err(); err != nil {
				return BrowseV2Result{}, err
			}
			p, err := pathOf(h.URN)
			if err != nil {
				return BrowseV2Result{}, err
			}
			if len(p) < len(path) || !samePrefix(p, path) {
				continue
			}
			res.Entities++
			if len(p) == len(path) {
				res.Leaves = append(res.Leaves, h.URN)
				continue
			}
			next := p[len(path)]
			g := groups[next[0]]
			if g == nil {
				g = &BrowseV2Group{Name: next[0], URN: next[1]}
				groups[next[0]] = g
			}
			g.Count++
			if len(p) > len(path)+1 {
				g.HasSubGroups = true
			}
		}
		from += len(page.Hits)
		if len(page.Hits) == 0 || from >= page.Total {
			break
		}
	}
	all := make([]BrowseV2Group, 0, len(groups))
	for _, g := range groups {
		all = append(all, *g)
	}
	slices.SortFunc(all, func(a, b BrowseV2Group) int { return strings.Compare(a.Name, b.Name) })
	res.Total, res.Start = len(all), start
	if start < len(all) {
		end := min(len(all), start+max(count, 0))
		res.Groups = all[start:end]
	}
	return res, nil
}

func samePrefix(p [][2]string, path []string) bool {
	for i, s := range path {
		if p[i][0] != s {
			return false
		}
	}
	return true
}

// ignoreAbsent is nil for an aspect an entity has not (or cannot have).
func ignoreAbsent(err error) error {
	if e := AsError(err); e != nil && (e.Kind == NotFound || e.Kind == UnknownAspect) {
		return nil
	}
	return err
}
