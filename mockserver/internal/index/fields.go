package index

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// SearchField says where one field of an aspect goes in its entity's search
// document: a @Searchable annotation of DataHub's PDL, as package pdl
// resolves it.
type SearchField struct {
	// Aspect is the aspect's name ("globalTags").
	Aspect string
	// Path is the field's path in the aspect's JSON: "/tags/*/tag"; "*"
	// walks every array element or map value. A map at the end of the path
	// is indexed as "key=value" entries (customProperties).
	Path string
	// Name is the index field name (fieldName, else the PDL field name).
	Name string
	// Type is the fieldType (KEYWORD, TEXT, URN, BOOLEAN, ...).
	Type pdl.SearchFieldType
	// Facet is addToFilters: the field is aggregated by default.
	Facet bool
	// Default is queryByDefault: a free-text query matches the field.
	Default bool
	// Boost is boostScore.
	Boost float64
	// HasValues is the boolean field recording that the field has a value
	// ("hasDescription"), "" for none.
	HasValues string
	// Aliases are fieldNameAliases ("_entityName").
	Aliases []string
	// DisplayName is the facet's name (filterNameOverride, else Name).
	DisplayName string
}

// fieldInfo is what the search knows of an index field name across the
// annotations that fill it.
type fieldInfo struct {
	// Facet is set when any annotation of the name adds it to filters.
	Facet bool
	// Default and Boost are the first annotation's.
	Default     bool
	Boost       float64
	DisplayName string
}

// searchFacts are the searchable fields by aspect and what is known of each
// index field name, built from package pdl's facts on first use.
var searchFacts = sync.OnceValues(func() (map[string][]SearchField, map[string]fieldInfo) {
	byAspect := map[string][]SearchField{}
	infos := map[string]fieldInfo{}
	add := func(name string, fi fieldInfo) {
		old, ok := infos[name]
		if !ok {
			infos[name] = fi
			return
		}
		if fi.Facet && !old.Facet {
			old.Facet, old.DisplayName = true, fi.DisplayName
			infos[name] = old
		}
	}
	seen := map[string]bool{}
	for _, e := range pdl.Entities() {
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if seen[a] {
				continue
			}
			seen[a] = true
			for _, f := range pdl.SearchableFields(a) {
				sf := SearchField{Aspect: a, Path: f.Path, Name: f.FieldName, Type: f.FieldType, Facet: f.AddToFilters,
					Default: f.QueryByDefault, Boost: f.BoostScore, HasValues: f.HasValuesFieldName,
					Aliases: f.FieldNameAliases, DisplayName: f.FilterName()}
				if sf.Boost == 0 {
					sf.Boost = 1
				}
				byAspect[a] = append(byAspect[a], sf)
				fi := fieldInfo{Facet: sf.Facet, Default: sf.Default, Boost: sf.Boost, DisplayName: sf.DisplayName}
				add(sf.Name, fi)
				for _, alias := range sf.Aliases { // an alias is not a field of its own to query
					add(alias, fieldInfo{Boost: sf.Boost, DisplayName: alias})
				}
				if sf.HasValues != "" {
					add(sf.HasValues, fieldInfo{Boost: 1, DisplayName: sf.HasValues})
				}
			}
		}
	}
	return byAspect, infos
})

// SearchFields returns the searchable fields of an aspect.
func SearchFields(aspect string) []SearchField {
	m, _ := searchFacts()
	return m[aspect]
}

// fieldInfoOf returns what is known of an index field name.
func fieldInfoOf(name string) (fieldInfo, bool) {
	_, infos := searchFacts()
	fi, ok := infos[name]
	return fi, ok
}

// extract appends the index values of aspect's JSON to out, by field name.
// Malformed JSON indexes nothing (the core validated what it stored).
func extract(aspect string, raw json.RawMessage, out map[string][]string) {
	fields, edges, related := SearchFields(aspect), LineageEdges(aspect), relationshipPaths()[aspect]
	if len(fields) == 0 && len(edges) == 0 && len(related) == 0 {
		return
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return
	}
	for _, s := range fields {
		walk(v, strings.Split(strings.TrimPrefix(s.Path, "/"), "/"), "", func(val string) {
			out[s.Name] = append(out[s.Name], val)
			for _, a := range s.Aliases {
				out[a] = append(out[a], val)
			}
		})
	}
	for _, e := range edges {
		name := fieldDownstreams
		if e.Upstream {
			name = fieldUpstreams
		}
		walk(v, strings.Split(strings.TrimPrefix(e.Path, "/"), "/"), "", func(val string) {
			out[name] = append(out[name], val)
		})
		if e.Via != "" {
			extractVia(v, e, out)
		}
	}
	for _, p := range related {
		walk(v, strings.Split(strings.TrimPrefix(p, "/"), "/"), "", func(val string) {
			if strings.HasPrefix(val, "urn:li:") {
				out[fieldRelated] = append(out[fieldRelated], val)
			}
		})
	}
}

// extractVia appends "value\x00via" to out[fieldVia] for each element of
// the array the edge e and its via share ("upstreams/*") whose via is set.
func extractVia(v any, e LineageEdge, out map[string][]string) {
	path := strings.Split(strings.TrimPrefix(e.Path, "/"), "/")
	via := strings.Split(strings.TrimPrefix(e.Via, "/"), "/")
	star := slices.Index(path, "*")
	if star < 0 || len(via) <= star || !slices.Equal(path[:star+1], via[:star+1]) {
		return
	}
	var elems any = v
	for _, k := range path[:star] {
		m, ok := elems.(map[string]any)
		if !ok {
			return
		}
		elems = m[k]
	}
	list, _ := elems.([]any)
	for _, el := range list {
		var vals, vias []string
		walk(el, path[star+1:], "", func(s string) { vals = append(vals, s) })
		walk(el, via[star+1:], "", func(s string) { vias = append(vias, s) })
		if len(vias) == 0 {
			continue
		}
		for _, val := range vals {
			out[fieldVia] = append(out[fieldVia], val+"\x00"+vias[0])
		}
	}
}

// walk calls emit with the scalar values at path under v; mapKey is the key
// of the map entry v is ("" when v is not one), for "key=value".
func walk(v any, path []string, mapKey string, emit func(string)) {
	if len(path) == 0 || (len(path) == 1 && path[0] == "") {
		if m, ok := v.(map[string]any); ok && mapKey == "" { // a map indexed whole: its entries
			for k, e := range m {
				walk(e, nil, k, emit)
			}
			return
		}
		s, ok := scalar(v)
		if !ok {
			return
		}
		if mapKey != "" {
			s = mapKey + "=" + s
		}
		emit(s)
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if path[0] == "*" {
			for k, e := range x {
				walk(e, path[1:], k, emit)
			}
			return
		}
		if e, ok := x[path[0]]; ok {
			walk(e, path[1:], "", emit)
		}
	case []any:
		if path[0] == "*" {
			for _, e := range x {
				walk(e, path[1:], "", emit)
			}
		}
	}
}

func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		return x.String(), true
	}
	return "", false
}
