package patch

import (
	"fmt"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
)

// The aspect mixins every entity builder has: tags, glossary terms,
// owners, domains, structured properties, documentation, links and custom
// properties. Paths, values and arrayPrimaryKeys are those of DataHub's
// Python helpers (datahub/specific/aspect_helpers) and Java builders:
// elements that may carry an attribution are keyed by it too, and sent to
// the server's generic patcher with arrayPrimaryKeys, since DataHub's
// templates key them without it.

// attributionSource is the key DataHub's builders use for an element's
// attribution source: "attribution␟source".
const attributionSource = "attribution\u241fsource"

// sourceOf returns a's source, "" when there is none.
func sourceOf(a *aspects.MetadataAttribution) string {
	if a == nil || a.Source == nil {
		return ""
	}
	return *a.Source
}

// AddTag adds tag to the entity's globalTags: add
// /tags/<attribution source>/<tag urn>, the source "" for a tag without
// one, with arrayPrimaryKeys {"tags":["attribution␟source","tag"]}.
// A tag added again from the same source replaces the first.
func (b *Builder) AddTag(tag aspects.TagAssociation) {
	b.keyedOp("globalTags", "tags", []string{attributionSource, "tag"}, OpAdd,
		Path("tags", sourceOf(tag.Attribution), tag.Tag), tag)
}

// RemoveTag removes the tag with URN tagURN whatever its attribution
// source: remove /tags/<tag urn> with the keys in the order tag, source.
func (b *Builder) RemoveTag(tagURN string) {
	b.keyedOp("globalTags", "tags", []string{"tag", attributionSource}, OpRemove, Path("tags", tagURN), struct{}{})
}

// RemoveTagFrom removes the tag with URN tagURN added by source only.
func (b *Builder) RemoveTagFrom(tagURN, source string) {
	b.keyedOp("globalTags", "tags", []string{attributionSource, "tag"}, OpRemove, Path("tags", source, tagURN), struct{}{})
}

// AddTerm adds a glossary term to the entity's glossaryTerms: add
// /terms/<term urn>/<attribution source>, the source "" for a term
// without one, with arrayPrimaryKeys {"terms":["urn","attribution␟source"]}.
func (b *Builder) AddTerm(term aspects.GlossaryTermAssociation) {
	b.keyedOp("glossaryTerms", "terms", []string{"urn", attributionSource}, OpAdd,
		Path("terms", term.URN, sourceOf(term.Attribution)), term)
}

// RemoveTerm removes the glossary term with URN termURN, whatever its
// attribution source.
func (b *Builder) RemoveTerm(termURN string) {
	b.keyedOp("glossaryTerms", "terms", []string{"urn", attributionSource}, OpRemove, Path("terms", termURN), struct{}{})
}

// RemoveTermFrom removes the glossary term with URN termURN added by
// source only.
func (b *Builder) RemoveTermFrom(termURN, source string) {
	b.keyedOp("glossaryTerms", "terms", []string{"urn", attributionSource}, OpRemove, Path("terms", termURN, source), struct{}{})
}

// ownerKeys are the keys of an owner: owner, type, typeUrn, attribution
// source. An owner may hold several types.
var ownerKeys = []string{"owner", "type", "typeUrn", attributionSource}

// AddOwner adds owner to the entity's ownership: add
// /owners/<owner urn>/<type>/<type urn>/<attribution source>, absent parts
// "", with arrayPrimaryKeys {"owners":["owner","type","typeUrn","attribution␟source"]}.
func (b *Builder) AddOwner(owner aspects.Owner) {
	typeURN := ""
	if owner.TypeURN != nil {
		typeURN = *owner.TypeURN
	}
	b.keyedOp("ownership", "owners", ownerKeys, OpAdd,
		Path("owners", owner.Owner, string(owner.Type), typeURN, sourceOf(owner.Attribution)), owner)
}

// RemoveOwner removes owner's ownership of type typ, or of every type when
// typ is "": remove /owners/<owner urn>[/<type>], which removes every
// entry under that prefix (all type URNs and sources).
func (b *Builder) RemoveOwner(owner string, typ aspects.OwnershipType) {
	path := Path("owners", owner)
	if typ != "" {
		path = Path("owners", owner, string(typ))
	}
	b.keyedOp("ownership", "owners", ownerKeys, OpRemove, path, struct{}{})
}

// SetOwners replaces all owners: add /owners with the whole list.
func (b *Builder) SetOwners(owners []aspects.Owner) {
	if owners == nil {
		owners = []aspects.Owner{}
	}
	b.Add("ownership", "/owners", owners)
}

// domainKeys are the keys of a domain association: attribution source,
// then domain.
var domainKeys = []string{attributionSource, "domain"}

// AddDomain adds the domain with URN domainURN to the entity's domains:
// [Builder.AddDomainAssociation] of {"domain": <urn>}.
func (b *Builder) AddDomain(domainURN string) {
	b.AddDomainAssociation(aspects.DomainAssociation{Domain: domainURN})
}

// AddDomainAssociation adds a domain association as DataHub's builders
// do: add /domainAssociations/<attribution source>/<domain urn>, the
// source "" without one, with arrayPrimaryKeys
// {"domainAssociations":["attribution␟source","domain"]}. The server
// derives the domains list from the associations.
func (b *Builder) AddDomainAssociation(a aspects.DomainAssociation) {
	b.keyedOp("domains", "domainAssociations", domainKeys, OpAdd,
		Path("domainAssociations", sourceOf(a.Attribution), a.Domain), a)
}

