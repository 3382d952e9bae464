package client

import (
	"fmt"
	"github.com/catalogkit/datahub-go/aspects"
	"slices"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
)

// Condition is how a [Rule] compares an index field with its values
// (DataHub's FilterOperator): the aspects type of the same name, whose
// values the constants below name as search filters spell them.
type Condition = aspects.Condition

// The conditions DataHub's search understands.
const (
	Equal          Condition = "EQUAL"
	IEqual         Condition = "IEQUAL"
	In             Condition = "IN"
	Contain        Condition = "CONTAIN"
	StartWith      Condition = "START_WITH"
	EndWith        Condition = "END_WITH"
	Exists         Condition = "EXISTS"
	GreaterThan    Condition = "GREATER_THAN"
	GreaterOrEqual Condition = "GREATER_THAN_OR_EQUAL_TO"
	LessThan       Condition = "LESS_THAN"
	LessOrEqual    Condition = "LESS_THAN_OR_EQUAL_TO"
	DescendantsOf  Condition = "DESCENDANTS_INCL"
	AncestorsOf    Condition = "ANCESTORS_INCL"
	RelatedTo      Condition = "RELATED_INCL"
)

// Rule is one criterion on a search index field: DataHub's
// FacetFilterInput.
type Rule struct {
	Field     string    `json:"field"`
	Condition Condition `json:"condition"`
	Values    []string  `json:"values"`
	Negated   bool      `json:"negated,omitempty"`
}

// SearchFilter is a search filter: an OR of AND clauses of rules (disjunctive
// normal form), as DataHub's orFilters. Build one with [EntityType],
// [Platform], [Tag] and the other functions of this file, combined with
// [And], [Or] and [Not]. The zero Filter matches every entity.
//
// Unless a filter says otherwise with [SoftDeleted], a search leaves out
// soft-deleted entities.
type SearchFilter struct {
	// or holds the clauses; nil is one empty clause (everything).
	or [][]Rule
	// softDeleted is set when the tree has a SoftDeleted node.
	softDeleted bool
	err         error
}

// clauses returns f's clauses, one empty clause for the zero Filter.
func (f SearchFilter) clauses() [][]Rule {
	if f.or == nil {
		return [][]Rule{{}}
	}
	return f.or
}

// Clauses returns the filter compiled to DataHub's orFilters (without the
// soft-delete default a search adds), or the error of a bad argument given
// to one of the filter's functions.
func (f SearchFilter) Clauses() ([][]Rule, error) {
	if f.err != nil {
		return nil, f.err
	}
	out := make([][]Rule, 0, len(f.clauses()))
	for _, c := range f.clauses() {
		out = append(out, slices.Clone(c))
	}
	return out, nil
}

func rule(field string, cond Condition, values ...string) SearchFilter {
	return SearchFilter{or: [][]Rule{{{Field: field, Condition: cond, Values: values}}}}
}

func filterError(format string, args ...any) SearchFilter {
	return SearchFilter{err: fmt.Errorf("client: filter: "+format+": %w", append(args, datahub.ErrValidation)...)}
}

// Field is a rule on any index field: Field("name", client.StartWith,
// "orders"). An EXISTS rule takes no values.
func Field(field string, cond Condition, values ...string) SearchFilter {
	if field == "" {
		return filterError("a rule needs a field")
	}
	return rule(field, cond, values...)
}

// entityTypeEnum maps registry entity names to GraphQL's EntityType.
var entityTypeEnum = map[string]string{
	"dataset": "DATASET", "mlFeature": "MLFEATURE", "mlFeatureTable": "MLFEATURE_TABLE", "mlModel": "MLMODEL",
	"mlModelGroup": "MLMODEL_GROUP", "mlPrimaryKey": "MLPRIMARY_KEY", "dataJob": "DATA_JOB", "dataFlow": "DATA_FLOW",
	"chart": "CHART", "dashboard": "DASHBOARD", "container": "CONTAINER", "domain": "DOMAIN", "tag": "TAG",
	"glossaryTerm": "GLOSSARY_TERM", "glossaryNode": "GLOSSARY_NODE", "corpuser": "CORP_USER", "corpGroup": "CORP_GROUP",
	"dataProduct": "DATA_PRODUCT", "notebook": "NOTEBOOK", "dataProcessInstance": "DATA_PROCESS_INSTANCE",
	"dataPlatform": "DATA_PLATFORM", "schemaField": "SCHEMA_FIELD",
}

