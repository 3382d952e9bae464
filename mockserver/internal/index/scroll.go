package index

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"
)

// results are the results of one query at one generation of the index: the
// hits in order and the facets; for a lineage query, the hits have no paths
// and graph builds them. Once made they are never modified, so that the
// points in time opened for the same query at the same generation share
// them.
type results struct {
	hits   []Hit
	facets []Facet
	gen    uint64
	graph  *graph
	// key is the query's (see pits.shared); bytes about the memory held.
	key   string
	bytes int
	// pits is the number of open points in time holding them.
	pits int
}

// withPaths returns a copy of hits, a page of r's, with their lineage
// paths.
func (r *results) withPaths(hits []Hit) []Hit {
	out := slices.Clone(hits)
	if r.graph == nil {
		return out
	}
	r.graph.pagePaths(out)
	return out
}

// size is about the bytes r holds beyond the index's own strings.
func (r *results) size() int {
	const hit, matched, value = 104, 32, 32
	n := len(r.hits) * hit
	for _, h := range r.hits {
		n += len(h.Matched) * matched
	}
	for _, f := range r.facets {
		n += 64 + len(f.Field) + len(f.DisplayName)
		for _, v := range f.Values {
			n += value + len(v.Value)
		}
	}
	if r.graph != nil {
		n += r.graph.size()
	}
	return n
}

// pit is a point in time: a scroll's results as they were when it began,
// kept until it expires on the server clock.
type pit struct {
	res     *results
	expires time.Time
}

// pits are the open points in time of an index, by id, and the results
// they hold, by query, for the generation they were computed at.
type pits struct {
	mu     sync.Mutex
	seq    int64
	m      map[string]*pit
	shared map[string]*results
	// bytes is the size of the results the points in time hold, each
	// counted once; maxBytes bounds it (0: maxPitBytes).
	bytes, maxBytes int
}

// maxPits bounds the open points in time (Elasticsearch bounds them too,
// search.max_open_scroll_context); opening one more closes the one that
// expires first, whose scroll then goes on over the current index.
const maxPits = 1000

// maxPitBytes bounds the memory the open points in time hold: opening one
// past it closes those that expire first, as maxPits does. Points in time
// of the same query opened while the index did not change share their
// results and count once.
const maxPitBytes = 64 << 20

// pitReuseMargin is how long before its expiry a point in time is still
// reused (DataHub's ESUtils.computePointInTime opens a new one when fewer
// than 10 s remain).
const pitReuseMargin = 10 * time.Second

// Scroll answers a scroll query, as [Index.ScrollContext] with a context
// that is never cancelled.
func (x *Index) Scroll(q Query, id, keepAlive string) (Result, error) {
	return x.ScrollContext(context.Background(), q, id, keepAlive)
}

// ScrollContext answers a scroll query: q's Start is ignored, Count is the
// page size (clamped as in [Index.Search]) and there is no result window.
// An empty id starts a scroll; a page continues after the last hit of the
// page that gave id. The first page opens a point in time that holds the
// results for keepAlive on the server clock (extended by every page): the
// pages of a scroll see the index as it was when it started, as
// Elasticsearch's PIT does. When it has expired, the scroll goes on from
// the same sort values over the current index (DataHub opens a new point
// in time). A keep-alive above [MaxKeepAlive] is refused with
// [ErrKeepAlive]. The search stops with ctx's error once ctx is done.
func (x *Index) ScrollContext(ctx context.Context, q Query, id, keepAlive string) (Result, error) {
	key := q
	key.Start, key.Count, key.WithAspects = 0, 0, false
	return x.scroll(ctx, q, fmt.Sprintf("search %#v", key), id, keepAlive, func() (*results, error) {
		hits, facets, gen, err := x.evaluate(ctx, q)
		if err != nil {
			return nil, err
		}
		return &results{hits: hits, facets: facets, gen: gen}, nil
	})
}

// generation returns the index's generation with every written document
// indexed.
func (x *Index) generation() uint64 {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	x.flushSearch()
	return x.gen
}

