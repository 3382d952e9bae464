package index

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"
)

// pit is a point in time: a scroll's results as they were when it began,
// kept until it expires on the server clock.
type pit struct {
	hits    []Hit
	facets  []Facet
	expires time.Time
}

// pits are the open points in time of an index, by id.
type pits struct {
	mu  sync.Mutex
	seq int64
	m   map[string]*pit
}

// maxPits bounds the open points in time (Elasticsearch bounds them too,
// search.max_open_scroll_context); opening one more closes the one that
// expires first, whose scroll then goes on over the current index.
const maxPits = 1000

// pitReuseMargin is how long before its expiry a point in time is still
// reused (DataHub's ESUtils.computePointInTime opens a new one when fewer
// than 10 s remain).
const pitReuseMargin = 10 * time.Second

// Scroll answers a scroll query: q's Start is ignored, Count is the page
// size (clamped as in [Index.Search]) and there is no result window. An
// empty id starts a scroll; a page continues after the last hit of the page
// that gave id. The first page opens a point in time that holds the results
// for keepAlive on the server clock (extended by every page): the pages of
// a scroll see the index as it was when it started, as Elasticsearch's PIT
// does. When it has expired, the scroll goes on from the same sort values
// over the current index (DataHub opens a new point in time).
func (x *Index) Scroll(q Query, id, keepAlive string) (Result, error) {
	return x.scroll(q, id, keepAlive, func() ([]Hit, []Facet, error) { return x.evaluate(q) })
}

// scroll pages the hits eval returns, kept in a point in time.
func (x *Index) scroll(q Query, id, keepAlive string, eval func() ([]Hit, []Facet, error)) (Result, error) {
	alive, err := ParseKeepAlive(keepAlive)
	if err != nil {
		return Result{}, err
	}
	q.Count = ClampCount(q.Count)
	var after *scrollID
	if id != "" {
		s, err := decodeScrollID(id)
		if err != nil {
			return Result{}, err
		}
		after = &s
	}
	now := x.opts.Clock()
	x.pits.mu.Lock()
	if x.pits.m == nil {
		x.pits.m = map[string]*pit{}
	}
	for k, p := range x.pits.m {
		if now.After(p.expires) {
			delete(x.pits.m, k)
		}
	}
	var p *pit
	var pitID string
	if after != nil && after.PitID != nil && !now.Add(pitReuseMargin).After(time.UnixMilli(after.ExpirationTime)) {
		pitID = *after.PitID
		p = x.pits.m[pitID]
	}
	x.pits.mu.Unlock()
	if p == nil {
		hits, facets, err := eval()
		if err != nil {
			return Result{}, err
		}
		p = &pit{hits: hits, facets: facets}
		x.pits.mu.Lock()
		if len(x.pits.m) >= maxPits { // drop the one expiring first
			var first string
			for k, o := range x.pits.m {
				if first == "" || o.expires.Before(x.pits.m[first].expires) {
					first = k
				}
			}
			delete(x.pits.m, first)
		}
		x.pits.seq++
		pitID = strconv.FormatInt(x.pits.seq, 36) + "-" + strconv.FormatInt(now.UnixNano(), 36)
		x.pits.m[pitID] = p
		x.pits.mu.Unlock()
	}
	expires := now.Add(alive)
	x.pits.mu.Lock()
	p.expires = expires
	x.pits.mu.Unlock()

	from := 0
	if after != nil {
		last, err := afterHit(after.Sort)
		if err != nil {
			return Result{}, fmt.Errorf("%w: Invalid scroll Id cannot be mapped: %s", ErrScrollID, id)
		}
		urn := last.URN
		from, _ = slices.BinarySearchFunc(p.hits, last, compareHits)
		if from < len(p.hits) && p.hits[from].URN == urn {
			from++
		}
	}
	page := p.hits[min(from, len(p.hits)):]
	page = page[:min(q.Count, len(page))]
	r := Result{Total: len(p.hits), PageSize: min(q.Count, len(p.hits)), Hits: slices.Clone(page), Facets: p.facets}
	if q.Count > 0 && len(page) == q.Count {
		last := page[len(page)-1]
		sort := []any{last.Score, last.URN}
		if last.Degree > 0 {
			sort = []any{last.Degree, last.Score, last.URN}
		}
		r.NextScrollID = encodeScrollID(scrollID{Sort: sort, PitID: &pitID,
			ExpirationTime: expires.UnixMilli()})
	}
	return r, nil
}

func scoreOf(v any) (float64, error) {
	switch s := v.(type) {
	case json.Number:
		return s.Float64()
	case float64:
		return s, nil
	}
	return 0, fmt.Errorf("not a score: %v", v)
}

// afterHit reads a scroll id's sort values: [score, urn], or [degree,
// score, urn] for a lineage scroll.
func afterHit(sort []any) (Hit, error) {
	var h Hit
	if len(sort) == 3 {
		d, err := scoreOf(sort[0])
		if err != nil {
			return h, err
		}
		h.Degree = int(d)
		sort = sort[1:]
	}
	score, err := scoreOf(sort[0])
	if err != nil {
		return h, err
	}
	urn, ok := sort[1].(string)
	if !ok {
		return h, fmt.Errorf("not a urn: %v", sort[1])
	}
	h.Score, h.URN = score, urn
	return h, nil
}
