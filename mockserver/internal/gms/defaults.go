package gms

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// DefaultAspect is an aspect GMS wrote along with a proposal because the
// proposal's batch created its entity (DefaultAspectsUtil): the key aspect,
// browsePathsV2 and dataPlatformInstance.
type DefaultAspect struct {
	Name  string
	Value json.RawMessage
}

// The default aspects follow DefaultAspectsUtil.getAdditionalChanges with
// browse paths v2 on (the v1 browsePaths aspect is not added), as GMS runs
// by default: for each URN of a batch whose entity does not exist yet and
// that has a proposal other than a DELETE or a timeseries aspect, the
// aspects among browsePathsV2 and dataPlatformInstance that the entity
// has, that the batch does not write and that are not stored are written
// with the entity's first proposal's systemMetadata, as CREATEs that a
// stored aspect skips.

// defaultWrites returns the store writes of the default aspects of the
// entities ws create, and for each the index in ws of the write it goes
// with (the entity's first).
func (c *Core) defaultWrites(ws []store.Write) ([]store.Write, []int) {
	if c.opts.NoDefaultAspects {
		return nil, nil
	}
	// The writes whose entity can have a default aspect, then which of
	// their entities exist, in one read of the store: one lookup per write,
	// which is all a write to an existing entity costs here.
	firsts := make([]int, 0, len(ws))
	urns := make([]string, 0, len(ws))
	var lastType string // of the write before, whose answer is has
	has, known := false, false
	for i := range ws {
		w := &ws[i]
		if w.DeleteEntity || w.Timeseries {
			continue
		}
		if typ := EntityTypeOf(w.URN); typ != lastType || !known {
			lastType, has, known = typ, hasDefaultAspects(typ), true
		}
		if has {
			firsts, urns = append(firsts, i), append(urns, w.URN)
		}
	}
	if len(urns) == 0 {
		return nil, nil
	}
	exist := c.st.ExistAll(urns)
	var out []store.Write
	var with []int
	var inBatch map[[2]string]bool // (URN, aspect) of the batch, made once needed
	var seen map[string]bool       // the URNs of entities created, for their first write only
	for j, i := range firsts {
		if exist[j] {
			continue
		}
		w := &ws[i]
		if seen[w.URN] {
			continue
		}
		if seen == nil {
			seen = make(map[string]bool)
		}
		seen[w.URN] = true
		e, _ := lookupEntity(EntityTypeOf(w.URN))
		if inBatch == nil {
			inBatch = make(map[[2]string]bool, len(ws))
			for _, o := range ws {
				inBatch[[2]string{o.URN, o.Aspect}] = true
			}
		}
		for _, name := range []string{"browsePathsV2", "dataPlatformInstance"} {
			if !e.Allows(name) || inBatch[[2]string{w.URN, name}] {
				continue
			}
			var v json.RawMessage
			if name == "browsePathsV2" {
				v = c.defaultBrowsePathsV2(e.Name, w.URN)
			} else {
				v = defaultPlatformInstance(e.Name, w.URN)
			}
			if v == nil {
				continue
			}
			out = append(out, store.Write{URN: w.URN, Aspect: name, Value: v, SystemMetadata: w.SystemMetadata,
				Actor: w.Actor, KeyAspect: w.KeyAspect, KeyValue: w.KeyValue, Check: skipIfStored})
			with = append(with, i)
		}
	}
	return out, with
}

// hasDefaultAspects reports whether entities of the type can have a
// default aspect (their registry entry has browsePathsV2 or
// dataPlatformInstance).
func hasDefaultAspects(entityType string) bool { return defaultable()[entityType] }

// defaultable is hasDefaultAspects of every entity type, built once.
var defaultable = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(pdl.Registry()))
	for _, e := range pdl.Registry() {
		m[e.Name] = e.Allows("browsePathsV2") || e.Allows("dataPlatformInstance")
	}
	return m
})

// skipIfStored skips a default aspect already stored (CREATE with
// CreateIfNotExistsValidator's filter exception: no error).
func skipIfStored(cur store.Current) error {
	if cur.Exists {
		return store.ErrSkip
	}
	return nil
}

// applyWithDefaults writes validated items, whose store writes are ws, as
// one atomic store batch (deletes included), with the default aspects of
// the entities ws create written after them in the same batch; a failed
// condition changes nothing. Traced items get their outcome in the write
// log. It returns the results of ws and, per write of ws, the default
// aspects written with it (nil when none), the entity's key aspect first.
func (c *Core) applyWithDefaults(items []item, ws []store.Write, batch bool) ([]store.Result, [][]DefaultAspect, *Error) {
	if !c.Writable() { // GMS's aspect DAO drops writes, logging them (setWritable)
		return droppedWrites(ws), nil, nil
	}
	extra, with := c.defaultWrites(ws)
	all := ws
	if len(extra) > 0 {
		all = append(slices.Clip(ws), extra...)
	}
	res, err := c.st.Apply(all)
	if err != nil {
		var ce *store.CheckError
		if errors.As(err, &ce) && ce.Index >= len(ws) {
			return nil, nil, errorf(Internal, MsgStore, err)
		}
		return nil, nil, storeError(err, items, batch)
	}
	full := res
	res = res[:len(ws)]
	if traced(items) {
		c.traces.applied(items, res, c.st.Seq())
	}
	if len(extra) == 0 {
		return res, nil, nil
	}
	defs := make([][]DefaultAspect, len(ws))
	for j, w := range extra {
		if full[len(ws)+j].Skipped {
			continue
		}
		i := with[j]
		if defs[i] == nil && w.KeyValue != nil {
			defs[i] = append(defs[i], DefaultAspect{Name: w.KeyAspect, Value: w.KeyValue})
		}
		defs[i] = append(defs[i], DefaultAspect{Name: w.Aspect, Value: w.Value})
	}
	return res, defs, nil
}

