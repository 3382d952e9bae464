package mockserver

// WithDefaultAspects sets whether a write that creates an entity also
// writes the aspects GMS adds to a new entity (DefaultAspectsUtil, with
// browse paths v2 on): browsePathsV2 (a dataset's name split on its
// platform's delimiter, else a folder "Default") and dataPlatformInstance
// (the platform of the entity's key), unless the batch writes them or they
// are stored. A synchronous OpenAPI v3 batch write answers them, with the
// key aspect, for each entity it created. The default is true, as GMS
// does; false keeps an entity to the aspects written to it.
func WithDefaultAspects(on bool) Option {
	return Option{func(c *config) { c.noDefaultAspects = !on }}
}

// WithAlternateMCPValidation sets GMS's alternateMCPValidation flag
// (ALTERNATE_MCP_VALIDATION): when true, an OpenAPI v3 batch write whose
// item names an aspect the entity does not have is refused with 400
// "Validation Error"; when false, GMS's code default, that member is left
// out of the batch and the rest is written. The default is true, as
// DataHub's quickstart runs GMS.
func WithAlternateMCPValidation(on bool) Option {
	return Option{func(c *config) { c.lenientMCPValidation = !on }}
}

// WithBootstrap sets whether the server starts (and [Server.Reset] leaves
// it) holding the entities a fresh DataHub GMS writes on its first start:
// the data platforms of DataHub's bootstrap (urn:li:dataPlatform:hive ...,
// with their dataPlatformInfo: name, display name, type, delimiter, logo),
// the structured-property data types (urn:li:dataType:datahub.string ...)
// and one entity type per entity of the registry
// (urn:li:entityType:datahub.dataset ...). They are then listed, searched
// and counted as any other entity. The default is false: the server starts
// empty, so that the counts a test sees are its own. Either way the checks
// that a referenced entity exists (a structured property's valueType,
// entityTypes and allowedPlatforms, an owner's ownership type) count these
// entities as existing, as a fresh DataHub has them.
func WithBootstrap(on bool) Option {
	return Option{func(c *config) { c.bootstrap = on }}
}
