package gms

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// LineageEdge is one edge of an updateLineage: the downstream entity and
// its upstream.
type LineageEdge struct{ Downstream, Upstream string }

// LineageActor is the actor of the audit stamps updateLineage writes for a
// request of the system actor (see [MutationActor]).
const LineageActor = "urn:li:corpuser:datahub"

// UpdateLineage adds and removes lineage edges as DataHub's
// UpdateLineageResolver and LineageService do: every URN must be valid
// (checked for every edge, the added ones first, before any existence) and
// must exist (soft-deleted ones do); then, per downstream, one
// read-modify-write ([Core.Update], so no concurrent edge is lost, and
// refused if the entity was deleted since) of the aspect that holds its
// upstreams: a dataset's upstreamLineage.upstreams (dataJob upstreams
// skipped), a chart's chartInfo.inputEdges, a dashboard's
// dashboardInfo.datasetEdges and chartEdges, a data job's
// dataJobInputOutput input edges; a data job upstream also gets the
// downstream dataset in its output edges. Removal wins over addition; other
// entity types are ignored.
func (c *Core) UpdateLineage(ctx context.Context, add, remove []LineageEdge) error {
	now := c.opts.Clock().UnixMilli()
	edges := slices.Concat(add, remove)
	for _, e := range edges {
		for _, u := range []string{e.Downstream, e.Upstream} {
			if _, err := CheckURN(u); err != nil {
				return err
			}
		}
	}
	for _, e := range edges {
		for _, u := range []string{e.Downstream, e.Upstream} {
			ok, err := c.Exists(ctx, u)
			if err != nil {
				return err
			}
			if !ok {
				return lineageMissing(u)
			}
		}
	}
	type change struct{ add, remove []string }
	ups := map[string]*change{}   // downstream → its upstreams
	downs := map[string]*change{} // dataJob upstream → its output datasets
	var order []string
	for i, set := range [][]LineageEdge{add, remove} {
		for _, e := range set {
			ch := ups[e.Downstream]
			if ch == nil {
				ch = &change{}
				ups[e.Downstream] = ch
				order = append(order, e.Downstream)
			}
			if i == 0 {
				ch.add = append(ch.add, e.Upstream)
			} else {
				ch.remove = append(ch.remove, e.Upstream)
			}
			if EntityTypeOf(e.Upstream) == "dataJob" && EntityTypeOf(e.Downstream) == "dataset" {
				d := downs[e.Upstream]
				if d == nil {
					d = &change{}
					downs[e.Upstream] = d
				}
				if i == 0 {
					d.add = append(d.add, e.Downstream)
				} else {
					d.remove = append(d.remove, e.Downstream)
				}
			}
		}
	}
	stamp := map[string]any{"time": now, "actor": mutationActor(ctx)}
	edge := func(u string) map[string]any {
		return map[string]any{"destinationUrn": u, "created": stamp, "lastModified": stamp}
	}
	for _, down := range order {
		ch := ups[down]
		var err error
		switch EntityTypeOf(down) {
		case "dataset":
			err = c.editLists(ctx, down, "upstreamLineage", false, func(obj map[string]any) {
				var keep []string
				for _, u := range ch.add {
					if EntityTypeOf(u) != "dataJob" {
						keep = append(keep, u)
					}
				}
				obj["upstreams"] = editList(obj["upstreams"], "dataset", keep, ch.remove, func(u string) map[string]any {
					return map[string]any{"dataset": u, "auditStamp": stamp, "created": stamp, "type": "TRANSFORMED",
						"properties": map[string]any{"source": "UI"}}
				})
			})
		case "chart":
			err = c.editLists(ctx, down, "chartInfo", true, func(obj map[string]any) {
				obj["inputEdges"] = editList(obj["inputEdges"], "destinationUrn", ch.add, ch.remove, edge)
			})
		case "dashboard":
			err = c.editLists(ctx, down, "dashboardInfo", true, func(obj map[string]any) {
				ds, charts := byType(ch.add, "dataset"), byType(ch.add, "chart")
				obj["datasetEdges"] = editList(obj["datasetEdges"], "destinationUrn", ds, ch.remove, edge)
				obj["chartEdges"] = editList(obj["chartEdges"], "destinationUrn", charts, ch.remove, edge)
			})
		case "dataJob":
			err = c.editLists(ctx, down, "dataJobInputOutput", false, func(obj map[string]any) {
				ds, jobs := byType(ch.add, "dataset"), byType(ch.add, "dataJob")
				obj["inputDatasetEdges"] = editList(obj["inputDatasetEdges"], "destinationUrn", ds, ch.remove, edge)
				obj["inputDatajobEdges"] = editList(obj["inputDatajobEdges"], "destinationUrn", jobs, ch.remove, edge)
				obj["inputDatasets"] = removeURNs(obj["inputDatasets"], ch.remove)
				if obj["inputDatajobs"] != nil {
					obj["inputDatajobs"] = removeURNs(obj["inputDatajobs"], ch.remove)
				}
			})
		}
		if err != nil {
			return err
		}
	}
	jobs := make([]string, 0, len(downs))
	for j := range downs {
		jobs = append(jobs, j)
	}
	slices.Sort(jobs)
	for _, job := range jobs {
		d := downs[job]
		if err := c.editLists(ctx, job, "dataJobInputOutput", false, func(obj map[string]any) {
			obj["outputDatasetEdges"] = editList(obj["outputDatasetEdges"], "destinationUrn", d.add, d.remove, edge)
			obj["outputDatasets"] = removeURNs(obj["outputDatasets"], d.remove)
		}); err != nil {
			return err
		}
	}
	return nil
}