// defaultBrowsePathsV2 is BrowsePathV2Utils.getDefaultBrowsePathV2 without
// container paths: a dataset's name split on its platform's
// datasetNameDelimiter (dataPlatformInfo, else "."), its last part left
// out, the first part as the platform instance's URN when that instance
// exists, or a folder "Default" when the name has one part; a data job's
// flow; a folder "Default" for every other entity.
func (c *Core) defaultBrowsePathsV2(entity, urn string) json.RawMessage {
	type entry struct {
		ID  string `json:"id"`
		URN string `json:"urn,omitempty"`
	}
	path := []entry{{ID: "Default"}}
	switch entity {
	case "dataset":
		var k struct{ Platform, Name string }
		if kv := c.keyOf(entity, urn); kv == nil || json.Unmarshal(kv, &k) != nil {
			break
		}
		delim := c.nameDelimiter(k.Platform)
		if !strings.Contains(k.Name, delim) {
			break
		}
		var parts []entry
		for _, p := range strings.Split(k.Name, delim) {
			if p != "" {
				parts = append(parts, entry{ID: p})
			}
		}
		if len(parts) < 2 {
			break
		}
		parts = parts[:len(parts)-1]
		if inst := "urn:li:dataPlatformInstance:(" + k.Platform + "," + parts[0].ID + ")"; c.st.Exists(inst) {
			parts[0] = entry{ID: inst, URN: inst}
		}
		path = parts
	case "dataJob":
		var k struct{ Flow string }
		if kv := c.keyOf(entity, urn); kv != nil && json.Unmarshal(kv, &k) == nil && k.Flow != "" {
			path = []entry{{ID: k.Flow, URN: k.Flow}}
		}
	}
	b, _ := json.Marshal(struct {
		Path []entry `json:"path"`
	}{path})
	return b
}

// nameDelimiter is the datasetNameDelimiter of the stored dataPlatformInfo
// of platform, or ".".
func (c *Core) nameDelimiter(platform string) string {
	a, err := c.st.Get(platform, "dataPlatformInfo", 0)
	if err != nil {
		return "."
	}
	var info struct {
		DatasetNameDelimiter string `json:"datasetNameDelimiter"`
	}
	if json.Unmarshal(a.Value, &info) != nil || info.DatasetNameDelimiter == "" {
		return "."
	}
	return info.DatasetNameDelimiter[:1]
}

// keyOf is the key aspect of urn as JSON, nil when it cannot be built.
func (c *Core) keyOf(entity, urn string) json.RawMessage {
	e, ok := lookupEntity(entity)
	if !ok {
		return nil
	}
	kv, err := keyFromURN(e, urn)
	if err != nil {
		return nil
	}
	return kv
}

// defaultPlatformInstance is DataPlatformInstanceUtils.buildDataPlatformInstance:
// the platform of the entity's key (a dataset's or ML entity's platform,
// or urn:li:dataPlatform: and the dashboard tool or orchestrator in lower
// case), nil for an entity without one.
func defaultPlatformInstance(entity, urn string) json.RawMessage {
	e, ok := lookupEntity(entity)
	if !ok {
		return nil
	}
	kv, err := keyFromURN(e, urn)
	if err != nil || kv == nil {
		return nil
	}
	var k struct{ Platform, DashboardTool, Orchestrator, Flow string }
	if json.Unmarshal(kv, &k) != nil {
		return nil
	}
	lower := func(s string) string {
		if s == "" {
			return ""
		}
		return "urn:li:dataPlatform:" + strings.ToLower(s)
	}
	var platform string
	switch entity {
	case "dataset", "mlModel", "mlFeatureTable", "mlModelDeployment", "mlModelGroup":
		platform = k.Platform
	case "chart", "dashboard":
		platform = lower(k.DashboardTool)
	case "dataFlow", "dataProcess":
		platform = lower(k.Orchestrator)
	case "dataJob":
		if rest, ok := strings.CutPrefix(k.Flow, "urn:li:dataFlow:("); ok {
			orchestrator, _, _ := strings.Cut(rest, ",")
			platform = lower(orchestrator)
		}
	}
	if platform == "" {
		return nil
	}
	b, _ := json.Marshal(struct {
		Platform string `json:"platform"`
	}{platform})
	return b
}
