package patch

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

const dashboardInfo = "dashboardInfo"

// Dashboard builds the patches of a dashboard, as DataHub's Python
// DashboardPatchBuilder does: dashboardInfo fields and chart, dataset and
// dashboard edges; the embedded Builder gives tags, terms, owners,
// domains, structured properties, documentation, links and custom
// properties (on dashboardInfo).
type Dashboard struct {
	*Builder
}

// NewDashboard returns a patch builder for dashboard u.
func NewDashboard(u urn.Dashboard) *Dashboard { return &Dashboard{New(u)} }

// SetTitle sets dashboardInfo.title.
func (d *Dashboard) SetTitle(title string) { d.Add(dashboardInfo, "/title", title) }

// SetDescription sets dashboardInfo.description.
func (d *Dashboard) SetDescription(description string) {
	d.Add(dashboardInfo, "/description", description)
}

// SetExternalURL sets dashboardInfo.externalUrl.
func (d *Dashboard) SetExternalURL(url string) { d.Add(dashboardInfo, "/externalUrl", url) }

// SetDashboardURL sets dashboardInfo.dashboardUrl.
func (d *Dashboard) SetDashboardURL(url string) { d.Add(dashboardInfo, "/dashboardUrl", url) }

// SetAccess sets dashboardInfo.access.
func (d *Dashboard) SetAccess(access aspects.AccessLevel) { d.Add(dashboardInfo, "/access", access) }

// SetLastRefreshed sets dashboardInfo.lastRefreshed, in epoch milliseconds.
func (d *Dashboard) SetLastRefreshed(ms int64) { d.Add(dashboardInfo, "/lastRefreshed", ms) }

// SetLastModified sets dashboardInfo.lastModified.
func (d *Dashboard) SetLastModified(stamps aspects.ChangeAuditStamps) {
	d.Add(dashboardInfo, "/lastModified", stamps)
}

// AddChart adds a chart edge to chart: add /chartEdges/<chart urn> with
// {"destinationUrn": <urn>}.
func (d *Dashboard) AddChart(chart string) { d.AddChartEdge(to(chart)) }

// AddChartEdge adds a chart edge, keyed by its destination.
func (d *Dashboard) AddChartEdge(e aspects.Edge) { d.addEdge(dashboardInfo, "chartEdges", e, "chart") }

// RemoveChart removes the chart edge to chart.
func (d *Dashboard) RemoveChart(chart string) { d.Remove(dashboardInfo, Path("chartEdges", chart)) }

// SetChartEdges replaces all chart edges.
func (d *Dashboard) SetChartEdges(edges []aspects.Edge) {
	d.setEdges(dashboardInfo, "chartEdges", edges, "chart")
}

// AddDataset adds a dataset edge to dataset: add
// /datasetEdges/<dataset urn>.
func (d *Dashboard) AddDataset(dataset string) { d.AddDatasetEdge(to(dataset)) }

// AddDatasetEdge adds a dataset edge, keyed by its destination.
func (d *Dashboard) AddDatasetEdge(e aspects.Edge) {
	d.addEdge(dashboardInfo, "datasetEdges", e, "dataset")
}

// RemoveDataset removes the dataset edge to dataset.
func (d *Dashboard) RemoveDataset(dataset string) {
	d.Remove(dashboardInfo, Path("datasetEdges", dataset))
}

// SetDatasetEdges replaces all dataset edges.
func (d *Dashboard) SetDatasetEdges(edges []aspects.Edge) {
	d.setEdges(dashboardInfo, "datasetEdges", edges, "dataset")
}

// AddDashboard adds an edge to a contained dashboard: add
// /dashboards/<dashboard urn>.
func (d *Dashboard) AddDashboard(dashboard string) { d.AddDashboardEdge(to(dashboard)) }

// AddDashboardEdge adds an edge to a contained dashboard, keyed by its
// destination.
func (d *Dashboard) AddDashboardEdge(e aspects.Edge) {
	d.addEdge(dashboardInfo, "dashboards", e, "dashboard")
}

// RemoveDashboard removes the edge to a contained dashboard.
func (d *Dashboard) RemoveDashboard(dashboard string) {
	d.Remove(dashboardInfo, Path("dashboards", dashboard))
}
