package entitygen

// mixin is a set of helper methods every type with the aspects gets, as
// DataHub's Python SDK v2 has mixins (HasTags, HasOwnership, ...). A body
// names an aspect's field as $aspectName and the custom properties' field
// as $custom; the functions it calls are hand-written in package entity.
type mixin struct {
	aspects          []string
	customProperties bool
	methods          []method
}

type method struct{ doc, sig, body string }

var mixins = []mixin{
	{aspects: []string{"globalTags"}, methods: []method{
		{"SetTags sets the entity's tags (globalTags) to tags, replacing those it had.",
			"SetTags(tags ...urn.Tag)", "setTags(&$globalTags, tags)"},
		{"AddTag adds tag to the entity's tags (globalTags); an association of the same tag is replaced.",
			"AddTag(tag urn.Tag)", "addTag(&$globalTags, tag)"},
		{"RemoveTag removes tag from the entity's tags (globalTags); it is no error when the entity does not have it.",
			"RemoveTag(tag urn.Tag)", "removeTag(&$globalTags, tag)"},
	}},
	{aspects: []string{"glossaryTerms"}, methods: []method{
		{"SetTerms sets the entity's glossary terms (glossaryTerms) to terms, replacing those it had.",
			"SetTerms(terms ...urn.GlossaryTerm)", "setTerms(&$glossaryTerms, terms)"},
		{"AddTerm adds term to the entity's glossary terms (glossaryTerms); an association of the same term is replaced.",
			"AddTerm(term urn.GlossaryTerm)", "addTerm(&$glossaryTerms, term)"},
		{"RemoveTerm removes term from the entity's glossary terms (glossaryTerms); it is no error when the entity does not have it.",
			"RemoveTerm(term urn.GlossaryTerm)", "removeTerm(&$glossaryTerms, term)"},
	}},
	{aspects: []string{"ownership"}, methods: []method{
		{"SetOwners sets the entity's owners (ownership) to owners (see NewOwner), replacing those it had. An owner without a type is a technical owner, or a custom one when it has an ownership type URN.",
			"SetOwners(owners ...aspects.Owner)", "setOwners(&$ownership, owners)"},
		{"AddOwner adds owner (see NewOwner) to the entity's owners (ownership); an owner with the same URN and type is replaced. An owner without a type is a technical owner, or a custom one when it has an ownership type URN.",
			"AddOwner(owner aspects.Owner)", "addOwner(&$ownership, owner)"},
		{"RemoveOwner removes owner from the entity's owners (ownership): with the type of owner when it has one (a type or an ownership type URN), under every type when it has none.",
			"RemoveOwner(owner aspects.Owner)", "removeOwner(&$ownership, owner)"},
	}},
	{aspects: []string{"domains"}, methods: []method{
		{"SetDomain sets the entity's domain (domains) to domain, replacing the domains it had.",
			"SetDomain(domain urn.Domain)", "setDomain(&$domains, domain)"},
	}},
	{aspects: []string{"institutionalMemory"}, methods: []method{
		{"SetLinks sets the entity's links (institutionalMemory) to links (see NewLink), replacing those it had.",
			"SetLinks(links ...aspects.InstitutionalMemoryMetadata)", "setLinks(&$institutionalMemory, links)"},
		{"AddLink adds a link to url described by description (url itself when \"\") to the entity's links (institutionalMemory); a link with the same URL is replaced.",
			"AddLink(url, description string)", "addLink(&$institutionalMemory, url, description)"},
		{"RemoveLink removes the links to url from the entity's links (institutionalMemory); it is no error when it has none.",
			"RemoveLink(url string)", "removeLink(&$institutionalMemory, url)"},
	}},
	{aspects: []string{"subTypes"}, methods: []method{
		{"SetSubtype sets the entity's subtype (subTypes) to subtype, such as \"Table\" or \"View\", replacing those it had.",
			"SetSubtype(subtype string)", "setSubtype(&$subTypes, subtype)"},
	}},
	{aspects: []string{"dataPlatformInstance"}, methods: []method{
		{"SetPlatformInstance sets the entity's platform and platform instance (dataPlatformInstance); instance \"\" means none. It fails when platform and instance make no dataPlatformInstance URN.",
			"SetPlatformInstance(platform urn.DataPlatform, instance string) error", "return setPlatformInstance(&$dataPlatformInstance, platform, instance)"},
	}},
	{aspects: []string{"container", "browsePathsV2"}, methods: []method{
		{"SetContainer puts the entity in container parent (container) and sets its browse path (browsePathsV2) to parent's followed by parent, as DataHub's Python SDK does. It fails when parent has no browse path (set one on the root container with SetBrowsePath).",
			"SetContainer(parent *Container) error", "return setContainer(&$container, &$browsePathsV2, parent)"},
		{"SetContainerKey puts the entity in the container key names (container) and sets its browse path (browsePathsV2) to the chain of key's parents, root first, after the platform instance when key has one, as DataHub's Python SDK does for a container key. It fails when a key makes no URN.",
			"SetContainerKey(key ParentKey) error", "return setContainerKey(&$container, &$browsePathsV2, key)"},
		{"SetBrowsePath sets the entity's browse path (browsePathsV2) to path, each entry a URN or a plain name, and its container (container) to the last container URN of path, if any.",
			"SetBrowsePath(path ...string) error", "return setBrowsePath(&$container, &$browsePathsV2, path)"},
	}},
	{aspects: []string{"structuredProperties"}, methods: []method{
		{"SetStructuredProperty sets the values of structured property p (structuredProperties), replacing those it had: each a string or a number (any Go integer or float type). It fails for another kind of value.",
			"SetStructuredProperty(p urn.StructuredProperty, values ...any) error", "return setStructuredProperty(&$structuredProperties, p, values)"},
		{"RemoveStructuredProperty removes structured property p's values (structuredProperties); it is no error when the entity has none.",
			"RemoveStructuredProperty(p urn.StructuredProperty)", "removeStructuredProperty(&$structuredProperties, p)"},
	}},
	{aspects: []string{"deprecation"}, methods: []method{
		{"Deprecate marks the entity deprecated (deprecation) with note, to be decommissioned at decommission (none when zero).",
			"Deprecate(note string, decommission time.Time)", "deprecate(&$deprecation, note, decommission)"},
		{"Undeprecate marks the entity not deprecated (deprecation).",
			"Undeprecate()", "undeprecate(&$deprecation)"},
	}},
	{aspects: []string{"versionProperties"}, methods: []method{
		{"SetVersion sets the entity's version label (versionProperties) in the version set DataHub's Python SDK derives from its URN, with a sort id of the label padded to ten characters.",
			"SetVersion(version string)", "setVersion(&$versionProperties, e.URN, version)"},
		{"SetVersionAliases sets the aliases of the entity's version (versionProperties), starting version 0.1.0 when it has none.",
			"SetVersionAliases(aliases ...string)", "setVersionAliases(&$versionProperties, e.URN, aliases)"},
		{"AddVersionAlias adds alias to the aliases of the entity's version (versionProperties), starting version 0.1.0 when it has none. It fails for an empty alias.",
			"AddVersionAlias(alias string) error", "return addVersionAlias(&$versionProperties, e.URN, alias)"},
		{"RemoveVersionAlias removes alias from the aliases of the entity's version (versionProperties).",
			"RemoveVersionAlias(alias string)", "removeVersionAlias(&$versionProperties, alias)"},
	}},
	{customProperties: true, methods: []method{
		{"SetCustomProperties sets the entity's custom properties (in $custom) to props, replacing those it had.",
			"SetCustomProperties(props map[string]string)", "setCustomProperties(&$custom, props)"},
		{"SetCustomProperty sets the entity's custom property key (in $custom) to value.",
			"SetCustomProperty(key, value string)", "setCustomProperty(&$custom, key, value)"},
		{"RemoveCustomProperty removes the entity's custom property key (in $custom).",
			"RemoveCustomProperty(key string)", "removeCustomProperty(&$custom, key)"},
	}},
}
