package patch

import (
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
)

// The aspect mixins every entity builder has: tags, glossary terms, owners,
// links and custom properties. Paths and values are those of DataHub's
// Python helpers (datahub/specific/aspect_helpers).

// AddTag adds tag to the entity's globalTags: add /tags/<tag urn>.
func (b *Builder) AddTag(tag aspects.TagAssociation) {
	b.Add("globalTags", Path("tags", tag.Tag), tag)
}

// RemoveTag removes the tag with URN tagURN from globalTags.
func (b *Builder) RemoveTag(tagURN string) { b.Remove("globalTags", Path("tags", tagURN)) }

// AddTerm adds a glossary term to the entity's glossaryTerms: add
// /terms/<term urn>/<attribution source>, the source "" for a term without
// one. DataHub keys terms by URN and attribution source, as its Python
// HasTermsPatch.add_term addresses them.
func (b *Builder) AddTerm(term aspects.GlossaryTermAssociation) {
	b.Add("glossaryTerms", termPath(nil, term), term)
}

// termPath is the path of term under prefix: terms/<urn>/<source>.
func termPath(prefix []string, term aspects.GlossaryTermAssociation) string {
	source := ""
	if term.Attribution != nil && term.Attribution.Source != nil {
		source = *term.Attribution.Source
	}
	return Path(append(prefix, "terms", term.URN, source)...)
}

// RemoveTerm removes the glossary term with URN termURN, whatever its
// attribution source.
func (b *Builder) RemoveTerm(termURN string) { b.Remove("glossaryTerms", Path("terms", termURN)) }

// AddOwner adds owner to the entity's ownership: add
// /owners/<owner urn>/<type>. An owner may hold several types.
func (b *Builder) AddOwner(owner aspects.Owner) {
	b.Add("ownership", Path("owners", owner.Owner, string(owner.Type)), owner)
}

// RemoveOwner removes owner's ownership of type typ, or of every type when
// typ is "". The value sent is the owner's URN, as DataHub's Python builder
// sends it.
func (b *Builder) RemoveOwner(owner string, typ aspects.OwnershipType) {
	path := Path("owners", owner)
	if typ != "" {
		path = Path("owners", owner, string(typ))
	}
	b.op("ownership", OpRemove, path, owner)
}

// SetOwners replaces all owners: add /owners with the whole list.
func (b *Builder) SetOwners(owners []aspects.Owner) {
	if owners == nil {
		owners = []aspects.Owner{}
	}
	b.Add("ownership", "/owners", owners)
}

// AddLink adds a link (an institutionalMemory element) keyed by its URL.
// DataHub has no patch template for institutionalMemory (a bare patch
// fails with 500, datahub-project/datahub #18851), so the patch is sent
// with arrayPrimaryKeys {"elements":["url"]} to the generic patcher.
func (b *Builder) AddLink(link aspects.InstitutionalMemoryMetadata) {
	b.SetArrayPrimaryKeys("institutionalMemory", "elements", "url")
	b.Add("institutionalMemory", Path("elements", link.URL), link)
}

// RemoveLink removes the link with URL url.
func (b *Builder) RemoveLink(url string) {
	b.SetArrayPrimaryKeys("institutionalMemory", "elements", "url")
	b.Remove("institutionalMemory", Path("elements", url))
}

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
