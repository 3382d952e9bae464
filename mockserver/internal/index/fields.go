package index

import (
	"encoding/json"
	"strconv"
	"strings"
)

// FieldType is a @Searchable fieldType: how a field is indexed and matched.
type FieldType string

// The field types the search uses. Others index as [Keyword].
const (
	Keyword     FieldType = "KEYWORD"
	Text        FieldType = "TEXT"
	TextPartial FieldType = "TEXT_PARTIAL"
	WordGram    FieldType = "WORD_GRAM"
	URN         FieldType = "URN"
	Boolean     FieldType = "BOOLEAN"
	Count       FieldType = "COUNT"
	Datetime    FieldType = "DATETIME"
	BrowsePath2 FieldType = "BROWSE_PATH_V2"
)

// SearchField says where one field of an aspect goes in its entity's search
// document, as a @Searchable annotation does.
type SearchField struct {
	// Aspect is the aspect's name ("globalTags").
	Aspect string
	// Path is the field's path in the aspect's JSON, PDL path-annotation
	// style: "/tags/*/tag"; "*" walks every array element, or every entry of
	// a map, indexed as "key=value".
	Path string
	// Name is the index field name (fieldName, else the PDL field name).
	Name string
	// Type is the fieldType.
	Type FieldType
	// Facet is addToFilters: the field is aggregated by default.
	Facet bool
	// Default is queryByDefault: a free-text query matches the field.
	Default bool
	// Boost is boostScore (0 reads as 1).
	Boost float64
	// HasValues is the boolean field recording that the field has a value
	// ("hasDescription"), "" for none.
	HasValues string
	// Aliases are fieldNameAliases ("_entityName").
	Aliases []string
	// DisplayName is filterNameOverride ("" : the field name).
	DisplayName string
}

// queryDefault reports DataHub's queryByDefault default for a field type.
func queryDefault(t FieldType) bool {
	switch t {
	case Text, TextPartial, WordGram, URN, "URN_PARTIAL":
		return true
	}
	return false
}

// f is a table row with DataHub's defaults for queryByDefault and boost.
func f(aspect, path, name string, t FieldType) SearchField {
	return SearchField{Aspect: aspect, Path: path, Name: name, Type: t, Default: queryDefault(t), Boost: 1}
}

func (s SearchField) facet(display string) SearchField {
	s.Facet, s.DisplayName = true, display
	return s
}
func (s SearchField) boost(b float64) SearchField       { s.Boost = b; return s }
func (s SearchField) hasValues(name string) SearchField { s.HasValues = name; return s }
func (s SearchField) byDefault(on bool) SearchField     { s.Default = on; return s }
func (s SearchField) alias(names ...string) SearchField { s.Aliases = names; return s }

