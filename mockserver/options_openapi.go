package mockserver

// WithEntityVersioning turns DataHub's entityVersioning feature flag on or
// off. With it off (the default, as DataHub's quickstart runs:
// ENTITY_VERSIONING_ENABLED=false) the routes under
// /openapi/v3/entity/versioning/ answer 500 "Entity Versioning is not
// configured, ..." and the GraphQL mutations linkAssetVersion and
// unlinkAssetVersion an unknown error; with it on they link and unlink
// versions.
func WithEntityVersioning(on bool) Option {
	return Option{func(c *config) { c.versioning = on }}
}
