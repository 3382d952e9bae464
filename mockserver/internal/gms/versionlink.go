package gms

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// The facts of DataHub's entity versioning (EntityVersioningServiceImpl,
// AlphanumericSortIdGenerator, VersionPropertiesSideEffect).
const (
	// MsgVersioningDisabled is the refusal of the versioning routes when the
	// entityVersioning feature flag is off (DataHub's quickstart default).
	MsgVersioningDisabled = "Entity Versioning is not configured, please enable before attempting to use this feature."
	initialSortID         = "AAAAAAAA"
	versioningScheme      = "ALPHANUMERIC_GENERATED_BY_DATAHUB"
)

// VersionInput is the body of a link: VersionPropertiesInput.
type VersionInput struct {
	Comment                 *string `json:"comment"`
	Version                 string  `json:"version"`
	SourceCreationTimestamp *int64  `json:"sourceCreationTimestamp"`
	SourceCreator           *string `json:"sourceCreator"`
}

// versionProperties is what the mock reads of a versionProperties aspect.
type versionProperties struct {
	VersionSet string `json:"versionSet"`
	SortID     string `json:"sortId"`
}

// nextSortID increments an 8-letter sort id (A-Z, the last letter first;
// ZZZZZZZZ wraps to AAAAAAAA).
func nextSortID(id string) (string, error) {
	if len(id) != 8 {
		return "", errorf(BadArgument, "Input string must be exactly 8 characters long")
	}
	b := []byte(id)
	for _, c := range b {
		if c < 'A' || c > 'Z' {
			return "", errorf(BadArgument, "Invalid character in input string: %c", c)
		}
	}
	for i := 7; i >= 0; i-- {
		if b[i] < 'Z' {
			b[i]++
			return string(b), nil
		}
		b[i] = 'A'
	}
	return initialSortID, nil
}

// versionSetType is the entity type a version set URN names
// (urn:li:versionSet:(id,entityType)).
func versionSetType(u string) (string, bool) {
	rest, ok := strings.CutPrefix(u, "urn:li:versionSet:(")
	if !ok || !strings.HasSuffix(rest, ")") {
		return "", false
	}
	_, t, ok := strings.Cut(strings.TrimSuffix(rest, ")"), ",")
	return t, ok
}

// latestJSON reads the latest value of aspect of urn into v; false when
// there is none.
func (c *Core) latestJSON(ctx context.Context, urn, aspect string, v any) (bool, error) {
	a, err := c.GetAspect(ctx, urn, aspect, 0)
	if err != nil {
		if AsError(err).Kind == NotFound {
			return false, nil
		}
		return false, err
	}
	return true, json.Unmarshal(a.Value, v)
}

// LinkVersion links entity to versionSet as its latest version, as
// DataHub's linkLatestVersion does: the sort id after the set's latest
// version's (AAAAAAAA for a new set), versionProperties written to the
// entity and versionSetProperties {latest, versioningScheme} to the set.
// An entity already linked to the set changes nothing (linked false).
func (c *Core) LinkVersion(ctx context.Context, versionSet, entity string, in VersionInput, actor string) (linked bool, err error) {
	setType, ok := versionSetType(versionSet)
	if !ok {
		return false, errorf(BadArgument, "Version Set urn %s must be of type Version Set.", Abbreviate(versionSet))
	}
	if setType != EntityTypeOf(entity) {
		return false, errorf(BadArgument, "Entity type must match Version Set's specified type: %s invalid type: %s", setType, EntityTypeOf(entity))
	}
	sortID := initialSortID
	var set struct {
		Latest           string `json:"latest"`
		VersioningScheme string `json:"versioningScheme"`
	}
	has, err := c.latestJSON(ctx, versionSet, "versionSetProperties", &set)
	if err != nil {
		return false, err
	}
	if has {
		if set.VersioningScheme != versioningScheme {
			return false, errorf(BadArgument, "Only versioning scheme supported is ALPHANUMERIC_GENERATED_BY_DATAHUB")
		}
		var latest versionProperties
		if _, err := c.latestJSON(ctx, set.Latest, "versionProperties", &latest); err != nil {
			return false, err
		}
		if sortID, err = nextSortID(latest.SortID); err != nil {
			return false, err
		}
	}
	var cur versionProperties
	if has, err := c.latestJSON(ctx, entity, "versionProperties", &cur); err != nil {
		return false, err
	} else if has {
		if cur.VersionSet == versionSet {
			return false, nil
		}
		return false, errorf(Conflict, "Version already exists for specified entity: %s for a different Version Set: %s", entity, cur.VersionSet)
	}
	now := c.opts.Clock().UnixMilli()
	stamp := map[string]any{"time": now, "actor": actor}
	vp := map[string]any{
		"versionSet":               versionSet,
		"version":                  map[string]any{"versionTag": in.Version, "metadataAttribution": stamp},
		"metadataCreatedTimestamp": stamp,
		"sortId":                   sortID,
		"versioningScheme":         versioningScheme,
	}
	if in.Comment != nil {
		vp["comment"] = *in.Comment
	}
	if in.SourceCreationTimestamp != nil {
		creator := "urn:li:corpuser:__datahub_system"
		if in.SourceCreator != nil {
			creator = "urn:li:corpuser:" + *in.SourceCreator
		}
		vp["sourceCreatedTimestamp"] = map[string]any{"time": *in.SourceCreationTimestamp, "actor": creator}
	}
	vpJSON, _ := json.Marshal(vp)
	setJSON, _ := json.Marshal(map[string]any{"latest": entity, "versioningScheme": versioningScheme})
	sm := json.RawMessage(`{"properties":{"appSource":"ui"}}`)
	_, err = c.Write(ctx, []Proposal{
		{EntityType: EntityTypeOf(entity), EntityURN: entity, ChangeType: "UPSERT", AspectName: "versionProperties",
			Aspect: vpJSON, ContentType: "application/json", SystemMetadata: sm},
		{EntityType: "versionSet", EntityURN: versionSet, ChangeType: "UPSERT", AspectName: "versionSetProperties",
			Aspect: setJSON, ContentType: "application/json", SystemMetadata: sm},
	}, IngestOptions{})
	return err == nil, err
}

