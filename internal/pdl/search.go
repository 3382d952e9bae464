package pdl

import (
	"strings"
	"sync"
)

// SearchFieldType is how DataHub indexes a searchable value: the fieldType of a @Searchable
// annotation.
type SearchFieldType string

// The search field types DataHub knows.
const (
	SearchKeyword      SearchFieldType = "KEYWORD"        // exact match, facets and sorting
	SearchText         SearchFieldType = "TEXT"           // tokenized full text
	SearchTextPartial  SearchFieldType = "TEXT_PARTIAL"   // full text with partial (n-gram) matches
	SearchBrowsePath   SearchFieldType = "BROWSE_PATH"    // a legacy "/a/b" browse path
	SearchURN          SearchFieldType = "URN"            // a URN, matched whole and by its parts
	SearchURNPartial   SearchFieldType = "URN_PARTIAL"    // a URN with partial matches
	SearchBoolean      SearchFieldType = "BOOLEAN"        // true or false
	SearchCount        SearchFieldType = "COUNT"          // an integer
	SearchDatetime     SearchFieldType = "DATETIME"       // epoch milliseconds
	SearchObject       SearchFieldType = "OBJECT"         // a map indexed as an object of keywords
	SearchBrowsePathV2 SearchFieldType = "BROWSE_PATH_V2" // a browsePathsV2 path
	SearchWordGram     SearchFieldType = "WORD_GRAM"      // full text with word n-grams
	SearchDouble       SearchFieldType = "DOUBLE"         // a floating-point number
	SearchMapArray     SearchFieldType = "MAP_ARRAY"      // a map of arrays indexed as an object
)

// SearchableField is a value of an aspect that DataHub indexes for search: a resolved @Searchable
// annotation of the aspect's record, with DataHub's defaults applied (index name: the last path
// segment that is not "*"; field type by Pegasus type: int COUNT, float and double DOUBLE, map
// KEYWORD, anything else TEXT; QueryByDefault true for the TEXT, TEXT_PARTIAL, WORD_GRAM, URN
// and URN_PARTIAL types; BoostScore 1).
type SearchableField struct {
	// Path locates the values in the aspect: "/" then field names, "*" for every item of an
	// array or every value of a map, a union member's key for that member, e.g.
	// "/upstreams/*/dataset". A map field is indexed whole, at the map's own path.
	Path string
	// Kind is the Pegasus kind of the values at Path (typerefs resolved), e.g. KindString,
	// KindLong, KindEnum or KindMap.
	Kind Kind
	// FieldName is the name of the field in the search index, e.g. "upstreams".
	FieldName string
	// FieldType is how the values are indexed.
	FieldType SearchFieldType
	// QueryByDefault tells that a plain full-text query matches this field.
	QueryByDefault bool
	// EnableAutocomplete tells that the field feeds autocomplete.
	EnableAutocomplete bool
	// AddToFilters tells that the field is offered as a facet.
	AddToFilters bool
	// AddHasValuesToFilters tells that a "has values" facet is offered for it.
	AddHasValuesToFilters bool
	// FilterNameOverride is the facet's display name, "" for FieldName.
	FilterNameOverride string
	// HasValuesFilterNameOverride is the display name of the "has values" facet, "" if none.
	HasValuesFilterNameOverride string
	// BoostScore multiplies the score of a match in this field.
	BoostScore float64
	// HasValuesFieldName, if set, names a boolean index field telling whether values exist,
	// e.g. "hasDescription".
	HasValuesFieldName string
	// NumValuesFieldName, if set, names an index field holding the number of values.
	NumValuesFieldName string
	// WeightsPerFieldValue scales the score of documents by this field's value, e.g. {"true": 0.5}.
	WeightsPerFieldValue map[string]float64
	// FieldNameAliases are other index names of the field, e.g. "_entityName" (usable in
	// filters and sorts across entity types).
	FieldNameAliases []string
	// IncludeQueryEmptyAggregation tells that aggregations count documents without a value.
	IncludeQueryEmptyAggregation bool
	// IncludeSystemModifiedAt tells that DataHub also indexes when the aspect last changed,
	// under SystemModifiedAtFieldName.
	IncludeSystemModifiedAt   bool
	SystemModifiedAtFieldName string
	// SearchTier, SearchLabel, SearchIndexed, EntityFieldName and EagerGlobalOrdinals are
	// DataHub's newer search-tier settings (0 or "" or false when unset).
	SearchTier          int
	SearchLabel         string
	SearchIndexed       bool
	EntityFieldName     string
	EagerGlobalOrdinals bool
	// SanitizeRichText tells that markdown and HTML are stripped before indexing.
	SanitizeRichText bool
}

