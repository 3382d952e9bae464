package index

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Search limits, DataHub's defaults (searchService.limit.results and
// Elasticsearch's index.max_result_window).
const (
	// DefaultLimit is the count used for a negative count or one above
	// [MaxCount] (ConfigUtils.applyLimit's apiDefault).
	DefaultLimit = 5000
	// MaxCount is the largest count served as asked.
	MaxCount = 10000
	// MaxWindow bounds start+count of an offset page.
	MaxWindow = 10000
	// DefaultMaxAggValues is the number of values per facet.
	DefaultMaxAggValues = 20
	// DefaultKeepAlive is a scroll's keep-alive when none is given.
	DefaultKeepAlive = 5 * time.Minute
	// MaxKeepAlive is the longest keep-alive of a scroll (Elasticsearch's
	// search.max_keep_alive default).
	MaxKeepAlive = 24 * time.Hour
	// MaxQueryLength is the longest free-text query, in UTF-16 code units
	// (DataHub's elasticsearch.search.validation.maxQueryLength default).
	MaxQueryLength = 500
)

// checkEvery is how many documents a search tests, or how many edges a
// lineage walk follows, between two looks at its context.
const checkEvery = 256

// Errors of a search, wrapped with details.
var (
	// ErrWindow is an offset page reaching past [MaxWindow].
	ErrWindow = errors.New("result window is too large")
	// ErrScrollID is a scroll id that cannot be decoded: DataHub's
	// IllegalStateException "Invalid scroll Id cannot be mapped", or
	// [ErrScrollBase64].
	ErrScrollID = errors.New("invalid scroll id")
	// ErrScrollBase64 is a scroll id that is not Base64 at all: the
	// IllegalArgumentException of Java's decoder, which DataHub does not
	// catch (so it is a bad request where an id that decodes to something
	// else is a server error). It wraps [ErrScrollID].
	ErrScrollBase64 = fmt.Errorf("%w: not base64", ErrScrollID)
	// ErrBadQuery is a query the index refuses (a bad criterion or
	// keep-alive, a query too long).
	ErrBadQuery = errors.New("bad search query")
	// ErrKeepAlive is a keep-alive above [MaxKeepAlive], which
	// Elasticsearch refuses when it opens or extends a point in time; it is
	// an [ErrBadQuery].
	ErrKeepAlive = fmt.Errorf("%w: keep-alive too large", ErrBadQuery)
)

// Query is one search over the entity indices.
type Query struct {
	// Types are the registry entity names searched (nil: every entity
	// index; empty, not nil: none).
	Types []string
	// Text is the free-text query; "" or "*" matches every document.
	Text string
	// Structured reads Text as DataHub's structured search does (an
	// Elasticsearch query_string: boolean operators, field queries, ranges,
	// escapes, wildcards, quoted phrases), as does a text starting with
	// "\/q "; otherwise Text is a simple_query_string (see parseQuery).
	Structured bool
	// Filter restricts the documents.
	Filter Filter
	// IncludeSoftDeleted keeps entities whose status is removed; otherwise
	// they are left out unless a criterion names the removed field.
	IncludeSoftDeleted bool
	// Start and Count select an offset page. Count is clamped as DataHub
	// does: negative or above [MaxCount] → [DefaultLimit].
	Start, Count int
	// Facets names the fields to aggregate; nil aggregates every facet
	// field of the searched types and _entityType.
	Facets []string
	// SkipAggregates computes no facets.
	SkipAggregates bool
	// MaxAggValues bounds the values per facet (≤ 0: the default 20).
	MaxAggValues int
	// WithAspects has the page's hits carry their documents' aspects (see
	// Hit.Aspects and Result.Current).
	WithAspects bool
}

// Hit is one result.
type Hit struct {
	URN string
	// Entity is the registry entity name.
	Entity string
	// Score is the relevance score (1 for a query matching everything).
	Score float64
	// Matched are the default-query fields the text matched, by name, with
	// the values that matched.
	Matched []MatchedField
	// Degree is a lineage hit's number of hops from the walk's start (the
	// fewest); 0 for a search hit.
	Degree int
	// Paths are a lineage hit's shortest paths, each from the walk's start
	// to the hit.
	Paths [][]string
	// Aspects are the latest aspects of the hit's entity document, by name,
	// when the query asked for them (Query.WithAspects); shared, never to be
	// modified.
	Aspects map[string]json.RawMessage
}

