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