// graphQLEntityType returns the EntityType value of a registry entity name
// ("mlModel" → "MLMODEL") or of an EntityType value given as it is.
func graphQLEntityType(t string) (string, bool) {
	if e, ok := entityTypeEnum[t]; ok {
		return e, true
	}
	for _, e := range entityTypeEnum {
		if e == t {
			return e, true
		}
	}
	return "", false
}

// EntityType keeps entities of the given types, named as in DataHub's
// entity registry ("dataset", "mlFeatureTable", or the urn package's Type
// constants) or as GraphQL's EntityType ("MLFEATURE_TABLE").
func EntityType(types ...string) SearchFilter {
	vals := make([]string, 0, len(types))
	for _, t := range types {
		e, ok := graphQLEntityType(t)
		if !ok {
			return filterError("unknown entity type %q", t)
		}
		vals = append(vals, e)
	}
	return rule("_entityType", Equal, vals...)
}

// withPrefix makes bare names URNs: "hive" → "urn:li:dataPlatform:hive".
func withPrefix(prefix string, names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		if !strings.HasPrefix(n, "urn:li:") {
			n = prefix + n
		}
		out[i] = n
	}
	return out
}

// Platform keeps entities of the given data platforms, by name ("hive") or
// URN.
func Platform(platforms ...string) SearchFilter {
	return rule("platform.keyword", Equal, withPrefix("urn:li:dataPlatform:", platforms)...)
}

// Env keeps entities of the given environments ("PROD"): those whose
// origin, or env, is one of them.
func Env(envs ...string) SearchFilter {
	return SearchFilter{or: [][]Rule{
		{{Field: "origin", Condition: Equal, Values: envs}},
		{{Field: "env", Condition: Equal, Values: envs}},
	}}
}

// Domain keeps entities in the given domains (URNs, or ids made into
// urn:li:domain: URNs).
func Domain(domains ...string) SearchFilter {
	return rule("domains", Equal, withPrefix("urn:li:domain:", domains)...)
}

// Tag keeps entities with any of the given tags (URNs or tag names).
func Tag(tags ...string) SearchFilter { return rule("tags", Equal, withPrefix("urn:li:tag:", tags)...) }

// Term keeps entities with any of the given glossary terms (URNs or term
// names).
func Term(terms ...string) SearchFilter {
	return rule("glossaryTerms", Equal, withPrefix("urn:li:glossaryTerm:", terms)...)
}

// OwnedBy keeps entities owned by any of the given users or groups (corpuser
// or corpGroup URNs).
func OwnedBy(owners ...string) SearchFilter {
	for _, o := range owners {
		if !strings.HasPrefix(o, "urn:li:corpuser:") && !strings.HasPrefix(o, "urn:li:corpGroup:") {
			return filterError("owner %q is not a corpuser or corpGroup URN", o)
		}
	}
	return rule("owners", Equal, owners...)
}

// HasCustomProperty keeps entities whose customProperties has key set to
// value (indexed as "key=value").
func HasCustomProperty(key, value string) SearchFilter {
	if key == "" {
		return filterError("a custom property needs a key")
	}
	return rule("customProperties", Equal, key+"="+value)
}

// Container keeps entities anywhere under the given containers (URNs), by
// their browse paths.
func Container(containers ...string) SearchFilter {
	return rule("browsePathV2", Contain, containers...)
}

// DirectContainer keeps entities directly in the given containers (URNs).
func DirectContainer(containers ...string) SearchFilter {
	return rule("container", Equal, containers...)
}