// FilterName returns the name the field's facet is shown under: FilterNameOverride, else
// FieldName.
func (f SearchableField) FilterName() string {
	if f.FilterNameOverride != "" {
		return f.FilterNameOverride
	}
	return f.FieldName
}

// HasValuesFilterName returns the name of the field's "has values" facet:
// HasValuesFilterNameOverride, else HasValuesFieldName, else "has" and the capitalized
// FieldName.
func (f SearchableField) HasValuesFilterName() string {
	switch {
	case f.HasValuesFilterNameOverride != "":
		return f.HasValuesFilterNameOverride
	case f.HasValuesFieldName != "":
		return f.HasValuesFieldName
	case f.FieldName == "":
		return "has"
	}
	return "has" + strings.ToUpper(f.FieldName[:1]) + f.FieldName[1:]
}

// Relationship is an edge DataHub's graph draws from an entity to the URNs found in one of its
// aspects: a resolved @Relationship annotation of the aspect's record. The entity holding the
// aspect is the edge's source, the URN at Path its destination.
type Relationship struct {
	// Path locates the destination URNs in the aspect, as in [SearchableField.Path], e.g.
	// "/upstreams/*/dataset".
	Path string
	// Name is the relationship type, e.g. "DownstreamOf".
	Name string
	// EntityTypes are the entity types the destination may have ("" or empty: any).
	EntityTypes []string
	// IsUpstream tells the lineage direction (default true): the destination is upstream of
	// the source (a dataset's DownstreamOf edge points at the dataset it is derived from). When
	// false the destination is downstream (a data job's Produces edge points at its output).
	IsUpstream bool
	// IsLineage tells that the edge is part of lineage (default false); other edges (ownership,
	// tags, containment) are only part of the graph.
	IsLineage bool
	// CreatedOn, CreatedActor, UpdatedOn and UpdatedActor are paths (without a leading "/") of
	// the edge's audit values in the aspect, "" if none; Properties the path of its properties
	// map and Via that of the URN it was derived through.
	CreatedOn, CreatedActor, UpdatedOn, UpdatedActor string
	Properties, Via                                  string
}

// LineageEdge is a lineage relationship of one aspect of an entity type.
type LineageEdge struct {
	// Entity is the source entity type, e.g. "dataset".
	Entity string
	// Aspect is the aspect holding the destination URNs, e.g. "upstreamLineage".
	Aspect string
	Relationship
}

// URNValidation is a resolved @UrnValidation annotation of an aspect's field: DataHub checks, on
// every write of the aspect (except restates), that the URNs at Path point where they should.
type URNValidation struct {
	// Path locates the field in the aspect, as in [SearchableField.Path] ("/valueType",
	// "/entityTypes"); a field holding an array is checked item by item.
	Path string
	// Exist tells that each URN must name an existing entity.
	Exist bool
	// Strict tells that each URN must be well formed for its entity type.
	Strict bool
	// EntityTypes are the entity types the URNs may have (empty: any).
	EntityTypes []string
}

type factTable struct {
	once           sync.Once
	searchable     map[string][]SearchableField
	relationships  map[string][]Relationship
	urnValidations map[string][]URNValidation
}

var factTables factTable

// facts returns the annotation tables, building them on first use.
func facts() *factTable {
	factTables.once.Do(func() {
		factTables.searchable = buildSearchable()
		factTables.relationships = buildRelationships()
		factTables.urnValidations = buildURNValidations()
	})
	return &factTables
}

// SearchableFields returns the searchable values of an aspect of the entity registry, in the
// order DataHub finds them (the record's fields in order, included records' first); nil if the
// aspect has none or is unknown. The result is shared: callers must not modify it.
func SearchableFields(aspect string) []SearchableField {
	return facts().searchable[aspect]
}

// Relationships returns the graph edges of an aspect of the entity registry, in the order
// DataHub finds them; nil if the aspect has none or is unknown. The result is shared: callers
// must not modify it.
func Relationships(aspect string) []Relationship {
	return facts().relationships[aspect]
}

// URNValidations returns the @UrnValidation fields of an aspect of the entity registry, in the
// order of its record's fields; nil if the aspect has none or is unknown. The result is shared:
// callers must not modify it.
func URNValidations(aspect string) []URNValidation {
	return facts().urnValidations[aspect]
}

// LineageEdges returns every lineage relationship (IsLineage) of every entity type's aspects,
// in entity-registry order and then the aspects' order, key aspects first. An aspect shared by
// several entity types (upstreamLineage of datasets and semantic models) appears once per type.
func LineageEdges() []LineageEdge {
	var out []LineageEdge
	for _, e := range entities {
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			for _, r := range Relationships(a) {
				if r.IsLineage {
					out = append(out, LineageEdge{Entity: e.Name, Aspect: a, Relationship: r})
				}
			}
		}
	}
	return out
}
