package graphql

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// resolver is the schema's root (Query and Mutation).
type resolver struct {
	core *gms.Core
	// search runs the searches: the core, or a test's spy.
	search searcher
	cache  decodeCache
	// version is the store's position (nil: none, see WithStoreVersion);
	// loaded holds the entities loaded at one position.
	version func() uint64
	loaded  entityCache
}

// entity is one loaded entity: its URN, registry name and latest aspects
// (the key synthesised when never written).
type entity struct {
	r *resolver
	// ctx is the request's, for the loads of the inline resolvers.
	ctx     context.Context
	urn     string
	name    string       // registry entity name
	aspects []gms.Aspect // the latest versions, sorted by name
	key     *keyJSON     // never nil
	// props is the decoded *Properties aspect of an ML entity or dataset
	// (a pointer to its JSON type, shared through the decode cache and never
	// modified; nil when absent), decoded at load.
	props any
}

// loadProps decodes the properties aspect of e by its entity type.
func (e *entity) loadProps() *gqlError {
	var err *gqlError
	switch e.name {
	case "mlFeature":
		e.props, err = propsOf[mlFeaturePropertiesJSON](e, "mlFeatureProperties")
	case "mlFeatureTable":
		e.props, err = propsOf[mlFeatureTablePropertiesJSON](e, "mlFeatureTableProperties")
	case "mlModel":
		e.props, err = propsOf[mlModelPropertiesJSON](e, "mlModelProperties")
	case "mlModelGroup":
		e.props, err = propsOf[mlModelGroupPropertiesJSON](e, "mlModelGroupProperties")
	case "dataset":
		e.props, err = propsOf[datasetPropertiesJSON](e, "datasetProperties")
	}
	return err
}

// propsOf is aspectOf as an any that is nil (not a nil *T) when absent.
func propsOf[T any](e *entity, name string) (any, *gqlError) {
	v, err := aspectOf[T](e, name)
	if v == nil || err != nil {
		return nil, err
	}
	return v, nil
}

// graphQLType are the GraphQL type names of the registry entities served.
var graphQLType = map[string]string{
	"dataset": "Dataset", "mlFeature": "MLFeature", "mlFeatureTable": "MLFeatureTable",
	"mlModel": "MLModel", "mlModelGroup": "MLModelGroup", "dataPlatform": "DataPlatform",
	"corpuser": "CorpUser", "corpGroup": "CorpGroup", "tag": "Tag", "glossaryTerm": "GlossaryTerm",
	"dataJob": "DataJob", "dataFlow": "DataFlow", "chart": "Chart", "dashboard": "Dashboard",
	"dataProcessInstance": "DataProcessInstance", "mlPrimaryKey": "MLPrimaryKey",
}

// entityTypes are DataHub's EntityType values of the registry entities.
var entityTypes = map[string]string{
	"dataset": "DATASET", "mlFeature": "MLFEATURE", "mlFeatureTable": "MLFEATURE_TABLE",
	"mlModel": "MLMODEL", "mlModelGroup": "MLMODEL_GROUP", "dataPlatform": "DATA_PLATFORM",
	"corpuser": "CORP_USER", "corpGroup": "CORP_GROUP", "tag": "TAG", "glossaryTerm": "GLOSSARY_TERM",
	"container": "CONTAINER", "dataJob": "DATA_JOB", "dataFlow": "DATA_FLOW", "chart": "CHART",
	"dashboard": "DASHBOARD", "dataProcessInstance": "DATA_PROCESS_INSTANCE", "mlPrimaryKey": "MLPRIMARY_KEY",
	// answered by URN alone (urnOnlyTypes)
	"application":             "APPLICATION",
	"assertion":               "ASSERTION",
	"businessAttribute":       "BUSINESS_ATTRIBUTE",
	"dataContract":            "DATA_CONTRACT",
	"dataHubAccessToken":      "ACCESS_TOKEN",
	"dataHubConnection":       "DATAHUB_CONNECTION",
	"dataHubExecutionRequest": "EXECUTION_REQUEST",
	"dataHubFile":             "DATAHUB_FILE",
	"dataHubPageModule":       "DATAHUB_PAGE_MODULE",
	"dataHubPageTemplate":     "DATAHUB_PAGE_TEMPLATE",
	"dataHubPolicy":           "DATAHUB_POLICY",
	"dataHubRole":             "DATAHUB_ROLE",
	"dataHubView":             "DATAHUB_VIEW",
	"dataPlatformInstance":    "DATA_PLATFORM_INSTANCE",
	"dataProduct":             "DATA_PRODUCT",
	"dataType":                "DATA_TYPE",
	"document":                "DOCUMENT",
	"domain":                  "DOMAIN",
	"entityType":              "ENTITY_TYPE",
	"erModelRelationship":     "ER_MODEL_RELATIONSHIP",
	"form":                    "FORM",
	"glossaryNode":            "GLOSSARY_NODE",
	"incident":                "INCIDENT",
	"metric":                  "METRIC",
	"notebook":                "NOTEBOOK",
	"ownershipType":           "CUSTOM_OWNERSHIP_TYPE",
	"post":                    "POST",
	"query":                   "QUERY",
	"role":                    "ROLE",
	"schemaField":             "SCHEMA_FIELD",
	"semanticModel":           "SEMANTIC_MODEL",
	"structuredProperty":      "STRUCTURED_PROPERTY",
	"test":                    "TEST",
	"versionSet":              "VERSION_SET",
}

