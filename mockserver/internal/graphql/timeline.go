package graphql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// getTimeline and getSchemaVersionList over the core's timeline
// (gms.Core.Timeline), mapped as DataHub's ChangeTransactionMapper and
// SchemaVersionListMapper map it.

func init() {
	query("getTimeline", getTimeline)
	query("getSchemaVersionList", getSchemaVersionList)
}

// getTimeline resolves Query.getTimeline (GetTimelineResolver): the change
// transactions of the categories asked (every one the core computes when
// none), those without changes left out; a failure answers null, as
// DataHub's resolver catches it.
func getTimeline(c *Ctx, a Args) (any, error) {
	var in struct {
		Input struct {
			Urn              string
			ChangeCategories *[]string
		}
	}
	if err := a.Decode(&in); err != nil {
		return nil, badRequest(err.Error())
	}
	if _, err := gms.CheckURN(in.Input.Urn); err != nil {
		return nil, fromCore(err)
	}
	computed := gms.TimelineCategories()
	cats := computed
	if in.Input.ChangeCategories != nil {
		cats = nil
		for _, cat := range *in.Input.ChangeCategories {
			if cat == "OWNERSHIP" {
				cat = "OWNER" // ChangeCategoryType's name of the timeline's OWNER
			}
			if slices.Contains(computed, cat) && !slices.Contains(cats, cat) {
				cats = append(cats, cat)
			}
		}
	}
	txs := []any{}
	if len(cats) > 0 {
		ts, err := c.Core().Timeline(c, gms.TimelineQuery{URN: in.Input.Urn, Categories: cats})
		if err != nil {
			return nil, nil
		}
		for _, t := range ts {
			changes := make([]any, 0, len(t.ChangeEvents))
			for _, e := range t.ChangeEvents {
				changes = append(changes, changeEvent(e))
			}
			if len(changes) == 0 {
				continue
			}
			semver := t.SemVer
			if semver == "" {
				semver = "none"
			}
			actor := any(nil)
			if t.Actor != "" {
				actor = t.Actor
			}
			txs = append(txs, map[string]any{"timestampMillis": t.Timestamp, "lastSemanticVersion": semver,
				"versionStamp": "none", "changeType": "MODIFY", "actor": actor, "changes": changes})
		}
	}
	return map[string]any{"changeTransactions": txs}, nil
}

// changeEvent maps one event (ChangeEventMapper): the parameters as
// entries of their text, sorted by key.
func changeEvent(e gms.ChangeEvent) map[string]any {
	cat := e.Category
	if cat == "OWNER" {
		cat = "OWNERSHIP"
	}
	out := map[string]any{"urn": e.EntityURN, "category": cat, "operation": e.Operation, "description": e.Description,
		"modifier": nil, "parameters": nil, "auditStamp": nil}
	if e.EntityURN == "" {
		out["urn"] = "empty"
	}
	if e.Modifier != "" {
		out["modifier"] = e.Modifier
	}
	if e.Parameters != nil {
		keys := make([]string, 0, len(e.Parameters))
		for k := range e.Parameters {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		ps := make([]any, 0, len(keys))
		for _, k := range keys {
			ps = append(ps, map[string]any{"key": k, "value": fmt.Sprint(e.Parameters[k])})
		}
		out["parameters"] = ps
	}
	return out
}

// getSchemaVersionList resolves Query.getSchemaVersionList
// (GetSchemaVersionListResolver): the schema's semantic versions from its
// TECHNICAL_SCHEMA timeline, the latest first; null without any.
func getSchemaVersionList(c *Ctx, a Args) (any, error) {
	in, _ := a["input"].(map[string]any)
	urn, _ := in["datasetUrn"].(string)
	if _, err := gms.CheckURN(urn); err != nil {
		return nil, fromCore(err)
	}
	ts, err := c.Core().Timeline(c, gms.TimelineQuery{URN: urn, Categories: []string{"TECHNICAL_SCHEMA"}})
	if err != nil || len(ts) == 0 {
		return nil, nil
	}
	version := func(t gms.ChangeTransaction) map[string]any {
		return map[string]any{"semanticVersion": strings.TrimSuffix(t.SemVer, "-computed"),
			"semanticVersionTimestamp": t.Timestamp, "versionStamp": t.VersionStamp}
	}
	sorted := slices.Clone(ts)
	slices.SortStableFunc(sorted, func(x, y gms.ChangeTransaction) int { return compareSemVer(y.SemVer, x.SemVer) })
	list := make([]any, 0, len(sorted))
	for _, t := range sorted {
		list = append(list, version(t))
	}
	return map[string]any{"latestVersion": version(ts[len(ts)-1]), "version": nil, "semanticVersionList": list}, nil
}

// compareSemVer orders "major.minor.patch" versions (suffixes ignored).
func compareSemVer(a, b string) int {
	pa := strings.Split(strings.TrimSuffix(a, "-computed"), ".")
	pb := strings.Split(strings.TrimSuffix(b, "-computed"), ".")
	for i := 0; i < len(pa) || i < len(pb); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x - y
		}
	}
	return 0
}
