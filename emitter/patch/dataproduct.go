package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

const dataProductProperties = "dataProductProperties"

// DataProduct builds the patches of a data product, as DataHub's Python
// DataProductPatchBuilder does: dataProductProperties fields and assets;
// the embedded Builder gives tags, terms, owners, domains, structured
// properties, links and custom properties (on dataProductProperties).
type DataProduct struct {
	*Builder
}

// NewDataProduct returns a patch builder for data product u.
func NewDataProduct(u urn.DataProduct) *DataProduct { return &DataProduct{New(u)} }

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

// AddAsset adds the asset with URN u (any entity): add /assets/<urn> with
// {"destinationUrn": <urn>, "outputPort": false}.
func (p *DataProduct) AddAsset(u string) {
	p.AddAssetAssociation(aspects.DataProductAssociation{DestinationURN: u})
}

// AddAssetAssociation adds an asset, keyed by its destination.
func (p *DataProduct) AddAssetAssociation(a aspects.DataProductAssociation) {
	p.Add(dataProductProperties, Path("assets", a.DestinationURN), a)
}

// RemoveAsset removes the asset with URN u.
func (p *DataProduct) RemoveAsset(u string) {
	p.Remove(dataProductProperties, Path("assets", u))
}

// SetAssets replaces all assets.
func (p *DataProduct) SetAssets(assets []aspects.DataProductAssociation) {
	if assets == nil {
		assets = []aspects.DataProductAssociation{}
	}
	p.Add(dataProductProperties, "/assets", assets)
}