// MatchedField is one field a free-text query matched.
type MatchedField struct{ Name, Value string }

// Facet is one aggregated field.
type Facet struct {
	Field, DisplayName string
	// Values are by count, most first, then by value.
	Values []FacetValue
}

// FacetValue is one value of a facet and the number of results with it.
type FacetValue struct {
	Value string
	Count int
}

// Result is one page.
type Result struct {
	Start, Total int
	// PageSize is DataHub's pageSize (GraphQL's count): the clamped count of
	// an offset page, min(count, total) for a scroll page.
	PageSize int
	Hits     []Hit
	Facets   []Facet
	// NextScrollID continues a scroll; "" when the page was not full.
	NextScrollID string
	// Current is set, for a query WithAspects, when the index had applied
	// every change the store committed (none waiting, none dropped) as it
	// gave the hits their aspects: they are then the store's latest.
	Current bool
}

// ClampCount applies DataHub's count limit: negative or above [MaxCount]
// gives [DefaultLimit].
func ClampCount(n int) int {
	if n < 0 || n > MaxCount {
		return DefaultLimit
	}
	return n
}

// Search answers an offset query, as [Index.SearchContext] with a context
// that is never cancelled.
func (x *Index) Search(q Query) (Result, error) {
	return x.SearchContext(context.Background(), q)
}

// SearchContext answers an offset query. A page reaching past [MaxWindow]
// is refused with [ErrWindow], as Elasticsearch refuses from+size beyond
// its result window. A negative start with some hit fails as DataHub's
// paging does (its batches are cut at the start); with none it gives an
// empty page. The search stops with ctx's error once ctx is done.
func (x *Index) SearchContext(ctx context.Context, q Query) (Result, error) {
	q.Count = ClampCount(q.Count)
	if q.Start+q.Count > MaxWindow {
		return Result{}, fmt.Errorf("%w: from + size must be less than or equal to: [%d] but was [%d]",
			ErrWindow, MaxWindow, q.Start+q.Count)
	}
	hits, facets, _, err := x.evaluate(ctx, q)
	if err != nil {
		return Result{}, err
	}
	if q.Start < 0 {
		if len(hits) > 0 {
			return Result{}, fmt.Errorf("fromIndex = %d", q.Start)
		}
		return Result{Start: q.Start, PageSize: q.Count, Facets: facets}, nil
	}
	page := hits[min(q.Start, len(hits)):]
	page = page[:min(q.Count, len(page))]
	res := Result{Start: q.Start, Total: len(hits), PageSize: q.Count, Hits: slices.Clone(page), Facets: facets}
	x.withAspects(q, &res)
	return res, nil
}