// load reads urn's latest aspects through the core, checking that it is a
// URN of entity type want ("" for any type with a GraphQL type).
func (r *resolver) load(ctx context.Context, urn, want string) (*entity, *gqlError) {
	e := new(entity)
	if err := r.loadInto(e, ctx, urn, want); err != nil {
		return nil, err
	}
	return e, nil
}

// loadInto is load into e (a zero entity).
func (r *resolver) loadInto(e *entity, ctx context.Context, urn, want string) *gqlError {
	got := gms.EntityTypeOf(urn)
	served := sdlTypeOf(got) != ""
	if (want != "" && got != want) || !served {
		if _, err := gms.CheckURN(urn); err != nil { // a malformed URN says so first
			return fromCore(err)
		}
	}
	if want != "" && got != want {
		return badRequest(fmt.Sprintf(msgWrongEntityType, sdlTypeOf(want), gms.Abbreviate(urn), want))
	}
	if !served {
		return badRequest(fmt.Sprintf(msgWrongEntityType, "entity", gms.Abbreviate(urn), "served entity type"))
	}
	*e = entity{r: r, ctx: ctx, urn: urn, name: got}
	st, _ := ctx.Value(execStateKey{}).(*execState)
	if st != nil && st.versioned {
		if l, ok := r.loaded.get(urn, st.version); ok {
			e.aspects, e.key, e.props = l.aspects, l.key, l.props
			return nil
		}
	}
	e.key = &keyJSON{}
	ent, err := r.core.GetEntity(ctx, urn, nil, true) // checks the URN
	if err != nil {
		return fromCore(err)
	}
	if err := e.fill(ent); err != nil {
		return err
	}
	if st != nil && st.versioned && r.version() == st.version {
		r.loaded.put(urn, &loadedEntity{aspects: e.aspects, key: e.key, props: e.props}, st.version)
	}
	return nil
}

// fill sets e's aspects, key and properties from ent.
func (e *entity) fill(ent gms.Entity) *gqlError {
	e.aspects = ent.Aspects
	if k, err := aspectOf[keyJSON](e, ent.KeyAspect); err != nil {
		return err
	} else if k != nil {
		e.key = k
	}
	return e.loadProps()
}

// loadHit is load of a search or lineage hit of res: the entity the core
// shows for it (gms.Core.HitEntity: from the hit's index document while
// the index is current, without a store read).
func (r *resolver) loadHit(ctx context.Context, res gms.SearchResult, h gms.SearchHit) (*entity, *gqlError) {
	if !res.Current || h.Aspects == nil || sdlTypeOf(h.Entity) == "" {
		return r.load(ctx, h.URN, "")
	}
	ent, err := r.core.HitEntity(ctx, res, h)
	if err != nil {
		return nil, fromCore(err)
	}
	e := &entity{r: r, ctx: ctx, urn: h.URN, name: h.Entity, key: &keyJSON{}}
	if err := e.fill(ent); err != nil {
		return nil, err
	}
	return e, nil
}

// raw is the latest value of aspect name, false when the entity has none.
func (e *entity) raw(name string) (json.RawMessage, bool) {
	for i := range e.aspects {
		if e.aspects[i].Name == name {
			return e.aspects[i].Value, true
		}
	}
	return nil, false
}

// aspectOf is the latest value of aspect name decoded (through the decode
// cache: shared, not to be modified), nil when the entity has none.
func aspectOf[T any](e *entity, name string) (*T, *gqlError) {
	raw, ok := e.raw(name)
	if !ok {
		return nil, nil
	}
	return decode[T](&e.r.cache, name, raw, e.urn)
}

// urnKey returns the last part of a simple URN (urn:li:corpuser:jdoe → jdoe)
// or the whole tuple's text for a tuple URN.
func urnKey(u string) string {
	if n := strings.Count(u, ":"); n < 3 {
		return u
	}
	i := 0
	for n := 0; n < 3; i++ {
		if u[i] == ':' {
			n++
		}
	}
	return u[i:]
}

// --- Query ---

type urnArgs struct{ Urn string }

