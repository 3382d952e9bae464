package patch

import "github.com/catalogkit/datahub-go/urn"

const chartInfo = "chartInfo"

// Chart builds the patches of a chart, as DataHub's Python
// ChartPatchBuilder does: chartInfo fields and input edges; the embedded
// Builder gives tags, terms, owners, domains, structured properties, links
// and custom properties (on chartInfo).
type Chart struct {
	*Builder
}

// NewChart returns a patch builder for chart u ("urn:li:chart:(...)");
// another entity type fails Proposals.
func NewChart(u urn.URN) *Chart { return &Chart{newTyped(u, "chart")} }

// SetTitle sets chartInfo.title.
func (c *Chart) SetTitle(title string) { c.Add(chartInfo, "/title", title) }

// SetDescription sets chartInfo.description.
func (c *Chart) SetDescription(description string) { c.Add(chartInfo, "/description", description) }

// SetExternalURL sets chartInfo.externalUrl.
func (c *Chart) SetExternalURL(url string) { c.Add(chartInfo, "/externalUrl", url) }

// SetChartURL sets chartInfo.chartUrl.
func (c *Chart) SetChartURL(url string) { c.Add(chartInfo, "/chartUrl", url) }

// SetType sets chartInfo.type, a ChartType symbol ("BAR", "LINE", "TABLE", ...).
func (c *Chart) SetType(typ string) { c.Add(chartInfo, "/type", typ) }

// SetAccess sets chartInfo.access: "PUBLIC" or "PRIVATE".
func (c *Chart) SetAccess(access string) { c.Add(chartInfo, "/access", access) }

// SetLastRefreshed sets chartInfo.lastRefreshed, in epoch milliseconds.
func (c *Chart) SetLastRefreshed(ms int64) { c.Add(chartInfo, "/lastRefreshed", ms) }

// AddInput adds an input edge to a dataset or chart: add
// /inputEdges/<urn> with {"destinationUrn": <urn>}.
func (c *Chart) AddInput(u string) { c.addEdge(chartInfo, "inputEdges", u, "dataset", "chart") }

// RemoveInput removes the input edge to u.
func (c *Chart) RemoveInput(u string) { c.Remove(chartInfo, Path("inputEdges", u)) }

// SetInputs replaces all input edges with edges to the URNs.
func (c *Chart) SetInputs(urns []string) {
	c.setEdges(chartInfo, "inputEdges", urns, "dataset", "chart")
}