// RemoveDomain removes the domain with URN domainURN, whatever its
// attribution source: remove /domainAssociations/<domain urn> with the
// keys in the order domain, source.
func (b *Builder) RemoveDomain(domainURN string) {
	b.keyedOp("domains", "domainAssociations", []string{"domain", attributionSource}, OpRemove,
		Path("domainAssociations", domainURN), struct{}{})
}

// structuredPropertyPrefix starts every structured property URN.
const structuredPropertyPrefix = "urn:li:structuredProperty:"

// SetStructuredProperty sets the values of a structured property,
// replacing those it had: [Builder.SetStructuredPropertyValues] of
// {"propertyUrn":…,"values":[…]}. property is the property's URN or its
// id ("io.acryl.privacy.retentionTime"); each value is a string or a
// number (int, int64, float32 or float64), sent as {"string":…} or
// {"double":…}. Another type fails Proposals.
func (b *Builder) SetStructuredProperty(property string, values ...any) {
	a := aspects.StructuredPropertyValueAssignment{PropertyURN: structuredPropertyURN(property)}
	for _, v := range values {
		var pv aspects.PrimitivePropertyValue
		switch t := v.(type) {
		case string:
			pv.String = &t
		case float64:
			pv.Double = &t
		case float32:
			pv.Double = aspects.Ptr(float64(t))
		case int:
			pv.Double = aspects.Ptr(float64(t))
		case int64:
			pv.Double = aspects.Ptr(float64(t))
		default:
			b.fail(fmt.Errorf("patch: structured property %s: value %v is a %T, not a string or a number: %w", a.PropertyURN, v, v, datahub.ErrValidation))
			return
		}
		a.Values = append(a.Values, pv)
	}
	b.SetStructuredPropertyValues(a)
}

// SetStructuredPropertyValues sets a structured property's assignment,
// replacing the one from the same attribution source: add
// /properties/<property urn>/<attribution source>, the source "" without
// one, with arrayPrimaryKeys {"properties":["propertyUrn","attribution␟source"]}.
func (b *Builder) SetStructuredPropertyValues(a aspects.StructuredPropertyValueAssignment) {
	b.keyedOp("structuredProperties", "properties", []string{"propertyUrn", attributionSource}, OpAdd,
		Path("properties", a.PropertyURN, sourceOf(a.Attribution)), a)
}

// RemoveStructuredProperty removes a structured property (its URN or id),
// whatever its attribution source.
func (b *Builder) RemoveStructuredProperty(property string) {
	b.keyedOp("structuredProperties", "properties", []string{"propertyUrn", attributionSource}, OpRemove,
		Path("properties", structuredPropertyURN(property)), struct{}{})
}

func structuredPropertyURN(property string) string {
	if strings.HasPrefix(property, structuredPropertyPrefix) {
		return property
	}
	return structuredPropertyPrefix + property
}

// AddDocumentation adds a documentation entry (the documentation aspect)
// keyed by its attribution source: add /documentations/<source>, the
// source "" without an attribution, with arrayPrimaryKeys
// {"documentations":["attribution␟source"]}. An entry from the same
// source replaces the earlier one.
func (b *Builder) AddDocumentation(doc aspects.DocumentationAssociation) {
	b.keyedOp("documentation", "documentations", []string{attributionSource}, OpAdd,
		Path("documentations", sourceOf(doc.Attribution)), doc)
}

// RemoveDocumentation removes the documentation entry of source, or every
// entry when source is "".
func (b *Builder) RemoveDocumentation(source string) {
	path := "/documentations"
	if source != "" {
		path = Path("documentations", source)
	}
	b.keyedOp("documentation", "documentations", []string{attributionSource}, OpRemove, path, struct{}{})
}

// AddLink adds a link (an institutionalMemory element) keyed by its URL:
// add /elements/<url> with arrayPrimaryKeys {"elements":["url"]}, which
// sends it to the server's generic patcher (DataHub has no template for
// institutionalMemory).
func (b *Builder) AddLink(link aspects.InstitutionalMemoryMetadata) {
	b.keyedOp("institutionalMemory", "elements", []string{"url"}, OpAdd, Path("elements", link.URL), link)
}

// RemoveLink removes the link with URL url.
func (b *Builder) RemoveLink(url string) {
	b.keyedOp("institutionalMemory", "elements", []string{"url"}, OpRemove, Path("elements", url), struct{}{})
}

// SetRemoved sets status.removed, soft-deleting the entity (true) or
// restoring it (false), as DataHub's Python StatusPatchBuilder does.
func (b *Builder) SetRemoved(removed bool) { b.Add("status", "/removed", removed) }

// AddCustomProperty sets one custom property: add /customProperties/<key>
// on the entity type's properties aspect (datasetProperties,
// mlModelProperties, ...).
func (b *Builder) AddCustomProperty(key, value string) {
	if a := b.propertiesAspect(); a != "" {
		b.Add(a, Path("customProperties", key), value)
	}
}

// RemoveCustomProperty removes one custom property.
func (b *Builder) RemoveCustomProperty(key string) {
	if a := b.propertiesAspect(); a != "" {
		b.Remove(a, Path("customProperties", key))
	}
}

// SetCustomProperties replaces all custom properties.
func (b *Builder) SetCustomProperties(props map[string]string) {
	if props == nil {
		props = map[string]string{}
	}
	if a := b.propertiesAspect(); a != "" {
		b.Add(a, "/customProperties", props)
	}
}

func (b *Builder) propertiesAspect() string {
	if b.props == "" && b.urn != nil {
		b.fail(fmt.Errorf("patch: no properties aspect with custom properties known for entity type %s: %w", b.urn.EntityType(), datahub.ErrValidation))
	}
	return b.props
}
