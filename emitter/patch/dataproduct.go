package patch

import "github.com/catalogkit/datahub-go/urn"

const dataProductProperties = "dataProductProperties"

// DataProduct builds the patches of a data product, as DataHub's Python
// DataProductPatchBuilder does: dataProductProperties fields and assets;
// the embedded Builder gives tags, terms, owners, domains, structured
// properties, links and custom properties (on dataProductProperties).
type DataProduct struct {
	*Builder
}

// NewDataProduct returns a patch builder for data product u
// ("urn:li:dataProduct:<id>"); another entity type fails Proposals.
func NewDataProduct(u urn.URN) *DataProduct { return &DataProduct{newTyped(u, "dataProduct")} }

// SetName sets dataProductProperties.name.
func (p *DataProduct) SetName(name string) { p.Add(dataProductProperties, "/name", name) }

// SetDescription sets dataProductProperties.description.
func (p *DataProduct) SetDescription(description string) {
	p.Add(dataProductProperties, "/description", description)
}

// SetExternalURL sets dataProductProperties.externalUrl.
func (p *DataProduct) SetExternalURL(url string) {
	p.Add(dataProductProperties, "/externalUrl", url)
}

// AddAsset adds an asset (any entity URN): add /assets/<urn> with
// {"destinationUrn": <urn>}.
func (p *DataProduct) AddAsset(asset string) {
	p.Add(dataProductProperties, Path("assets", asset), edge{asset})
}

// RemoveAsset removes an asset.
func (p *DataProduct) RemoveAsset(asset string) {
	p.Remove(dataProductProperties, Path("assets", asset))
}

// SetAssets replaces all assets.
func (p *DataProduct) SetAssets(assets []string) {
	edges := make([]edge, 0, len(assets))
	for _, a := range assets {
		edges = append(edges, edge{a})
	}
	p.Add(dataProductProperties, "/assets", edges)
}
