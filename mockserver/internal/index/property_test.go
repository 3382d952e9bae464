package index

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// modelEntity is what the property test wrote of one entity: the fields a
// filter can name, by hand from the generator, not through the index.
type modelEntity struct {
	urn, entity string
	fields      map[string][]string
	removed     bool
	upstreams   []string // lineage: the entities this one names as upstreams
	downstreams []string // ... and as downstreams (a model's groups)
}

// randomCatalog writes a random catalog to st and returns its model.
func randomCatalog(t *testing.T, r *rand.Rand, put func(urn, aspect string, v any)) []*modelEntity {
	t.Helper()
	platforms := []string{"hive", "s3", "mlflow"}
	tags := []string{"urn:li:tag:pii", "urn:li:tag:gold", "urn:li:tag:Raw"}
	owners := []string{"urn:li:corpuser:ann", "urn:li:corpGroup:ml"}
	var out []*modelEntity
	var datasets, features, groups []string
	pick := func(from []string, max int) []string {
		var got []string
		for _, v := range from {
			if len(got) < max && r.IntN(3) == 0 {
				got = append(got, v)
			}
		}
		return got
	}
	common := func(e *modelEntity) {
		if ts := pick(tags, 3); len(ts) > 0 {
			var assoc []map[string]string
			for _, tg := range ts {
				assoc = append(assoc, map[string]string{"tag": tg})
			}
			put(e.urn, "globalTags", map[string]any{"tags": assoc})
			e.fields["tags"] = ts
		}
		if os := pick(owners, 2); len(os) > 0 {
			var list []map[string]string
			for _, o := range os {
				list = append(list, map[string]string{"owner": o, "type": "DATAOWNER"})
			}
			put(e.urn, "ownership", map[string]any{"owners": list, "lastModified": map[string]any{"time": 0, "actor": "urn:li:corpuser:x"}})
			e.fields["owners"] = os
		}
		if r.IntN(3) > 0 {
			e.removed = r.IntN(4) == 0
			put(e.urn, "status", map[string]any{"removed": e.removed})
			e.fields["removed"] = []string{strconv.FormatBool(e.removed)}
		}
	}
	props := func() map[string]string {
		m := map[string]string{}
		if r.IntN(2) == 0 {
			m["team"] = []string{"ml", "bi", "ops"}[r.IntN(3)]
		}
		if r.IntN(2) == 0 {
			m["tier"] = strconv.Itoa(r.IntN(12))
		}
		return m
	}
	propValues := func(m map[string]string) []string {
		var out []string
		for k, v := range m {
			out = append(out, k+"="+v)
		}
		return out
	}
	for i := range 5 + r.IntN(8) { // model groups
		p := platforms[r.IntN(len(platforms))]
		u := fmt.Sprintf("urn:li:mlModelGroup:(urn:li:dataPlatform:%s,g%d,PROD)", p, i)
		e := &modelEntity{urn: u, entity: "mlModelGroup", fields: map[string][]string{
			"platform": {"urn:li:dataPlatform:" + p}, "id": {fmt.Sprintf("g%d", i)}, "origin": {"PROD"}}}
		put(u, "mlModelGroupKey", map[string]any{"platform": "urn:li:dataPlatform:" + p, "name": fmt.Sprintf("g%d", i), "origin": "PROD"})
		common(e)
		out, groups = append(out, e), append(groups, u)
	}
	for i := range 10 + r.IntN(20) {
		p := platforms[r.IntN(len(platforms))]
		name := fmt.Sprintf("Orders_%d", i)
		u := fmt.Sprintf("urn:li:dataset:(urn:li:dataPlatform:%s,%s,PROD)", p, name)
		e := &modelEntity{urn: u, entity: "dataset", fields: map[string][]string{
			"platform": {"urn:li:dataPlatform:" + p}, "id": {name}, "origin": {"PROD"}}}
		put(u, "datasetKey", map[string]any{"platform": "urn:li:dataPlatform:" + p, "name": name, "origin": "PROD"})
		pr := props()
		put(u, "datasetProperties", map[string]any{"name": strings.ToLower(name), "customProperties": pr})
		e.fields["name"] = []string{strings.ToLower(name)}
		if pv := propValues(pr); len(pv) > 0 {
			e.fields["customProperties"] = pv
		}
		if ups := pick(datasets, 3); len(ups) > 0 {
			var list []map[string]any
			for _, up := range ups {
				list = append(list, map[string]any{"dataset": up, "type": "COPY", "auditStamp": map[string]any{"time": 0, "actor": "urn:li:corpuser:x"}})
			}
			put(u, "upstreamLineage", map[string]any{"upstreams": list})
			e.upstreams = ups
		}
		common(e)
		out, datasets = append(out, e), append(datasets, u)
	}
	for i := range 10 + r.IntN(20) {
		name := fmt.Sprintf("f%d", i)
		u := fmt.Sprintf("urn:li:mlFeature:(users,%s)", name)
		e := &modelEntity{urn: u, entity: "mlFeature", fields: map[string][]string{"name": {name}}}
		put(u, "mlFeatureKey", map[string]any{"featureNamespace": "users", "name": name})
		srcs := pick(datasets, 2)
		put(u, "mlFeatureProperties", map[string]any{"sources": srcs})
		e.upstreams = srcs
		common(e)
		out, features = append(out, e), append(features, u)
	}
	for i := range 5 + r.IntN(10) {
		p := platforms[r.IntN(len(platforms))]
		u := fmt.Sprintf("urn:li:mlModel:(urn:li:dataPlatform:%s,m%d,PROD)", p, i)
		e := &modelEntity{urn: u, entity: "mlModel", fields: map[string][]string{
			"platform": {"urn:li:dataPlatform:" + p}, "id": {fmt.Sprintf("m%d", i)}, "origin": {"PROD"}}}
		put(u, "mlModelKey", map[string]any{"platform": "urn:li:dataPlatform:" + p, "name": fmt.Sprintf("m%d", i), "origin": "PROD"})
		fs, gs := pick(features, 3), pick(groups, 1)
		pr := props()
		put(u, "mlModelProperties", map[string]any{"mlFeatures": fs, "groups": gs, "customProperties": pr})
		if pv := propValues(pr); len(pv) > 0 {
			e.fields["customProperties"] = pv
		}
		e.upstreams, e.downstreams = fs, gs
		common(e)
		out = append(out, e)
	}
	return out
}