// scroll pages the results eval returns for the query key, kept in a point
// in time.
func (x *Index) scroll(ctx context.Context, q Query, key, id, keepAlive string, eval func() (*results, error)) (Result, error) {
	alive, err := ParseKeepAlive(keepAlive)
	if err != nil {
		return Result{}, err
	}
	if err := checkQueryLength(q.Text); err != nil {
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
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	now := x.opts.Clock()
	expires := now.Add(alive)
	// The results are kept under a digest of the query: an open scroll
	// pins 32 bytes of it, not its text (which may be megabytes of filter
	// values that the bound on the results would not count).
	digest := sha256.Sum256([]byte(key))
	key = string(digest[:])
	x.pits.mu.Lock()
	if x.pits.m == nil {
		x.pits.m = map[string]*pit{}
		x.pits.shared = map[string]*results{}
	}
	for k, p := range x.pits.m {
		if now.After(p.expires) {
			x.pits.close(k)
		}
	}
	var p *pit
	var pitID string
	if after != nil && after.PitID != nil && !now.Add(pitReuseMargin).After(time.UnixMilli(after.ExpirationTime)) {
		pitID = *after.PitID
		if p = x.pits.m[pitID]; p != nil {
			p.expires = expires // extended in the same critical section as found
		}
	}
	x.pits.mu.Unlock()
	if p == nil {
		gen := x.generation()
		x.pits.mu.Lock()
		res := x.pits.shared[key]
		x.pits.mu.Unlock()
		if res == nil || res.gen != gen {
			if res, err = eval(); err != nil {
				return Result{}, err
			}
			res.key, res.bytes = key, res.size()+len(key)
		}
		p = &pit{res: res, expires: expires} // enters the map with its expiry: no sweep sees it without
		x.pits.mu.Lock()
		x.pits.seq++
		pitID = strconv.FormatInt(x.pits.seq, 36) + "-" + strconv.FormatInt(now.UnixNano(), 36)
		x.pits.open(pitID, p)
		x.pits.mu.Unlock()
	}

	res := p.res
	from := 0
	if after != nil {
		last, err := afterHit(after.Sort)
		if err != nil {
			return Result{}, fmt.Errorf("%w: Invalid scroll Id cannot be mapped: %s", ErrScrollID, id)
		}
		urn := last.URN
		from, _ = slices.BinarySearchFunc(res.hits, last, compareHits)
		if from < len(res.hits) && res.hits[from].URN == urn {
			from++
		}
	}
	page := res.hits[min(from, len(res.hits)):]
	page = page[:min(q.Count, len(page))]
	r := Result{Total: len(res.hits), PageSize: min(q.Count, len(res.hits)), Hits: res.withPaths(page), Facets: res.facets}
	if q.Count > 0 && len(page) == q.Count {
		last := page[len(page)-1]
		sort := []any{last.Score, last.URN}
		if last.Degree > 0 {
			sort = []any{last.Degree, last.Score, last.URN}
		}
		r.NextScrollID = encodeScrollID(scrollID{Sort: sort, PitID: &pitID,
			ExpirationTime: expires.UnixMilli()})
	}
	x.withAspects(q, &r)
	return r, nil
}

// open adds the point in time p as id, sharing its results with later
// points in time of the same query, then closes those that expire first
// while more than maxPits are open or their results pass maxPitBytes (p
// stays open); ps.mu is held.
func (ps *pits) open(id string, p *pit) {
	if p.res.pits == 0 {
		ps.bytes += p.res.bytes
	}
	p.res.pits++
	ps.m[id] = p
	if cur := ps.shared[p.res.key]; cur == nil || cur.gen <= p.res.gen {
		ps.shared[p.res.key] = p.res
	}
	limit := ps.maxBytes
	if limit == 0 {
		limit = maxPitBytes
	}
	for len(ps.m) > maxPits || (ps.bytes > limit && len(ps.m) > 1) {
		first := ""
		for k, o := range ps.m {
			if k != id && (first == "" || o.expires.Before(ps.m[first].expires)) {
				first = k
			}
		}
		ps.close(first)
	}
}

// close closes the point in time id; ps.mu is held.
func (ps *pits) close(id string) {
	p := ps.m[id]
	delete(ps.m, id)
	if p.res.pits--; p.res.pits == 0 {
		ps.bytes -= p.res.bytes
		if ps.shared[p.res.key] == p.res {
			delete(ps.shared, p.res.key)
		}
	}
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
