package gms

import (
	"cmp"
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// SortCriterion is one sort key of a list: an index field and its order.
type SortCriterion struct {
	Field      string
	Descending bool
}

// ListQuery is a list of entities (the OpenAPI v2/v3 list and scroll):
// entity types, a free-text query and a filter, sort criteria, a page.
type ListQuery struct {
	Types []string
	// Text is the query ("" or "*": every entity), read as DataHub's
	// structured search reads it (an Elasticsearch query_string: field:value,
	// escapes, wildcards, quoted phrases).
	Text   string
	Filter Filter
	// Sort are the sort criteria (none: urn ascending).
	Sort []SortCriterion
	// ScrollID continues after the page that gave it ("": the first).
	ScrollID       string
	Count          int
	IncludeRemoved bool
	// Facets asks for the page's facets, as DataHub's v3 scroll answers
	// them (its v3 list answers none).
	Facets bool
}

// plain reports whether q is a plain listing: every entity in URN order.
func (q ListQuery) plain() bool {
	if q.Text != "" && q.Text != "*" || len(q.Filter) > 0 {
		return false
	}
	for _, s := range q.Sort {
		if s.Field != "urn" || s.Descending {
			return false
		}
	}
	return true
}

// queryCursor is the prefix of a scroll id of a list with a query, a
// filter or a sort.
const queryCursor = "q\x00"

// List pages through the entities q selects. A plain listing (query "*",
// no filter, sorted by urn ascending) is [Core.ListEntities]; any other
// runs q's text and filter over the search index (as DataHub's
// scrollAcrossEntities does), sorts the matches by q.Sort (values compared
// as numbers when both are, else as text; an entity without the field
// last; then by URN) and pages them from an offset its scroll id carries.
// When q.Facets, the page's facets are the "entity" facet of its own
// hits, as DataHub's scroll answers when it skips aggregations (see
// pageEntityFacet).
func (c *Core) List(ctx context.Context, q ListQuery) (EntityPage, error) {
	page, err := c.list(ctx, q)
	if err != nil || !q.Facets {
		return page, err
	}
	page.Facets = []Facet{pageEntityFacet(page.URNs)}
	return page, nil
}

// list is [Core.List] without the facets.
func (c *Core) list(ctx context.Context, q ListQuery) (EntityPage, error) {
	if q.plain() && !strings.HasPrefix(decodedCursor(q.ScrollID), queryCursor) {
		after, err := ListCursor(q.ScrollID)
		if err != nil {
			return EntityPage{}, err
		}
		return c.ListEntities(ctx, q.Types, after, q.Count, q.IncludeRemoved)
	}
	from := 0
	if q.ScrollID != "" {
		d := decodedCursor(q.ScrollID)
		n, ok := strings.CutPrefix(d, queryCursor)
		v, err := strconv.Atoi(n)
		if !ok || err != nil || v < 0 {
			return EntityPage{}, ErrListScrollID
		}
		from = v
	}
	urns, err := c.sortedMatches(ctx, q)
	if err != nil {
		return EntityPage{}, err
	}
	from = min(from, len(urns))
	to := min(from+max(q.Count, 0), len(urns))
	page := EntityPage{URNs: urns[from:to], Total: len(urns)}
	if q.Count > 0 && to-from == q.Count && to < len(urns) {
		page.ScrollID = base64.RawURLEncoding.EncodeToString([]byte(queryCursor + strconv.Itoa(to)))
	}
	return page, nil
}

// listCache keeps the sorted matches of the last lists by their query and
// the index position they were computed at, as Elasticsearch's point in
// time keeps a scroll's results: the next pages of a list cost O(page)
// while the index does not change.
type listCache struct {
	mu      sync.Mutex
	entries []listEntry // the most recent last
}

// listEntry is one kept list.
type listEntry struct {
	key  string
	pos  uint64
	urns []string
}

// maxKeptLists bounds the lists kept.
const maxKeptLists = 8

// sortedMatches returns the URNs q selects in q's order, from the cache
// when the index has not moved since they were computed.
func (c *Core) sortedMatches(ctx context.Context, q ListQuery) ([]string, error) {
	c.barrier()
	pos := c.ix.Position()
	key := fmt.Sprintf("%q %q %#v %#v %v", q.Types, q.Text, q.Filter, q.Sort, q.IncludeRemoved)
	c.lists.mu.Lock()
	for _, e := range c.lists.entries {
		if e.key == key && e.pos == pos {
			c.lists.mu.Unlock()
			return e.urns, nil
		}
	}
	c.lists.mu.Unlock()
	urns, err := c.matches(ctx, q)
	if err != nil {
		return nil, err
	}
	if len(q.Sort) > 0 && !(len(q.Sort) == 1 && q.Sort[0].Field == "urn") {
		c.sortByFields(urns, q.Sort)
	} else if len(q.Sort) == 1 && q.Sort[0].Descending {
		slices.Reverse(urns)
	}
	c.lists.mu.Lock()
	c.lists.entries = slices.DeleteFunc(c.lists.entries, func(e listEntry) bool { return e.key == key })
	c.lists.entries = append(c.lists.entries, listEntry{key: key, pos: pos, urns: urns})
	if n := len(c.lists.entries); n > maxKeptLists {
		c.lists.entries = slices.Delete(c.lists.entries, 0, n-maxKeptLists)
	}
	c.lists.mu.Unlock()
	return urns, nil
}

// decodedCursor is a scroll id's Base64 text ("" when it is not Base64).
func decodedCursor(id string) string {
	b, err := base64.RawURLEncoding.DecodeString(id)
	if err != nil {
		return ""
	}
	return string(b)
}

// matches returns the URNs of the entities q's types, text and filter
// select, by URN, from the search index's scroll (whose point in time
// keeps the evaluation for the next pages).
func (c *Core) matches(ctx context.Context, q ListQuery) ([]string, error) {
	sq := Query{Types: q.Types, Text: q.Text, Structured: true, Filter: q.Filter, IncludeSoftDeleted: q.IncludeRemoved,
		Count: MaxCount, SkipAggregates: true}
	var urns []string
	id := ""
	for {
		res, err := c.Scroll(ctx, sq, id, "5m")
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			urns = append(urns, h.URN)
		}
		if res.NextScrollID == "" {
			break
		}
		id = res.NextScrollID
	}
	slices.Sort(urns)
	return urns, nil
}

