package graphql

import (
	"reflect"
	"strings"
	"sync"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// The reads of every entity type: which aspect (and which field of it) each
// field of an entity's GraphQL type is read from, derived from the two
// generated sources of facts the mock embeds, DataHub's SDL (schema.graphql)
// and its entity registry and PDL records (package pdl), by the rules
// DataHub's mappers follow:
//
//   - a field named as one of the entity's aspects is that aspect
//     (ownership, status, deprecation, subTypes, browsePathV2,
//     structuredProperties, institutionalMemory, forms, siblings,
//     schemaMetadata, editableSchemaMetadata, versionProperties, embed, ...);
//   - tags and globalTags are globalTags; domain is domains; container is
//     container's container; dataPlatformInstance is that aspect's instance;
//   - properties (and info) is the entity's own properties aspect (its
//     name's <entity>Properties or <entity>Info, else the one such aspect),
//     editableProperties the editable one;
//   - a field named as a field of the key aspect is that field (name,
//     origin, platform, ...).
//
// Computed fields (exists, relationships, lineage, ...) are hand-written.

// aspectField is where a field of an entity type is read from: the aspect
// and the path inside it ("" the whole aspect).
type aspectField struct {
	aspect string
	path   string
	// domain: the first of domains.domains as a DomainAssociation.
	domain bool
}

// entityFields maps an entity's GraphQL type name to its fields' sources.
var entityFields = sync.OnceValue(func() map[string]map[string]aspectField {
	s, err := schema()
	if err != nil {
		return nil
	}
	out := map[string]map[string]aspectField{}
	for name, def := range s.Types {
		ent := entityOfType(name)
		if ent == "" {
			continue
		}
		reg, ok := pdl.LookupEntity(ent)
		if !ok {
			continue
		}
		out[name] = fieldsOf(def, reg)
	}
	return out
})

// entityOfType is the registry entity of a GraphQL type, "" for none.
func entityOfType(typeName string) string {
	for e, t := range graphQLType {
		if t == typeName {
			return e
		}
	}
	for e, t := range urnOnlyTypes {
		if t == typeName {
			return e
		}
	}
	return ""
}

// sdlTypeOf is the GraphQL type of a registry entity, "" for none.
func sdlTypeOf(entity string) string {
	if t := graphQLType[entity]; t != "" {
		return t
	}
	return urnOnlyTypes[entity]
}

func fieldsOf(def *ast.Definition, reg pdl.Entity) map[string]aspectField {
	has := map[string]bool{}
	for _, a := range reg.Aspects {
		if info, ok := pdl.LookupAspect(a); ok && !info.Timeseries {
			has[a] = true
		}
	}
	var props, editable []string
	for _, a := range reg.Aspects {
		if !has[a] || strings.Contains(strings.ToLower(a), "schema") {
			continue
		}
		switch {
		case strings.Contains(strings.ToLower(a), "editable") && (strings.HasSuffix(a, "Properties") || strings.HasSuffix(a, "Info")):
			editable = append(editable, a)
		case strings.HasSuffix(a, "Properties") || strings.HasSuffix(a, "Info"):
			props = append(props, a)
		}
	}
	own := func(cands []string, prefix string) string {
		for _, a := range cands {
			if strings.EqualFold(a, prefix+"Properties") || strings.EqualFold(a, prefix+"Info") {
				return a
			}
		}
		if len(cands) == 1 {
			return cands[0]
		}
		return ""
	}
	propsAspect := own(props, reg.Name)
	editableAspect := own(editable, "editable"+reg.Name)
	if editableAspect == "" {
		editableAspect = own(editable, reg.Name+"Editable")
	}
	propsFields := recordFields(propsAspect)
	keyFields := recordFields(reg.KeyAspect)
	out := map[string]aspectField{}
	for _, f := range def.Fields {
		n := f.Name
		if o, ok := fieldOverrides[def.Name+"."+n]; ok {
			out[n] = o
			continue
		}
		switch {
		case n == "urn" || n == "type" || strings.HasPrefix(n, "__"):
		case n == "tags" || n == "globalTags":
			if has["globalTags"] {
				out[n] = aspectField{aspect: "globalTags"}
			}
		case n == "domain":
			if has["domains"] {
				out[n] = aspectField{aspect: "domains", domain: true}
			}
		case n == "container":
			if has["container"] {
				out[n] = aspectField{aspect: "container", path: "container"}
			}
		case n == "dataPlatformInstance":
			if has["dataPlatformInstance"] {
				out[n] = aspectField{aspect: "dataPlatformInstance", path: "instance"}
			}
		case n == "properties" || n == "info":
			if propsAspect != "" {
				out[n] = aspectField{aspect: propsAspect}
			}
		case n == "browsePathV2":
			if has["browsePathsV2"] {
				out[n] = aspectField{aspect: "browsePathsV2"}
			}
		case n == "editableProperties" || n == "editableInfo":
			if editableAspect != "" {
				out[n] = aspectField{aspect: editableAspect}
			}
		case has[n]:
			out[n] = aspectField{aspect: n}
		case keyFields[n]:
			out[n] = aspectField{aspect: reg.KeyAspect, path: n}
		case n == "platform" && has["dataPlatformInstance"]:
			out[n] = aspectField{aspect: "dataPlatformInstance", path: "platform"}
		case propsFields[n]: // a type that flattens its one info aspect (DataHubView, Test, Post, ...)
			out[n] = aspectField{aspect: propsAspect, path: n}
		}
	}
	return out
}

// recordFields are the names of the fields of an aspect's record.
func recordFields(aspect string) map[string]bool {
	info, ok := pdl.LookupAspect(aspect)
	if !ok {
		return nil
	}
	rec, ok := pdl.Record(info.RecordName)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	for _, f := range rec.Fields {
		out[f.Name] = true
	}
	return out
}

// fieldOverrides are the fields DataHub's mappers read from a differently
// named place than the rules above give.
var fieldOverrides = map[string]aspectField{
	"DataPlatform.name":                   {aspect: "dataPlatformKey", path: "platformName"},
	"DataPlatformInstance.instanceId":     {aspect: "dataPlatformInstanceKey", path: "instance"},
	"StructuredPropertyEntity.definition": {aspect: "propertyDefinition"},
	"DataHubPolicy.policyType":            {aspect: "dataHubPolicyInfo", path: "type"},
	"DataHubPolicy.name":                  {aspect: "dataHubPolicyInfo", path: "displayName"},
	"DataHubView.viewType":                {aspect: "dataHubViewInfo", path: "type"},
}

// renames are the fields of nested objects DataHub's mappers read from a
// differently named PDL field: "Type.field" → the PDL field.
var renames = map[string]string{
	"GlossaryTermAssociation.term":                 "urn",
	"InstitutionalMemoryMetadata.label":            "description",
	"InstitutionalMemoryMetadata.created":          "createStamp",
	"InstitutionalMemoryMetadata.updated":          "updateStamp",
	"InstitutionalMemoryMetadata.author":           "createStamp.actor",
	"InstitutionalMemoryMetadata.actor":            "createStamp.actor",
	"BrowsePathEntry.name":                         "id",
	"BrowsePathEntry.entity":                       "urn",
	"Owner.ownershipType":                          "typeUrn",
	"StructuredPropertiesEntry.structuredProperty": "propertyUrn",
	"Policy.name":                                  "displayName",
	// ChartMapper, DashboardMapper: the title, and the change stamps.
	"ChartProperties.name":             "title",
	"ChartProperties.lastModified":     "lastModified.lastModified",
	"ChartProperties.created":          "lastModified.created",
	"ChartProperties.deleted":          "lastModified.deleted",
	"DashboardProperties.name":         "title",
	"DashboardProperties.lastModified": "lastModified.lastModified",
	"DashboardProperties.created":      "lastModified.created",
	"DashboardProperties.deleted":      "lastModified.deleted",
}

// registerEntityRoots registers, once, a resolver for every field of Query
// that reads one entity by its urn (chart, container, domain, ...) and has
// no resolver: the entity loaded as Query.entity loads it, refused when the
// URN is of another entity type.
var registerEntityRoots = sync.OnceFunc(func() {
	s, err := schema()
	if err != nil {
		return
	}
	root := reflect.TypeFor[*resolver]()
	for _, f := range s.Query.Fields {
		ent := entityOfType(f.Type.NamedType)
		if ent == "" || f.Type.Elem != nil || f.Arguments.ForName("urn") == nil || registry["Query."+f.Name] != nil || findAccessor(root, f.Name) != nil {
			continue
		}
		query(f.Name, func(c *Ctx, a Args) (any, error) {
			e, err := c.x.h.res.load(c, a.String("urn"), ent)
			if err != nil {
				return nil, err
			}
			return newEntityR(e), nil
		})
	}
})