// randomFilter draws a filter over the model's fields.
func randomFilter(r *rand.Rand) Filter {
	values := map[string][]string{
		"tags":             {"urn:li:tag:pii", "urn:li:tag:gold", "urn:li:tag:Raw", "urn:li:tag:none"},
		"owners":           {"urn:li:corpuser:ann", "urn:li:corpGroup:ml"},
		"customProperties": {"team=ml", "team=bi", "tier=3", "tier=10", "tier="},
		"platform.keyword": {"urn:li:dataPlatform:hive", "urn:li:dataPlatform:s3", "urn:li:dataPlatform:mlflow"},
		"_entityType":      {"DATASET", "mlFeature", "MLMODEL", "MLMODEL_GROUP", "DATA_JOB"},
		"name":             {"orders_1", "ORD", "_1", "f1", "1"},
		"id":               {"Orders_2", "m1"},
		"removed":          {"true", "false"},
		"origin":           {"PROD", "DEV"},
	}
	fields := []string{"tags", "owners", "customProperties", "platform.keyword", "_entityType", "name", "id", "removed", "origin"}
	conds := []string{CondEqual, "", CondIn, CondContain, CondStartWith, CondEndWith, CondExists, CondIEqual,
		CondGreater, CondLessOrEqual}
	var f Filter
	for range 1 + r.IntN(3) {
		var clause []Criterion
		for range r.IntN(4) {
			field := fields[r.IntN(len(fields))]
			c := Criterion{Field: field, Condition: conds[r.IntN(len(conds))], Negated: r.IntN(3) == 0}
			vs := values[field]
			for range r.IntN(3) {
				c.Values = append(c.Values, vs[r.IntN(len(vs))])
			}
			if (c.Condition == CondGreater || c.Condition == CondLessOrEqual) && len(c.Values) == 0 {
				c.Values = []string{vs[0]}
			}
			clause = append(clause, c)
		}
		f = append(f, clause)
	}
	return f
}

