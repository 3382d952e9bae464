package patch

import "github.com/catalogkit/datahub-go/urn"

const dashboardInfo = "dashboardInfo"

// Dashboard builds the patches of a dashboard, as DataHub's Python
// DashboardPatchBuilder does: dashboardInfo fields and chart, dataset and
// dashboard edges; the embedded Builder gives tags, terms, owners,
// domains, structured properties, links and custom properties (on
// dashboardInfo).
type Dashboard struct {
	*Builder
}

// NewDashboard returns a patch builder for dashboard u
// ("urn:li:dashboard:(...)"); another entity type fails Proposals.
func NewDashboard(u urn.URN) *Dashboard { return &Dashboard{newTyped(u, "dashboard")} }

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

// SetAccess sets dashboardInfo.access: "PUBLIC" or "PRIVATE".
func (d *Dashboard) SetAccess(access string) { d.Add(dashboardInfo, "/access", access) }

// SetLastRefreshed sets dashboardInfo.lastRefreshed, in epoch milliseconds.
func (d *Dashboard) SetLastRefreshed(ms int64) { d.Add(dashboardInfo, "/lastRefreshed", ms) }

// AddChart adds a chart edge: add /chartEdges/<chart urn>.
func (d *Dashboard) AddChart(chart string) { d.addEdge(dashboardInfo, "chartEdges", chart, "chart") }

// RemoveChart removes the chart edge to chart.
func (d *Dashboard) RemoveChart(chart string) { d.Remove(dashboardInfo, Path("chartEdges", chart)) }

// SetCharts replaces all chart edges.
func (d *Dashboard) SetCharts(charts []string) {
	d.setEdges(dashboardInfo, "chartEdges", charts, "chart")
}

// AddDataset adds a dataset edge: add /datasetEdges/<dataset urn>.
func (d *Dashboard) AddDataset(dataset string) {
	d.addEdge(dashboardInfo, "datasetEdges", dataset, "dataset")
}

// RemoveDataset removes the dataset edge to dataset.
func (d *Dashboard) RemoveDataset(dataset string) {
	d.Remove(dashboardInfo, Path("datasetEdges", dataset))
}

// SetDatasets replaces all dataset edges.
func (d *Dashboard) SetDatasets(datasets []string) {
	d.setEdges(dashboardInfo, "datasetEdges", datasets, "dataset")
}

// AddDashboard adds an edge to a contained dashboard: add
// /dashboards/<dashboard urn>.
func (d *Dashboard) AddDashboard(dashboard string) {
	d.addEdge(dashboardInfo, "dashboards", dashboard, "dashboard")
}