// Dataset resolves Query.dataset.
func (r *resolver) Dataset(ctx context.Context, a urnArgs) (*datasetR, error) {
	e, err := r.load(ctx, a.Urn, "dataset")
	if err != nil {
		return nil, err
	}
	return &datasetR{e}, nil
}

// MlFeature resolves Query.mlFeature.
func (r *resolver) MlFeature(ctx context.Context, a urnArgs) (*mlFeatureR, error) {
	e, err := r.load(ctx, a.Urn, "mlFeature")
	if err != nil {
		return nil, err
	}
	return &mlFeatureR{e}, nil
}

// MlFeatureTable resolves Query.mlFeatureTable.
func (r *resolver) MlFeatureTable(ctx context.Context, a urnArgs) (*mlFeatureTableR, error) {
	e, err := r.load(ctx, a.Urn, "mlFeatureTable")
	if err != nil {
		return nil, err
	}
	return &mlFeatureTableR{e}, nil
}

// MlModel resolves Query.mlModel.
func (r *resolver) MlModel(ctx context.Context, a urnArgs) (*mlModelR, error) {
	e, err := r.load(ctx, a.Urn, "mlModel")
	if err != nil {
		return nil, err
	}
	return &mlModelR{e}, nil
}

// MlModelGroup resolves Query.mlModelGroup.
func (r *resolver) MlModelGroup(ctx context.Context, a urnArgs) (*mlModelGroupR, error) {
	e, err := r.load(ctx, a.Urn, "mlModelGroup")
	if err != nil {
		return nil, err
	}
	return &mlModelGroupR{e}, nil
}

// DataPlatform resolves Query.dataPlatform.
func (r *resolver) DataPlatform(ctx context.Context, a urnArgs) (*dataPlatformR, error) {
	if _, err := r.load(ctx, a.Urn, "dataPlatform"); err != nil {
		return nil, err
	}
	return &dataPlatformR{a.Urn}, nil
}

// EntityExists resolves Query.entityExists.
func (r *resolver) EntityExists(ctx context.Context, a urnArgs) (*bool, error) {
	ok, err := r.exists(ctx, a.Urn)
	if err != nil {
		return nil, err
	}
	return &ok, nil
}

// Entity resolves Query.entity.
func (r *resolver) Entity(ctx context.Context, a urnArgs) (*entityR, error) {
	e, err := r.anyEntity(ctx, a.Urn)
	if err != nil {
		return nil, err
	}
	return e, nil
}

// anyEntity loads urn as Query.entity answers it: nil (null) for an entity
// type of the registry that has no GraphQL type, as DataHub's
// UrnToEntityMapper maps it to none.
func (r *resolver) anyEntity(ctx context.Context, urn string) (*entityR, *gqlError) {
	if t := gms.EntityTypeOf(urn); graphQLType[t] == "" && urnOnlyTypes[t] == "" {
		if _, known := pdl.LookupEntity(t); known {
			if _, err := gms.CheckURN(urn); err != nil {
				return nil, fromCore(err)
			}
			return nil, nil
		}
	}
	e, err := r.load(ctx, urn, "")
	if err != nil {
		return nil, err
	}
	return newEntityR(e), nil
}

