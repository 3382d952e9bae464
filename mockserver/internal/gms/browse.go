package gms

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// browsePathsOf is the paths of a browsePaths aspect value.
func browsePathsOf(v json.RawMessage) []string {
	var bp struct {
		Paths []string `json:"paths"`
	}
	_ = json.Unmarshal(v, &bp)
	return bp.Paths
}

// BrowsePaths returns urn's browse paths (its browsePaths aspect's paths;
// none when it has none), as GMS's entities?action=getBrowsePaths.
func (c *Core) BrowsePaths(ctx context.Context, urn string) ([]string, error) {
	c.barrier()
	if _, err := CheckURN(urn); err != nil {
		return nil, err
	}
	a, err := c.st.Get(urn, "browsePaths", 0)
	if errors.Is(err, store.ErrNotFound) {
		return []string{}, nil
	}
	if err != nil {
		return nil, errorf(Internal, MsgStore, err)
	}
	paths := browsePathsOf(a.Value)
	if paths == nil {
		paths = []string{}
	}
	return paths, nil
}

// BrowsePage is the answer of [Core.Browse].
type BrowsePage struct {
	// Entities are the page of entities whose browse path is the path.
	Entities []BrowseEntity
	// Groups are the next path segments under the path, by name, each with
	// the number of entities under it.
	Groups []BrowseGroup
	// Total counts the entities at the path, TotalUnder those at or under
	// it.
	Total, TotalUnder int
}

// BrowseEntity is an entity at a browsed path.
type BrowseEntity struct{ Name, URN string }

// BrowseGroup is a path segment under a browsed path.
type BrowseGroup struct {
	Name  string
	Count int
}

// Browse lists what lies at path ("/" or "" the root) among the live
// entities of entityType by their browsePaths, as GMS's
// entities?action=browse: the entities whose path is path (from start, at
// most limit) and the groups one segment below it.
func (c *Core) Browse(ctx context.Context, entityType, path string, start, limit int) (BrowsePage, error) {
	c.barrier()
	if _, ok := lookupEntity(entityType); !ok {
		return BrowsePage{}, errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(entityType))
	}
	path = "/" + strings.Trim(path, "/")
	rows, err := c.st.Rows(store.RowQuery{URNPrefix: "urn:li:" + entityType + ":", Aspect: "browsePaths"})
	if err != nil {
		return BrowsePage{}, errorf(Internal, MsgStore, err)
	}
	var at []BrowseEntity
	groups := map[string]map[string]bool{}
	under := map[string]bool{}
	for _, r := range rows {
		if c.removed(r.URN) {
			continue
		}
		for _, p := range browsePathsOf(r.Value) {
			p = "/" + strings.Trim(p, "/")
			switch {
			case p == path:
				at = append(at, BrowseEntity{URN: r.URN})
				under[r.URN] = true
			case path == "/" || strings.HasPrefix(p, path+"/"):
				rest := strings.TrimPrefix(strings.TrimPrefix(p, path), "/")
				seg, _, _ := strings.Cut(rest, "/")
				if seg == "" {
					continue
				}
				if groups[seg] == nil {
					groups[seg] = map[string]bool{}
				}
				groups[seg][r.URN] = true
				under[r.URN] = true
			}
		}
	}
	at = slices.CompactFunc(at, func(a, b BrowseEntity) bool { return a.URN == b.URN })
	out := BrowsePage{Total: len(at), TotalUnder: len(under), Entities: page(at, start, limit)}
	for name, urns := range groups {
		out.Groups = append(out.Groups, BrowseGroup{Name: name, Count: len(urns)})
	}
	slices.SortFunc(out.Groups, func(a, b BrowseGroup) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}