// searchTable is the @Searchable annotations of the aspects the mock
// searches, read from DataHub's PDL (metadata-models/src/main/pegasus).
var searchTable = []SearchField{
	f("status", "/removed", "removed", Boolean),
	f("globalTags", "/tags/*/tag", "tags", URN).boost(0.5).facet("Tag").hasValues("hasTags"),
	f("glossaryTerms", "/terms/*/urn", "glossaryTerms", URN).facet("Glossary Term").hasValues("hasGlossaryTerms"),
	f("ownership", "/owners/*/owner", "owners", URN).byDefault(false).facet("Owned By").hasValues("hasOwners"),
	f("domains", "/domains/*", "domains", URN).facet("Domain").hasValues("hasDomain"),
	f("subTypes", "/typeNames/*", "typeNames", Keyword).facet("Sub Type"),
	f("container", "/container", "container", URN).facet("Container").hasValues("hasContainer"),
	f("dataPlatformInstance", "/platform", "platform", URN).facet("Platform"),
	f("dataPlatformInstance", "/instance", "platformInstance", URN).facet("Platform Instance"),
	f("browsePathsV2", "/path/*/id", "browsePathV2", BrowsePath2),
	f("deprecation", "/deprecated", "deprecated", Boolean),

	f("datasetKey", "/platform", "platform", URN).facet("Platform"),
	f("datasetKey", "/name", "id", WordGram).boost(10),
	f("datasetKey", "/origin", "origin", TextPartial).byDefault(false).facet("Environment"),
	f("datasetProperties", "/name", "name", WordGram).boost(10).alias("_entityName"),
	f("datasetProperties", "/qualifiedName", "qualifiedName", WordGram).boost(10),
	f("datasetProperties", "/description", "description", Text).hasValues("hasDescription"),
	f("datasetProperties", "/customProperties/*", "customProperties", Text),
	f("editableDatasetProperties", "/description", "editedDescription", Text),

	f("mlModelKey", "/platform", "platform", URN).facet("Platform"),
	f("mlModelKey", "/name", "id", WordGram).boost(10).alias("_entityName"),
	f("mlModelKey", "/origin", "origin", TextPartial).byDefault(false).facet("Environment"),
	f("mlModelProperties", "/name", "name", WordGram).boost(10),
	f("mlModelProperties", "/description", "description", Text).hasValues("hasDescription"),
	f("mlModelProperties", "/type", "type", TextPartial),
	f("mlModelProperties", "/customProperties/*", "customProperties", Text),

	f("mlModelGroupKey", "/platform", "platform", URN).facet("Platform"),
	f("mlModelGroupKey", "/name", "id", WordGram).boost(10).alias("_entityName"),
	f("mlModelGroupKey", "/origin", "origin", TextPartial).byDefault(false),
	f("mlModelGroupProperties", "/name", "name", WordGram).boost(10),
	f("mlModelGroupProperties", "/description", "description", Text).hasValues("hasDescription"),
	f("mlModelGroupProperties", "/customProperties/*", "customProperties", Text),

	f("mlFeatureKey", "/featureNamespace", "featureNamespace", TextPartial),
	f("mlFeatureKey", "/name", "name", WordGram).boost(8).alias("_entityName"),
	f("mlFeatureProperties", "/description", "description", Text).hasValues("hasDescription"),
	f("mlFeatureProperties", "/customProperties/*", "customProperties", Text),

	f("mlFeatureTableKey", "/platform", "platform", URN).facet("Platform"),
	f("mlFeatureTableKey", "/name", "name", WordGram).boost(8).alias("_entityName"),
	f("mlFeatureTableProperties", "/description", "description", Text).hasValues("hasDescription"),
	f("mlFeatureTableProperties", "/mlFeatures/*", "features", URN),
	f("mlFeatureTableProperties", "/mlPrimaryKeys/*", "primaryKeys", URN),
	f("mlFeatureTableProperties", "/customProperties/*", "customProperties", Text),
}

// fieldsByAspect indexes the table; [SetSearchFields] replaces it.
var fieldsByAspect = byAspect(searchTable)

func byAspect(fields []SearchField) map[string][]SearchField {
	m := map[string][]SearchField{}
	for _, s := range fields {
		if s.Boost == 0 {
			s.Boost = 1
		}
		m[s.Aspect] = append(m[s.Aspect], s)
	}
	return m
}

// SearchFields returns the searchable fields of an aspect.
func SearchFields(aspect string) []SearchField { return fieldsByAspect[aspect] }

// fieldInfo is what the search knows of an index field across aspects.
type fieldInfo struct {
	Type        FieldType
	Facet       bool
	Default     bool
	Boost       float64
	DisplayName string
}

// fieldInfos maps every index field name (and alias, and has-values field)
// to its info; the first annotation of a name wins.
var fieldInfos = infos(searchTable)

func infos(fields []SearchField) map[string]fieldInfo {
	m := map[string]fieldInfo{}
	add := func(name string, fi fieldInfo) {
		if _, ok := m[name]; !ok {
			m[name] = fi
		}
	}
	for _, s := range fields {
		b := s.Boost
		if b == 0 {
			b = 1
		}
		fi := fieldInfo{Type: s.Type, Facet: s.Facet, Default: s.Default, Boost: b, DisplayName: s.DisplayName}
		if fi.DisplayName == "" {
			fi.DisplayName = s.Name
		}
		add(s.Name, fi)
		for _, a := range s.Aliases { // an alias is not a field of its own to query
			alias := fi
			alias.Default = false
			add(a, alias)
		}
		if s.HasValues != "" {
			add(s.HasValues, fieldInfo{Type: Boolean, Boost: 1, DisplayName: s.HasValues})
		}
	}
	return m
}

// extract appends the index values of aspect's JSON to out, by field name.
// Malformed JSON indexes nothing (the core validated what it stored).
func extract(aspect string, raw json.RawMessage, out map[string][]string) {
	fields, edges := fieldsByAspect[aspect], edgesByAspect[aspect]
	if len(fields) == 0 && len(edges) == 0 {
		return
	}
	var v any
	d := json.NewDecoder(strings.NewReader(string(raw)))
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
	}
}

// walk calls emit with the scalar values at path under v; mapKey is the key
// of the map entry v is ("" when v is not one), for "key=value".
func walk(v any, path []string, mapKey string, emit func(string)) {
	if len(path) == 0 || (len(path) == 1 && path[0] == "") {
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
