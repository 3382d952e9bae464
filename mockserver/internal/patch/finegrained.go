package patch

import (
	"encoding/json"
	"strconv"
	"strings"
)

// upstreamLineage.fineGrainedLineages is keyed as DataHub's
// FineGrainedLineageTemplateHelper keys it:
//
//	/fineGrainedLineages/<transformOperation>/<downstream>/<query>/<upstream>
//
// with {"confidenceScore", "upstreamType", "downstreamType"} at the leaf.
// A missing transformOperation or query is "NONE"; a lineage must have
// exactly one downstream.

const (
	fglNone        = "NONE"
	fglDataset     = "DATASET"
	fglFieldSet    = "FIELD_SET"
	fglField       = "FIELD"
	fglDefaultConf = "1.0"
)

// fineGrainedToMap turns the fineGrainedLineages array of o into the map.
func fineGrainedToMap(o *object) error {
	m := newObject()
	a, _ := o.vals["fineGrainedLineages"].(*array)
	if a != nil {
		for _, e := range a.elems {
			l, ok := e.(*object)
			if !ok {
				return failf(ErrBadAspect, "a fine-grained lineage is not an object")
			}
			transform := textOr(l, "transformOperation", fglNone)
			downs, _ := l.vals["downstreams"].(*array)
			if downs == nil || len(downs.elems) != 1 {
				return failf(ErrBadAspect, "patching fine-grained lineages needs exactly one downstream per lineage")
			}
			conf := fglDefaultConf
			if n, ok := l.vals["confidenceScore"].(json.Number); ok {
				conf = floatText(string(n))
			}
			ups, _ := l.vals["upstreams"].(*array)
			upType, hasUp := l.vals["upstreamType"].(string)
			if !hasUp {
				upType = fglFieldSet
				if ups != nil && len(ups.elems) > 0 && entityType(asText(ups.elems[0])) == "dataset" {
					upType = fglDataset
				}
			}
			downType, hasDown := l.vals["downstreamType"].(string)
			if !hasDown {
				downType = fglField
			}
			query := textOr(l, "query", fglNone)
			node := childObject(childObject(childObject(m, transform), asText(downs.elems[0])), query)
			if ups != nil {
				for _, u := range ups.elems {
					leaf := newObject()
					leaf.set("confidenceScore", json.Number(conf))
					leaf.set("upstreamType", upType)
					leaf.set("downstreamType", downType)
					node.set(asText(u), leaf)
				}
			}
		}
	}
	o.set("fineGrainedLineages", m)
	return nil
}

// fineGrainedToArray rebuilds the array from the map: one lineage per
// (transform, downstream, query) with upstreams left, its confidence the
// lowest of its upstreams'.
func fineGrainedToArray(o *object) error {
	v := o.vals["fineGrainedLineages"]
	switch v.(type) {
	case *array:
		return nil
	case nil:
		o.set("fineGrainedLineages", &array{elems: []any{}})
		return nil
	}
	m, ok := v.(*object)
	if !ok {
		return failf(ErrBadAspect, "fineGrainedLineages is neither a map nor an array")
	}
	out := &array{elems: []any{}}
	for _, transform := range m.keys {
		downs, ok := m.vals[transform].(*object)
		if !ok {
			return failf(ErrBadAspect, "fineGrainedLineages/"+transform+" is not an object")
		}
		for _, down := range downs.keys {
			queries, ok := downs.vals[down].(*object)
			if !ok {
				return failf(ErrBadAspect, "fineGrainedLineages/"+transform+"/"+down+" is not an object")
			}
			for _, query := range queries.keys {
				ups, ok := queries.vals[query].(*object)
				if !ok {
					return failf(ErrBadAspect, "a fine-grained lineage query entry is not an object")
				}
				if len(ups.keys) == 0 {
					continue
				}
				minConf, minText := 1.0, fglDefaultConf
				upType, downType := fglFieldSet, fglField
				upList := &array{}
				for _, up := range ups.keys {
					leaf, ok := ups.vals[up].(*object)
					if !ok {
						return failf(ErrBadAspect, "a fine-grained upstream entry is not an object")
					}
					if n, ok := leaf.vals["confidenceScore"].(json.Number); ok {
						if f, err := strconv.ParseFloat(string(n), 32); err == nil && f <= minConf {
							minConf, minText = f, floatText(string(n))
						}
					}
					if _, ok := leaf.vals["upstreamType"]; ok {
						upType = asText(leaf.vals["upstreamType"])
					}
					if _, ok := leaf.vals["downstreamType"]; ok {
						downType = asText(leaf.vals["downstreamType"])
					}
					upList.elems = append(upList.elems, up)
				}
				l := newObject()
				l.set("downstreams", &array{elems: []any{down}})
				l.set("upstreams", upList)
				if strings.TrimSpace(query) != "" && query != fglNone {
					l.set("query", query)
				}
				l.set("upstreamType", upType)
				l.set("downstreamType", downType)
				l.set("confidenceScore", json.Number(minText))
				l.set("transformOperation", transform)
				out.elems = append(out.elems, l)
			}
		}
	}
	o.set("fineGrainedLineages", out)
	return nil
}

func textOr(o *object, k, def string) string {
	if v, ok := o.get(k); ok {
		return asText(v)
	}
	return def
}

func childObject(o *object, k string) *object {
	if c, ok := o.vals[k].(*object); ok {
		return c
	}
	c := newObject()
	o.set(k, c)
	return c
}

// floatText writes a number as Java writes the float DataHub keeps it as
// (1 as "1.0").
func floatText(s string) string {
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return s
	}
	t := strconv.FormatFloat(f, 'f', -1, 32)
	if !strings.ContainsAny(t, ".eE") {
		t += ".0"
	}
	return t
}

// entityType returns the entity type of an URN, "" when it is not one.
func entityType(u string) string {
	rest, ok := strings.CutPrefix(u, "urn:li:")
	if !ok {
		return ""
	}
	t, _, _ := strings.Cut(rest, ":")
	return t
}