// bruteMatch is the filter semantics written out on the model.
func bruteMatch(f Filter, e *modelEntity, includeRemoved bool) bool {
	namesRemoved := false
	for _, cl := range f {
		for _, c := range cl {
			namesRemoved = namesRemoved || strings.TrimSuffix(c.Field, ".keyword") == "removed"
		}
	}
	if e.removed && !includeRemoved && !namesRemoved {
		return false
	}
	if len(f) == 0 {
		return true
	}
	norm := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	for _, cl := range f {
		ok := true
		for _, c := range cl {
			if len(c.Values) == 0 && c.Condition != CondExists {
				continue
			}
			field := strings.TrimSuffix(c.Field, ".keyword")
			have := e.fields[field]
			if field == "_entityType" {
				have = []string{norm(e.entity)}
			}
			m := false
			switch c.Condition {
			case CondExists:
				m = len(have) > 0
			case CondGreater, CondLessOrEqual:
				for _, h := range have {
					hf, err1 := strconv.ParseFloat(h, 64)
					wf, err2 := strconv.ParseFloat(c.Values[0], 64)
					var cmpv int
					if err1 == nil && err2 == nil {
						cmpv = map[bool]int{true: -1, false: 0}[hf < wf] + map[bool]int{true: 1, false: 0}[hf > wf]
					} else {
						cmpv = strings.Compare(h, c.Values[0])
					}
					m = m || (c.Condition == CondGreater && cmpv > 0) || (c.Condition == CondLessOrEqual && cmpv <= 0)
				}
			default:
				for _, h := range have {
					for _, v := range c.Values {
						if field == "_entityType" {
							v = norm(v)
						}
						lh, lv := strings.ToLower(h), strings.ToLower(v)
						switch c.Condition {
						case CondContain:
							m = m || strings.Contains(lh, lv)
						case CondStartWith:
							m = m || strings.HasPrefix(lh, lv)
						case CondEndWith:
							m = m || strings.HasSuffix(lh, lv)
						case CondIEqual:
							m = m || lh == lv
						default:
							m = m || h == v
						}
					}
				}
			}
			if m == c.Negated {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// bruteBFS is the lineage walk written out on the model: fewest hops,
// soft-deleted entities neither reached nor walked through.
func bruteBFS(model []*modelEntity, src string, upstream bool, maxHops int) map[string]int {
	byURN := map[string]*modelEntity{}
	next := map[string][]string{}
	for _, e := range model {
		byURN[e.urn] = e
	}
	for _, e := range model {
		for _, u := range e.upstreams {
			if upstream {
				next[e.urn] = append(next[e.urn], u)
			} else {
				next[u] = append(next[u], e.urn)
			}
		}
		for _, d := range e.downstreams {
			if upstream {
				next[d] = append(next[d], e.urn)
			} else {
				next[e.urn] = append(next[e.urn], d)
			}
		}
	}
	deg := map[string]int{src: 0}
	frontier := []string{src}
	for hop := 1; hop <= maxHops && len(frontier) > 0; hop++ {
		var nf []string
		for _, u := range frontier {
			for _, v := range next[u] {
				if _, seen := deg[v]; seen || (byURN[v] != nil && byURN[v].removed) {
					continue
				}
				deg[v] = hop
				nf = append(nf, v)
			}
		}
		frontier = nf
	}
	delete(deg, src)
	return deg
}

// TestSearchAndLineageMatchBruteForce checks search against a brute-force
// filter of what was written, for random catalogs and filters, and lineage
// against a brute-force breadth-first walk.
func TestSearchAndLineageMatchBruteForce(t *testing.T) {
	t.Parallel()
	for seed := range uint64(12) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(seed, 17))
			st, x, _ := newTest(t, 0)
			model := randomCatalog(t, r, func(u, aspect string, v any) {
				b, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				put(t, st, u, aspect, string(b))
			})
			slices.SortFunc(model, func(a, b *modelEntity) int { return strings.Compare(a.urn, b.urn) })
			for i := range 60 {
				f := randomFilter(r)
				include := r.IntN(4) == 0
				want := []string{}
				for _, e := range model {
					if bruteMatch(f, e, include) {
						want = append(want, e.urn)
					}
				}
				res, err := x.Search(Query{Filter: f, IncludeSoftDeleted: include, Count: 1000})
				if err != nil {
					t.Fatal(err)
				}
				if d := cmp.Diff(want, urnsOf(res)); d != "" {
					t.Fatalf("filter %d %+v (include soft-deleted %v): -brute +search\n%s", i, f, include, d)
				}
				// The same by scroll, in pages of a random size.
				var scrolled []string
				id, size := "", 1+r.IntN(7)
				for {
					p, err := x.Scroll(Query{Filter: f, IncludeSoftDeleted: include, Count: size, SkipAggregates: true}, id, "")
					if err != nil {
						t.Fatal(err)
					}
					scrolled = append(scrolled, urnsOf(p)...)
					if id = p.NextScrollID; id == "" {
						break
					}
				}
				if d := cmp.Diff(want, scrolled); len(want) > 0 && d != "" {
					t.Fatalf("scroll of filter %d: -search +scroll\n%s", i, d)
				}
			}
			for i := range 30 {
				src := model[r.IntN(len(model))].urn
				upstream := r.IntN(2) == 0
				hops := 1 + r.IntN(4)
				degs := map[int][]string{1: {"1"}, 2: {"1", "2"}}[hops]
				if hops > 2 {
					degs, hops = []string{"1", "2", "3+"}, MaxLineageHops
				}
				want := bruteBFS(model, src, upstream, hops)
				res, err := x.SearchLineage(LineageQuery{URN: src, Upstream: upstream,
					Query: Query{Count: 1000, Filter: Filter{{{Field: "degree", Values: degs}}}}})
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]int{}
				for _, h := range res.Hits {
					got[h.URN] = h.Degree
					for _, p := range h.Paths {
						if len(p) != h.Degree+1 || p[0] != src || p[len(p)-1] != h.URN {
							t.Fatalf("walk %d: path %v of %s at degree %d", i, p, h.URN, h.Degree)
						}
					}
				}
				if d := cmp.Diff(want, got); d != "" {
					t.Fatalf("walk %d from %s (upstream %v, %d hops): -brute +index\n%s", i, src, upstream, hops, d)
				}
			}
		})
	}
}
