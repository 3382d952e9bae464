package gms

import (
	"cmp"
	"context"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

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
	// Text is the query ("" or "*": every entity).
	Text   string
	Filter Filter
	// Sort are the sort criteria (none: urn ascending).
	Sort []SortCriterion
	// ScrollID continues after the page that gave it ("": the first).
	ScrollID       string
	Count          int
	IncludeRemoved bool
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
func (c *Core) List(ctx context.Context, q ListQuery) (EntityPage, error) {
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
	urns, err := c.matches(ctx, q)
	if err != nil {
		return EntityPage{}, err
	}
	if len(q.Sort) > 0 && !(len(q.Sort) == 1 && q.Sort[0].Field == "urn") {
		c.sortByFields(urns, q.Sort)
	} else if len(q.Sort) == 1 && q.Sort[0].Descending {
		slices.Reverse(urns)
	}
	from = min(from, len(urns))
	to := min(from+max(q.Count, 0), len(urns))
	page := EntityPage{URNs: urns[from:to], Total: len(urns)}
	if q.Count > 0 && to-from == q.Count && to < len(urns) {
		page.ScrollID = base64.RawURLEncoding.EncodeToString([]byte(queryCursor + strconv.Itoa(to)))
	}
	return page, nil
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
	sq := Query{Types: q.Types, Text: q.Text, Filter: q.Filter, IncludeSoftDeleted: q.IncludeRemoved,
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
				if v, found := fieldValue(d, s.Field); found {
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

// fieldValue is the first value of the index field name in an entity's
// document: the @Searchable field of that name of any of its aspects.
func fieldValue(d *index.Document, name string) (string, bool) {
	name = strings.TrimSuffix(name, ".keyword")
	aspects := make([]string, 0, len(d.Aspects))
	for a := range d.Aspects {
		aspects = append(aspects, a)
	}
	slices.Sort(aspects) // the same value every time when two aspects index the field
	for _, aspect := range aspects {
		raw := d.Aspects[aspect]
		for _, f := range pdl.SearchableFields(aspect) {
			if f.FieldName != name {
				continue
			}
			for _, v := range pdl.ValuesAt(raw, f.Path) {
				if s, ok := pdl.UnquoteJSON(v); ok {
					return s, true
				}
				return string(v), true
			}
		}
	}
	return "", false
}