func byType(urns []string, entityType string) []string {
	var out []string
	for _, u := range urns {
		if EntityTypeOf(u) == entityType {
			out = append(out, u)
		}
	}
	return out
}

// lineageMissing is the refusal of an edge whose entity u does not exist.
func lineageMissing(u string) *Error { return errorf(BadArgument, MsgLineageMissing, u) }

// editLists is a read-modify-write of aspect of u that change edits as a
// JSON object; mustExist refuses an absent aspect (one whose required
// members the mock cannot make up). A dataJobInputOutput gets its required
// lists. The write checks that u still exists inside the store's writer
// lock, so that an entity deleted after UpdateLineage's existence checks
// is not brought back by its edges.
func (c *Core) editLists(ctx context.Context, u, aspect string, mustExist bool, change func(map[string]any)) error {
	err := c.Update(ctx, u, aspect, func(cur json.RawMessage) (json.RawMessage, error) {
		obj := map[string]any{}
		if cur == nil && mustExist {
			return nil, errorf(BadArgument, MsgLineageFailed, u)
		}
		if cur != nil {
			if err := json.Unmarshal(cur, &obj); err != nil {
				return nil, errorf(Internal, MsgLineageFailed, u)
			}
		}
		if aspect == "dataJobInputOutput" {
			for _, k := range []string{"inputDatasets", "outputDatasets"} {
				if obj[k] == nil {
					obj[k] = []any{}
				}
			}
		}
		change(obj)
		return json.Marshal(obj)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: lineageMissing})
	if err != nil {
		if e := AsError(err); e != nil && e.Message != fmt.Sprintf(MsgLineageFailed, u) {
			return errorf(e.Kind, MsgLineageFailed+". %s", u, e.Message)
		}
	}
	return err
}

// editList removes the items whose key member is in remove and appends an
// item made by mk for every add not present (removal wins).
func editList(list any, key string, add, remove []string, mk func(string) map[string]any) []any {
	items, _ := list.([]any)
	out := make([]any, 0, len(items)+len(add))
	have := map[string]bool{}
	for _, it := range items {
		m, _ := it.(map[string]any)
		u, _ := m[key].(string)
		if slices.Contains(remove, u) {
			continue
		}
		have[u] = true
		out = append(out, it)
	}
	for _, u := range add {
		if !have[u] && !slices.Contains(remove, u) {
			have[u] = true
			out = append(out, mk(u))
		}
	}
	return out
}

// removeURNs drops the URNs in remove from a list of URNs.
func removeURNs(list any, remove []string) []any {
	items, _ := list.([]any)
	out := make([]any, 0, len(items))
	for _, it := range items {
		if u, _ := it.(string); !slices.Contains(remove, u) {
			out = append(out, it)
		}
	}
	return out
}
