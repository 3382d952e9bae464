package gms

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// sortedScrollTTL is how long a sorted scroll's id says it is valid (the
// scroll itself keeps no state: its id carries its position).
const sortedScrollTTL = 5 * time.Minute

// sortedScrollID is the scroll id of a sorted scroll, in the shape of
// DataHub's (SearchAfterWrapper, Base64 JSON): its sort values are the
// number of hits already answered and the last one's URN.
type sortedScrollID struct {
	Sort           []any   `json:"sort"`
	PitID          *string `json:"pitId"`
	ExpirationTime int64   `json:"expirationTime"`
}

// ScrollSorted is [Core.Scroll] ordered by sort instead of by score when
// sort is not empty, as GMS's scrollAcrossEntities with sortCriteria: the
// matches ordered as [Core.SearchSorted] orders them (then by URN), a page
// of q.Count after the position the scroll id carries, with the facets of
// every match. A full page gives the id of the next one.
func (c *Core) ScrollSorted(ctx context.Context, q Query, sort []SortCriterion, scrollID, keepAlive string) (SearchResult, error) {
	if len(sort) == 0 {
		return c.Scroll(ctx, q, scrollID, keepAlive)
	}
	from := 0
	if scrollID != "" {
		n, err := decodeSortedScroll(scrollID)
		if err != nil {
			return SearchResult{}, err
		}
		from = n
	}
	count := ClampCount(q.Count)
	urns, byURN, facets, err := c.sortedHits(ctx, q, sort)
	if err != nil {
		return SearchResult{}, err
	}
	from = min(from, len(urns))
	to := min(from+count, len(urns))
	page := make([]SearchHit, 0, to-from)
	for _, u := range urns[from:to] {
		page = append(page, byURN[u])
	}
	r := SearchResult{Total: len(urns), PageSize: min(count, len(urns)), Hits: slices.Clip(page), Facets: facets}
	if count > 0 && len(page) == count {
		b, _ := json.Marshal(sortedScrollID{Sort: []any{to, urns[to-1]},
			ExpirationTime: c.opts.Clock().Add(sortedScrollTTL).UnixMilli()})
		r.NextScrollID = base64.StdEncoding.EncodeToString(b)
	}
	return r, nil
}

// decodeSortedScroll returns the position a sorted scroll's id carries.
func decodeSortedScroll(id string) (int, error) {
	b, err := index.DecodeBase64(id)
	if err != nil {
		return 0, err
	}
	var s sortedScrollID
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&s); err == nil && len(s.Sort) == 2 {
		if n, ok := s.Sort[0].(json.Number); ok {
			if v, err := n.Int64(); err == nil && v >= 0 {
				return int(v), nil
			}
		}
	}
	return 0, fmt.Errorf("%w: Invalid scroll Id cannot be mapped: %s", ErrScrollID, id)
}
