package graphql

import (
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// getSchemaBlame over the core's TECHNICAL_SCHEMA timeline, mapped as
// DataHub's SchemaBlameMapper maps it.

func init() { query("getSchemaBlame", getSchemaBlame) }

// blameOps are the words of a field change's lastSchemaFieldChange.
var blameOps = map[string]string{"ADD": "Added", "MODIFY": "Modified", "REMOVE": "Removed"}

// getSchemaBlame resolves Query.getSchemaBlame (GetSchemaBlameResolver):
// the schema's version at or below the version asked (the latest when
// none) and, for each field, its last change up to that version (fields
// whose last change removed them left out, sorted by field path here); a
// failure answers null, an empty timeline an empty result.
func getSchemaBlame(c *Ctx, a Args) (any, error) {
	var in struct {
		Input struct {
			DatasetUrn string
			Version    *string
		}
	}
	if err := a.Decode(&in); err != nil {
		return nil, badRequest(err.Error())
	}
	u := in.Input.DatasetUrn
	if _, err := gms.CheckURN(u); err != nil {
		return nil, fromCore(err)
	}
	ts, err := c.Core().Timeline(c, gms.TimelineQuery{URN: u, Categories: []string{"TECHNICAL_SCHEMA"}})
	if err != nil {
		return nil, nil
	}
	result := map[string]any{"version": nil, "schemaFieldBlameList": nil}
	if len(ts) == 0 {
		return result, nil
	}
	cutoff := strings.TrimSuffix(ts[len(ts)-1].SemVer, "-computed")
	if in.Input.Version != nil {
		cutoff = *in.Input.Version
	}
	var kept []gms.ChangeTransaction
	for _, t := range ts {
		if compareSemVer(t.SemVer, cutoff) <= 0 {
			kept = append(kept, t)
		}
	}
	if len(kept) == 0 {
		return result, nil
	}
	slices.SortStableFunc(kept, func(x, y gms.ChangeTransaction) int { return compareSemVer(y.SemVer, x.SemVer) })
	sel := kept[0]
	result["version"] = map[string]any{"semanticVersion": strings.TrimSuffix(sel.SemVer, "-computed"),
		"semanticVersionTimestamp": sel.Timestamp, "versionStamp": sel.VersionStamp}
	prefix := "urn:li:schemaField:(" + u + ","
	seen := map[string]bool{}
	blames := []map[string]any{}
	for _, t := range kept {
		semver := strings.TrimSuffix(t.SemVer, "-computed")
		for _, e := range t.ChangeEvents {
			if e.Category != "TECHNICAL_SCHEMA" || e.Modifier == "" || seen[e.Modifier] {
				continue
			}
			if !strings.HasPrefix(e.Modifier, prefix) || !strings.HasSuffix(e.Modifier, ")") {
				continue
			}
			seen[e.Modifier] = true
			if e.Operation == "REMOVE" {
				continue
			}
			word, ok := blameOps[e.Operation]
			if !ok {
				word = "Unknown change made"
			}
			blames = append(blames, map[string]any{
				"fieldPath": strings.TrimSuffix(strings.TrimPrefix(e.Modifier, prefix), ")"),
				"schemaFieldChange": map[string]any{"timestampMillis": t.Timestamp, "lastSemanticVersion": semver,
					"versionStamp": t.VersionStamp, "changeType": e.Operation, "lastSchemaFieldChange": word + " in v" + semver},
			})
		}
	}
	slices.SortFunc(blames, func(x, y map[string]any) int {
		return strings.Compare(x["fieldPath"].(string), y["fieldPath"].(string))
	})
	list := make([]any, len(blames))
	for i, b := range blames {
		list[i] = b
	}
	result["schemaFieldBlameList"] = list
	return result, nil
}