// sortByFields sorts urns by the criteria, the values read from each
// entity's index document through its aspects' @Searchable fields.
func (c *Core) sortByFields(urns []string, sort []SortCriterion) {
	paths := make([]map[string][]string, len(sort)) // per criterion: aspect → paths of the field
	for i, s := range sort {
		paths[i] = fieldPaths(s.Field)
	}
	keys := make(map[string][]string, len(urns))
	for _, u := range urns {
		d, ok := c.ix.Get(index.EntityIndexName(EntityTypeOf(u)), u)
		k := make([]string, len(sort))
		for i, s := range sort {
			k[i] = "\x00" // missing
			if s.Field == "urn" {
				k[i] = u
				continue
			}
			if ok {
				if v, found := fieldValue(d, paths[i]); found {
					k[i] = v
				}
			}
		}
		keys[u] = k
	}
	slices.SortStableFunc(urns, func(a, b string) int {
		ka, kb := keys[a], keys[b]
		for i, s := range sort {
			va, vb := ka[i], kb[i]
			if va == vb {
				continue
			}
			switch { // missing values last, whatever the order
			case va == "\x00":
				return 1
			case vb == "\x00":
				return -1
			}
			r := compareValues(va, vb)
			if s.Descending {
				r = -r
			}
			if r != 0 {
				return r
			}
		}
		return strings.Compare(a, b)
	})
}

// compareValues compares as numbers when both are, else as text.
func compareValues(a, b string) int {
	fa, ea := strconv.ParseFloat(a, 64)
	fb, eb := strconv.ParseFloat(b, 64)
	if ea == nil && eb == nil {
		return cmp.Compare(fa, fb)
	}
	return strings.Compare(a, b)
}

// fieldPathsOf keeps fieldPaths' answers for the names that are fields
// (a finite set: what a request names otherwise is not kept).
var fieldPathsOf sync.Map // name → map[string][]string

// fieldPaths are the paths of the @Searchable fields named name (a
// ".keyword" suffix ignored) by aspect. The result is shared: read only.
func fieldPaths(name string) map[string][]string {
	name = strings.TrimSuffix(name, ".keyword")
	if m, ok := fieldPathsOf.Load(name); ok {
		return m.(map[string][]string)
	}
	out := findFieldPaths(name)
	if len(out) > 0 {
		fieldPathsOf.Store(name, out)
	}
	return out
}

// findFieldPaths is fieldPaths, found in the registry and the model.
func findFieldPaths(name string) map[string][]string {
	out := map[string][]string{}
	for _, e := range pdl.Registry() {
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if _, done := out[a]; done {
				continue
			}
			for _, f := range pdl.SearchableFields(a) {
				if f.FieldName == name {
					out[a] = append(out[a], f.Path)
				}
			}
		}
	}
	return out
}

// fieldValue is the first value at paths (aspect → paths) in an entity's
// document, the aspects taken by name.
func fieldValue(d *index.Document, paths map[string][]string) (string, bool) {
	var aspects []string
	for a := range d.Aspects {
		if len(paths[a]) > 0 {
			aspects = append(aspects, a)
		}
	}
	slices.Sort(aspects) // the same value every time when two aspects index the field
	for _, aspect := range aspects {
		for _, p := range paths[aspect] {
			if vs := jsonx.ValuesAt(d.Aspects[aspect], p); len(vs) > 0 {
				if s, ok := pdl.UnquoteJSON(vs[0]); ok {
					return s, true
				}
				return string(vs[0]), true
			}
		}
	}
	return "", false
}