// UnlinkVersion unlinks entity from versionSet as DataHub's unlinkVersion
// does: its versionProperties deleted; when it was the set's latest, the
// linked version with the highest sort id below its own becomes the latest,
// or the set is deleted when none is left. It returns the URNs whose
// aspects it deleted; an entity not versioned changes nothing.
func (c *Core) UnlinkVersion(ctx context.Context, versionSet, entity string) ([]string, error) {
	if _, ok := versionSetType(versionSet); !ok {
		return nil, errorf(BadArgument, "Version Set urn %s must be of type Version Set.", Abbreviate(versionSet))
	}
	var cur versionProperties
	has, err := c.latestJSON(ctx, entity, "versionProperties", &cur)
	if err != nil || !has {
		return nil, err
	}
	if cur.VersionSet != versionSet {
		return nil, errorf(BadArgument, "Version is not linked to specified version set: %s but is linked to: %s", versionSet, cur.VersionSet)
	}
	if err := c.DeleteAspects(ctx, entity, []string{"versionProperties"}); err != nil {
		return nil, err
	}
	deleted := []string{entity}
	var set struct {
		Latest           string `json:"latest"`
		VersioningScheme string `json:"versioningScheme"`
	}
	if has, err := c.latestJSON(ctx, versionSet, "versionSetProperties", &set); err != nil {
		return nil, err
	} else if !has {
		return nil, errorf(Internal, "Version Set Properties must exist if entity version exists: %s", versionSet)
	}
	if set.Latest != entity {
		return deleted, nil
	}
	c.barrier()
	prev, prevSort := "", ""
	c.ix.Each(index.EntityIndexName(EntityTypeOf(entity)), func(d *index.Document) bool {
		var vp versionProperties
		if raw := d.Aspects["versionProperties"]; raw != nil && json.Unmarshal(raw, &vp) == nil &&
			d.URN != entity && vp.VersionSet == versionSet && vp.SortID < cur.SortID && vp.SortID > prevSort {
			prev, prevSort = d.URN, vp.SortID
		}
		return true
	})
	if prev == "" {
		if err := c.DeleteAspects(ctx, versionSet, []string{"versionSetKey", "versionSetProperties"}); err != nil {
			return nil, err
		}
		return append(deleted, versionSet), nil
	}
	setJSON, _ := json.Marshal(map[string]any{"latest": prev, "versioningScheme": set.VersioningScheme})
	_, err = c.Write(ctx, []Proposal{{EntityType: "versionSet", EntityURN: versionSet, ChangeType: "UPSERT",
		AspectName: "versionSetProperties", Aspect: setJSON, ContentType: "application/json",
		SystemMetadata: json.RawMessage(`{"properties":{"appSource":"ui"}}`)}}, IngestOptions{})
	return deleted, err
}
