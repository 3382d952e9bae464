package gms

// GroupingCriterion is one criterion of a search's groupingSpec
// (com.linkedin.metadata.query.GroupingCriterion), by registry entity
// names ("" for an absent base type).
type GroupingCriterion struct {
	Base, Grouping string
}

// KeepSchemaFields tells whether a lineage search's groupingSpec turns off
// DataHub's default grouping of the schema fields reached into their
// datasets (SearchUtils.convertSchemaFieldToDataset): a spec that is given
// (criteria not nil) and none of whose criteria groups schemaField by
// dataset.
//
// Only lineage searches group. DataHub's other searches (search,
// searchAcrossEntities, scrollAcrossEntities) read no groupingSpec: GraphQL's
// search resolver sets one by default, which the search service never
// reads, so a schema field a plain search finds stays a schema field.
func KeepSchemaFields(criteria []GroupingCriterion) bool {
	if criteria == nil {
		return false
	}
	for _, c := range criteria {
		if c.Base == "schemaField" && c.Grouping == "dataset" {
			return false
		}
	}
	return true
}