// SubType keeps entities with any of the given sub-types ("Feature Table",
// "View").
func SubType(names ...string) SearchFilter { return rule("typeNames", Equal, names...) }

// SoftDeletedMode says which entities [SoftDeleted] keeps.
type SoftDeletedMode int

// The soft-delete modes.
const (
	// NotSoftDeleted keeps entities that are not soft-deleted (what a
	// search does when the filter has no SoftDeleted).
	NotSoftDeleted SoftDeletedMode = iota
	// OnlySoftDeleted keeps soft-deleted entities only.
	OnlySoftDeleted
	// AnySoftDeleted keeps both.
	AnySoftDeleted
)

// SoftDeleted says whether soft-deleted entities are kept. A filter with
// no SoftDeleted keeps none.
func SoftDeleted(mode SoftDeletedMode) SearchFilter {
	var f SearchFilter
	switch mode {
	case NotSoftDeleted:
		f = SearchFilter{or: [][]Rule{{{Field: "removed", Condition: Equal, Values: []string{"true"}, Negated: true}}}}
	case OnlySoftDeleted:
		f = rule("removed", Equal, "true")
	case AnySoftDeleted:
		f = SearchFilter{}
	default:
		return filterError("unknown soft-delete mode %d", int(mode))
	}
	f.softDeleted = true
	return f
}

// None matches no entity.
func None() SearchFilter {
	return SearchFilter{or: [][]Rule{{{Field: "urn", Condition: Exists, Values: []string{}, Negated: true}}}}
}

// And keeps entities that every filter keeps: the clauses of the
// filters multiplied out. And() is the zero Filter.
func And(filters ...SearchFilter) SearchFilter {
	out := SearchFilter{}
	for _, f := range filters {
		if f.err != nil {
			return f
		}
		var next [][]Rule
		for _, a := range out.clauses() {
			for _, b := range f.clauses() {
				next = append(next, slices.Concat(a, b))
			}
		}
		out.or = next
		out.softDeleted = out.softDeleted || f.softDeleted
	}
	return out
}

// Or keeps entities that any filter keeps. Or() matches nothing.
func Or(filters ...SearchFilter) SearchFilter {
	if len(filters) == 0 {
		return None()
	}
	out := SearchFilter{or: [][]Rule{}}
	for _, f := range filters {
		if f.err != nil {
			return f
		}
		out.or = append(out.or, f.clauses()...)
		out.softDeleted = out.softDeleted || f.softDeleted
	}
	return out
}

// Not keeps entities f does not keep: each rule negated and the result
// multiplied back out to an OR of AND clauses (De Morgan).
func Not(f SearchFilter) SearchFilter {
	if f.err != nil {
		return f
	}
	out := SearchFilter{softDeleted: f.softDeleted}
	for _, clause := range f.clauses() {
		if len(clause) == 0 { // not everything: nothing
			return None()
		}
		var neg SearchFilter
		neg.or = make([][]Rule, 0, len(clause))
		for _, r := range clause {
			r.Negated = !r.Negated
			neg.or = append(neg.or, []Rule{r})
		}
		out = And(out, neg)
	}
	out.softDeleted = f.softDeleted
	return out
}

// compile returns the orFilters a search sends: f with the soft-delete
// default added when f has no SoftDeleted, and the entity types to search:
// those the positive _entityType rules name when every clause has one
// (nil: the server's default types).
func (f SearchFilter) compile() (orFilters [][]Rule, types []string, err error) {
	if f.err != nil {
		return nil, nil, f.err
	}
	if !f.softDeleted {
		f = And(f, SoftDeleted(NotSoftDeleted))
	}
	for _, c := range f.clauses() {
		typed := false
		for _, r := range c {
			if r.Field == "_entityType" && !r.Negated && (r.Condition == Equal || r.Condition == "") {
				typed = true
				for _, v := range r.Values {
					if !slices.Contains(types, v) {
						types = append(types, v)
					}
				}
			}
		}
		if !typed {
			return f.clauses(), nil, nil
		}
	}
	return f.clauses(), types, nil
}