// Entities resolves Query.entities: the entities in the order asked (null
// for those Query.entity answers null), only the existing ones with
// checkForExistence.
func (r *resolver) Entities(ctx context.Context, a struct {
	Urns              []string
	CheckForExistence *bool
}) (*[]*entityR, error) {
	out := make([]*entityR, 0, len(a.Urns))
	for _, u := range a.Urns {
		if a.CheckForExistence != nil && *a.CheckForExistence {
			ok, err := r.exists(ctx, u)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
		}
		e, err := r.anyEntity(ctx, u)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return &out, nil
}

// --- the Entity interface ---

// entityR is a value of the Entity interface (or the OwnerType union).
type entityR struct {
	e *entity
}

func newEntityR(e *entity) *entityR { return &entityR{e} }

func (r *entityR) Urn() string  { return r.e.urn }
func (r *entityR) Type() string { return entityTypes[r.e.name] }

func (r *entityR) ToDataset() (*datasetR, bool) { return &datasetR{r.e}, r.e.name == "dataset" }
func (r *entityR) ToMLFeature() (*mlFeatureR, bool) {
	return &mlFeatureR{r.e}, r.e.name == "mlFeature"
}
func (r *entityR) ToMLFeatureTable() (*mlFeatureTableR, bool) {
	return &mlFeatureTableR{r.e}, r.e.name == "mlFeatureTable"
}
func (r *entityR) ToMLModel() (*mlModelR, bool) { return &mlModelR{r.e}, r.e.name == "mlModel" }
func (r *entityR) ToMLModelGroup() (*mlModelGroupR, bool) {
	return &mlModelGroupR{r.e}, r.e.name == "mlModelGroup"
}
func (r *entityR) ToDataPlatform() (*dataPlatformR, bool) {
	return &dataPlatformR{r.e.urn}, r.e.name == "dataPlatform"
}
func (r *entityR) ToCorpUser() (*corpUserR, bool) { return &corpUserR{r.e.urn}, r.e.name == "corpuser" }
func (r *entityR) ToCorpGroup() (*corpGroupR, bool) {
	return &corpGroupR{r.e.urn}, r.e.name == "corpGroup"
}
func (r *entityR) ToTag() (*tagR, bool) { return &tagR{r.e.urn}, r.e.name == "tag" }
func (r *entityR) ToGlossaryTerm() (*glossaryTermR, bool) {
	return &glossaryTermR{r.e.urn}, r.e.name == "glossaryTerm"
}
func (r *entityR) ToDataJob() (*urnOnlyR, bool)   { return &urnOnlyR{r.e}, r.e.name == "dataJob" }
func (r *entityR) ToDataFlow() (*urnOnlyR, bool)  { return &urnOnlyR{r.e}, r.e.name == "dataFlow" }
func (r *entityR) ToChart() (*urnOnlyR, bool)     { return &urnOnlyR{r.e}, r.e.name == "chart" }
func (r *entityR) ToDashboard() (*urnOnlyR, bool) { return &urnOnlyR{r.e}, r.e.name == "dashboard" }
func (r *entityR) ToDataProcessInstance() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "dataProcessInstance"
}
func (r *entityR) ToMLPrimaryKey() (*urnOnlyR, bool) {
	return &urnOnlyR{r.e}, r.e.name == "mlPrimaryKey"
}

// urnOnlyR is an entity the mock serves by URN, type and existence only
// (the lineage entities other than the ML ones and datasets, and
// urnOnlyTypes).
type urnOnlyR struct{ e *entity }

func (r *urnOnlyR) Urn() string  { return r.e.urn }
func (r *urnOnlyR) Type() string { return entityTypes[r.e.name] }

// Exists is whether the entity's key aspect was written (Core.Exists).
func (r *urnOnlyR) Exists() *bool { return r.e.Exists() }

// --- entities built from their URN alone ---

type dataPlatformR struct{ urn string }

func (r *dataPlatformR) Urn() string  { return r.urn }
func (r *dataPlatformR) Type() string { return "DATA_PLATFORM" }
func (r *dataPlatformR) Name() string { return urnKey(r.urn) }

type corpUserR struct{ urn string }

func (r *corpUserR) Urn() string      { return r.urn }
func (r *corpUserR) Type() string     { return "CORP_USER" }
func (r *corpUserR) Username() string { return urnKey(r.urn) }

type corpGroupR struct{ urn string }

func (r *corpGroupR) Urn() string  { return r.urn }
func (r *corpGroupR) Type() string { return "CORP_GROUP" }
func (r *corpGroupR) Name() string { return urnKey(r.urn) }

type tagR struct{ urn string }

func (r *tagR) Urn() string  { return r.urn }
func (r *tagR) Type() string { return "TAG" }
func (r *tagR) Name() string { return urnKey(r.urn) }

type glossaryTermR struct{ urn string }

func (r *glossaryTermR) Urn() string  { return r.urn }
func (r *glossaryTermR) Type() string { return "GLOSSARY_TERM" }
func (r *glossaryTermR) Name() string { return urnKey(r.urn) }

// platformOf is the DataPlatform of a key's platform URN.
func platformOf(u string) *dataPlatformR { return &dataPlatformR{u} }

// sortedKeys returns m's keys in order (DataHub iterates a map; the mock
// answers in a stable order).
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// GraphQLType names the entity's object type and gives the value its
// fields resolve on (see Typed): the typed resolvers of the ML entities and
// datasets, the generic entity (urnOnlyR, read through the entity map) for
// every other type.
func (r *entityR) GraphQLType() (string, any) {
	switch r.e.name {
	case "dataset":
		return "Dataset", &datasetR{r.e}
	case "mlFeature":
		return "MLFeature", &mlFeatureR{r.e}
	case "mlFeatureTable":
		return "MLFeatureTable", &mlFeatureTableR{r.e}
	case "mlModel":
		return "MLModel", &mlModelR{r.e}
	case "mlModelGroup":
		return "MLModelGroup", &mlModelGroupR{r.e}
	}
	if r.e.r == nil { // an owner's URN, not loaded: what the URN says
		switch r.e.name {
		case "corpuser":
			return "CorpUser", &corpUserR{r.e.urn}
		case "corpGroup":
			return "CorpGroup", &corpGroupR{r.e.urn}
		}
	}
	return sdlTypeOf(r.e.name), &urnOnlyR{r.e}
}