// checkQueryLength refuses a free-text query longer than [MaxQueryLength]
// UTF-16 code units, with DataHub's message.
func checkQueryLength(text string) error {
	n := 0
	for _, r := range text {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	if n > MaxQueryLength {
		return fmt.Errorf("%w: Search query exceeds maximum length of %d characters", ErrBadQuery, MaxQueryLength)
	}
	return nil
}

// evaluate evaluates q over the indices: every matching hit in order (score
// descending, then URN), the facets and the generation of the index they
// were computed at. It stops with ctx's error once ctx is done.
func (x *Index) evaluate(ctx context.Context, q Query) ([]Hit, []Facet, uint64, error) {
	if err := checkQueryLength(q.Text); err != nil {
		return nil, nil, 0, err
	}
	for _, clause := range q.Filter {
		for _, c := range clause {
			if err := c.check(); err != nil {
				return nil, nil, 0, fmt.Errorf("%w: %v", ErrBadQuery, err)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, 0, err
	}
	terms, err := parseQuery(q.Text, q.Structured)
	if err != nil {
		return nil, nil, 0, err
	}
	q.Filter = q.Filter.prepared()
	dropRemoved := !q.IncludeSoftDeleted && !q.Filter.namesRemoved()
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	var hits []Hit
	var matched []*searchDoc
	var stop error
	tested := 0
	test := func(d *searchDoc) bool {
		tested++
		if tested%checkEvery == 0 {
			if stop = ctx.Err(); stop != nil {
				return false
			}
		}
		if dropRemoved && slices.Contains(d.fields["removed"], "true") {
			return true
		}
		if !q.Filter.match(d) {
			return true
		}
		score, mf, ok := terms.score(d)
		if !ok {
			return true
		}
		hits = append(hits, Hit{URN: d.urn, Entity: d.entity, Score: score, Matched: mf})
		matched = append(matched, d)
		return true
	}
	for _, s := range x.searchIndices(q.Types) {
		if urns, all := s.candidateURNs(q.Filter); all {
			for _, d := range s.docs {
				if !test(d) {
					break
				}
			}
		} else {
			for u := range urns {
				if !test(s.docs[u]) {
					break
				}
			}
		}
		if stop != nil {
			break
		}
	}
	x.tested += tested
	if stop != nil {
		return nil, nil, 0, stop
	}
	sorted, docs := sortHits(hits, matched)
	var facets []Facet
	if !q.SkipAggregates {
		facets = aggregate(q, docs)
	}
	return sorted, facets, x.gen, nil
}

// sortHits orders hits by compareHits, and their documents with them.
func sortHits(hits []Hit, docs []*searchDoc) ([]Hit, []*searchDoc) {
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return compareHits(hits[a], hits[b]) })
	sortedHits := make([]Hit, len(hits))
	sortedDocs := make([]*searchDoc, len(hits))
	for i, j := range order {
		sortedHits[i], sortedDocs[i] = hits[j], docs[j]
	}
	return sortedHits, sortedDocs
}

// compareHits orders by degree (lineage), then score, highest first, then
// URN.
func compareHits(a, b Hit) int {
	if c := cmp.Compare(a.Degree, b.Degree); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return strings.Compare(a.URN, b.URN)
}

// flushSearch indexes the documents written since the last search, in
// every entity index; x.mu is held.
func (x *Index) flushSearch() {
	for _, i := range x.indices {
		if i.search != nil && len(i.search.pending) > 0 {
			x.gen++
			i.search.flush()
		}
	}
}

// searchIndices returns the search sides of the entity indices of types
// (all when nil), by name, with their pending documents indexed; x.mu is
// held.
func (x *Index) searchIndices(types []string) []*searchIdx {
	x.flushSearch()
	var out []*searchIdx
	if types == nil {
		names := make([]string, 0, len(x.indices))
		for n, i := range x.indices {
			if i.search != nil {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		for _, n := range names {
			out = append(out, x.indices[n].search)
		}
		return out
	}
	seen := map[string]bool{}
	for _, t := range types {
		if i := x.indices[EntityIndexName(t)]; i != nil && i.search != nil && !seen[t] {
			seen[t] = true
			out = append(out, i.search)
		}
	}
	return out
}

// candidateURNs returns the URNs of s that may match f (the union over its
// clauses), or all = true when some clause needs every document tested.
func (s *searchIdx) candidateURNs(f Filter) (map[string]struct{}, bool) {
	if len(f) == 0 {
		return nil, true
	}
	out := map[string]struct{}{}
	for _, clause := range f {
		sets, all := s.candidates(clause)
		if all {
			return nil, true
		}
		for _, set := range sets {
			for u := range set {
				out[u] = struct{}{}
			}
		}
	}
	return out, false
}

// aggregate counts the facet values over the matched documents.
func aggregate(q Query, docs []*searchDoc) []Facet {
	fields := q.Facets
	if fields == nil {
		fields = defaultFacets(docs)
	}
	maxVals := q.MaxAggValues
	if maxVals <= 0 {
		maxVals = DefaultMaxAggValues
	}
	var out []Facet
	for _, f := range fields {
		f = strings.TrimSuffix(f, ".keyword")
		counts := map[string]int{}
		for _, d := range docs {
			if f == "_entityType" {
				counts[d.entity]++
				continue
			}
			for _, v := range d.fields[f] {
				counts[v]++
			}
		}
		if len(counts) == 0 {
			continue
		}
		vals := make([]FacetValue, 0, len(counts))
		for v, n := range counts {
			vals = append(vals, FacetValue{Value: v, Count: n})
		}
		slices.SortFunc(vals, func(a, b FacetValue) int {
			if c := cmp.Compare(b.Count, a.Count); c != 0 {
				return c
			}
			return strings.Compare(a.Value, b.Value)
		})
		display := "Type"
		if f != "_entityType" {
			display = f
			if fi, ok := fieldInfoOf(f); ok {
				display = fi.DisplayName
			}
		}
		out = append(out, Facet{Field: f, DisplayName: display, Values: vals[:min(len(vals), maxVals)]})
	}
	return out
}

// defaultFacets are _entityType and every facet field (one that some
// annotation adds to filters) the documents have, by name.
func defaultFacets(docs []*searchDoc) []string {
	seen := map[string]bool{}
	for _, d := range docs {
		for k := range d.fields {
			if fi, ok := fieldInfoOf(k); ok && fi.Facet {
				seen[k] = true
			}
		}
	}
	out := make([]string, 0, len(seen)+1)
	for k := range seen {
		out = append(out, k)
	}
	slices.Sort(out)
	return append([]string{"_entityType"}, out...)
}

// scrollID is the decoded scroll id, DataHub's SearchAfterWrapper: the last
// hit's sort values, the point in time and when it expires (ms, server
// clock).
type scrollID struct {
	Sort           []any   `json:"sort"`
	PitID          *string `json:"pitId"`
	ExpirationTime int64   `json:"expirationTime"`
}

func encodeScrollID(s scrollID) string {
	b, _ := json.Marshal(s)
	return base64.StdEncoding.EncodeToString(b)
}

func decodeScrollID(id string) (scrollID, error) {
	var s scrollID
	b, err := DecodeBase64(id)
	if err != nil {
		return scrollID{}, err
	}
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	err = d.Decode(&s)
	if err != nil || (len(s.Sort) != 2 && len(s.Sort) != 3) {
		return scrollID{}, fmt.Errorf("%w: Invalid scroll Id cannot be mapped: %s", ErrScrollID, id)
	}
	return s, nil
}

// DecodeBase64 decodes a scroll id as DataHub does, with Java's basic
// Base64 decoder: the standard alphabet, padding optional. A failure wraps
// [ErrScrollBase64] with Java's message ("Illegal base64 character 5f").
func DecodeBase64(id string) ([]byte, error) {
	fail := func(format string, args ...any) ([]byte, error) {
		return nil, fmt.Errorf("%w: "+format, append([]any{ErrScrollBase64}, args...)...)
	}
	if len(id) == 1 {
		return fail("Input byte[] should at least have 2 bytes for base64 bytes")
	}
	data := id
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c != '=' {
			if strings.IndexByte(base64Std, c) < 0 {
				return fail("Illegal base64 character %s", strconv.FormatInt(int64(int8(c)), 16))
			}
			continue
		}
		// Padding ends the data: one "=" after three symbols of a unit, two
		// after two; after one, the unit lacks bits (below).
		data = id[:i]
		end := i + 1
		switch i % 4 {
		case 0:
			return fail("Input byte array has wrong 4-byte ending unit")
		case 2:
			if end == len(id) || id[end] != '=' {
				return fail("Input byte array has wrong 4-byte ending unit")
			}
			end++
		}
		if i%4 != 1 && end < len(id) {
			return fail("Input byte array has incorrect ending byte at %d", end)
		}
		break
	}
	if len(data)%4 == 1 {
		return fail("Last unit does not have enough valid bits")
	}
	// Java ignores the unused bits of the last symbol, as Go's non-strict
	// decoder does.
	return base64.RawStdEncoding.DecodeString(data)
}

const base64Std = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

// keepAliveLimit ends Elasticsearch's message for a keep-alive above
// [MaxKeepAlive].
const keepAliveLimit = "It must be less than (1d). This limit can be set by changing the [search.max_keep_alive] cluster level setting."

// ParseKeepAlive reads an Elasticsearch time value ("5m", "30s", "1h",
// "500ms", "1d"); "" is [DefaultKeepAlive]. One above [MaxKeepAlive] is
// refused with [ErrKeepAlive] and Elasticsearch's message.
func ParseKeepAlive(s string) (time.Duration, error) {
	if s == "" {
		return DefaultKeepAlive, nil
	}
	units := []struct {
		suffix string
		d      time.Duration
	}{{"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}, {"h", time.Hour}, {"d", 24 * time.Hour}}
	for _, u := range units {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil && v >= 0 {
				if v > int64(MaxKeepAlive/u.d) || time.Duration(v)*u.d > MaxKeepAlive {
					return 0, fmt.Errorf("%w: Keep alive for request (%s) is too large. %s", ErrKeepAlive, s, keepAliveLimit)
				}
				return time.Duration(v) * u.d, nil
			}
		}
	}
	return 0, fmt.Errorf("%w: failed to parse keep-alive %q", ErrBadQuery, s)
}
