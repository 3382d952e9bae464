package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

const chartInfo = "chartInfo"

// Chart builds the patches of a chart, as DataHub's Python
// ChartPatchBuilder does: chartInfo fields and input edges; the embedded
// Builder gives tags, terms, owners, domains, structured properties,
// documentation, links and custom properties (on chartInfo).
type Chart struct {
	*Builder
}

// NewChart returns a patch builder for chart u.
func NewChart(u urn.Chart) *Chart { return &Chart{New(u)} }

// SetTitle sets chartInfo.title.
func (c *Chart) SetTitle(title string) { c.Add(chartInfo, "/title", title) }

// SetDescription sets chartInfo.description.
func (c *Chart) SetDescription(description string) { c.Add(chartInfo, "/description", description) }

// SetExternalURL sets chartInfo.externalUrl.
func (c *Chart) SetExternalURL(url string) { c.Add(chartInfo, "/externalUrl", url) }

// SetChartURL sets chartInfo.chartUrl.
func (c *Chart) SetChartURL(url string) { c.Add(chartInfo, "/chartUrl", url) }

// SetType sets chartInfo.type.
func (c *Chart) SetType(typ aspects.ChartType) { c.Add(chartInfo, "/type", typ) }

// SetAccess sets chartInfo.access.
func (c *Chart) SetAccess(access aspects.AccessLevel) { c.Add(chartInfo, "/access", access) }

// SetLastRefreshed sets chartInfo.lastRefreshed, in epoch milliseconds.
func (c *Chart) SetLastRefreshed(ms int64) { c.Add(chartInfo, "/lastRefreshed", ms) }

// SetLastModified sets chartInfo.lastModified.
func (c *Chart) SetLastModified(stamps aspects.ChangeAuditStamps) {
	c.Add(chartInfo, "/lastModified", stamps)
}

// AddInput adds an input edge to the dataset or chart u: add
// /inputEdges/<urn> with {"destinationUrn": <urn>}.
func (c *Chart) AddInput(u string) { c.AddInputEdge(to(u)) }

// AddInputEdge adds an input edge (to a dataset or a chart), keyed by its
// destination.
func (c *Chart) AddInputEdge(e aspects.Edge) {
	c.addEdge(chartInfo, "inputEdges", e, "dataset", "chart")
}

// RemoveInput removes the input edge to u.
func (c *Chart) RemoveInput(u string) { c.Remove(chartInfo, Path("inputEdges", u)) }

// SetInputEdges replaces all input edges.
func (c *Chart) SetInputEdges(edges []aspects.Edge) {
	c.setEdges(chartInfo, "inputEdges", edges, "dataset", "chart")
}
