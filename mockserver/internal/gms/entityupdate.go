package gms

import (
	"context"
	"encoding/json"
	"slices"
)

// The texts of the update<Entity> mutations (DataHub's *UpdateInputMapper
// and TagAssociationUpdateMapper; the entity type check is the mock's).
const (
	MsgUpdateTagInvalid = "Failed to update tag with urn %s, invalid urn"
	MsgUpdateWrongType  = "Failed to update %s: it is not a %s urn (datahub-mock)"
)

// editablePropertiesAspect is the editable properties aspect the
// update<Entity> mutations write, by entity type.
var editablePropertiesAspect = map[string]string{
	"dataset":   "editableDatasetProperties",
	"chart":     "editableChartProperties",
	"dashboard": "editableDashboardProperties",
	"notebook":  "editableNotebookProperties",
	"dataFlow":  "editableDataFlowProperties",
	"dataJob":   "editableDataJobProperties",
}

// OwnerUpdate is DataHub's OwnerUpdate: an owner of an update<Entity>.
type OwnerUpdate struct {
	// Owner is a corpuser or corpGroup URN.
	Owner string
	// Type is the deprecated ownership type enum ("" : CUSTOM).
	Type string
	// TypeURN is the ownership type entity ("": none; set, Type is CUSTOM).
	TypeURN string
}

// LinkUpdate is DataHub's InstitutionalMemoryMetadataUpdate.
type LinkUpdate struct {
	URL, Author string
	Description *string
	// CreatedAt is the link's creation time in epoch millis (nil: now).
	CreatedAt *int64
}

// FieldInfoUpdate is DataHub's EditableSchemaFieldInfoUpdate.
type FieldInfoUpdate struct {
	FieldPath   string
	Description *string
	// Tags are the field's tags (nil: no globalTags member).
	Tags *[]string
}

// DatasetDeprecationUpdate is DataHub's DatasetDeprecationUpdate.
type DatasetDeprecationUpdate struct {
	Deprecated       bool
	Note             string
	DecommissionTime *int64
}

// EntityUpdate is the input of DataHub's update<Entity> mutations
// (updateDataset, updateChart, ...): each part that is not nil replaces a
// whole aspect, as DataHub's *UpdateInputMapper writes it.
type EntityUpdate struct {
	URN         string
	Owners      *[]OwnerUpdate
	Tags        *[]string
	Links       *[]LinkUpdate
	Deprecation *DatasetDeprecationUpdate // datasets only
	FieldInfos  *[]FieldInfoUpdate        // datasets only
	// Description and Name are the editableProperties part (Name: datasets
	// only); EditableSet says it is given.
	EditableSet       bool
	Description, Name *string
}

// UpdateEntities applies updates of entities of entityType (dataset,
// chart, dashboard, notebook, dataFlow, dataJob) as DataHub's
// update<Entity> and updateDatasets: every part given is a whole aspect
// (ownership, globalTags, institutionalMemory, datasetDeprecation,
// editableSchemaMetadata, the editable properties), all written in one
// batch, which creates an entity that does not exist, as DataHub's does.
func (c *Core) UpdateEntities(ctx context.Context, entityType string, updates []EntityUpdate) error {
	var ps []Proposal
	for _, up := range updates {
		if err := checkURNs(up.URN); err != nil {
			return err
		}
		if EntityTypeOf(up.URN) != entityType {
			return errorf(BadArgument, MsgUpdateWrongType, up.URN, entityType)
		}
		aspects, err := c.updateAspects(ctx, entityType, up)
		if err != nil {
			return err
		}
		names := make([]string, 0, len(aspects))
		for n := range aspects {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			value, err := json.Marshal(aspects[n])
			if err != nil {
				return errorf(Internal, MsgMapAspect, n, Abbreviate(up.URN), err)
			}
			ps = append(ps, Proposal{EntityType: entityType, EntityURN: up.URN, ChangeType: "UPSERT", AspectName: n,
				Aspect: value, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
		}
	}
	if len(ps) == 0 {
		return nil
	}
	return c.Ingest(ctx, ps, IngestOptions{})
}

// updateAspects are the whole aspects an EntityUpdate writes.
func (c *Core) updateAspects(ctx context.Context, entityType string, up EntityUpdate) (map[string]any, error) {
	stamp := c.stamp(ctx)
	out := map[string]any{}
	if up.Owners != nil {
		owners := []any{}
		for _, o := range *up.Owners {
			owner := map[string]any{"source": map[string]any{"type": "SERVICE"}}
			if t := EntityTypeOf(o.Owner); t == "corpuser" || t == "corpGroup" {
				if err := checkURNs(o.Owner); err != nil {
					return nil, err
				}
				owner["owner"] = o.Owner
			}
			owner["type"] = "CUSTOM"
			if o.Type != "" {
				owner["type"] = o.Type
			}
			if o.TypeURN != "" {
				if err := checkURNs(o.TypeURN); err != nil {
					return nil, err
				}
				owner["typeUrn"], owner["type"] = o.TypeURN, "CUSTOM"
			}
			owners = append(owners, owner)
		}
		out["ownership"] = map[string]any{"owners": owners, "lastModified": stamp}
	}
	if up.Tags != nil {
		tags, err := tagAssociations(*up.Tags)
		if err != nil {
			return nil, err
		}
		out["globalTags"] = map[string]any{"tags": tags}
	}
	if up.Links != nil {
		elems := []any{}
		for _, l := range *up.Links {
			at := stamp["time"]
			if l.CreatedAt != nil {
				at = *l.CreatedAt
			}
			e := map[string]any{"url": l.URL, "createStamp": map[string]any{"actor": l.Author, "time": at}}
			if l.Description != nil {
				e["description"] = *l.Description
			}
			elems = append(elems, e)
		}
		out["institutionalMemory"] = map[string]any{"elements": elems}
	}
	if up.Deprecation != nil {
		d := map[string]any{"deprecated": up.Deprecation.Deprecated, "note": up.Deprecation.Note, "actor": mutationActor(ctx)}
		if up.Deprecation.DecommissionTime != nil {
			d["decommissionTime"] = *up.Deprecation.DecommissionTime
		}
		out["datasetDeprecation"] = d
	}
	if up.FieldInfos != nil {
		infos := []any{}
		for _, f := range *up.FieldInfos {
			info := map[string]any{"fieldPath": f.FieldPath}
			if f.Description != nil {
				info["description"] = *f.Description
			}
			if f.Tags != nil {
				tags, err := tagAssociations(*f.Tags)
				if err != nil {
					return nil, err
				}
				info["globalTags"] = map[string]any{"tags": tags}
			}
			infos = append(infos, info)
		}
		out["editableSchemaMetadata"] = map[string]any{"editableSchemaFieldInfo": infos, "created": stamp, "lastModified": stamp}
	}
	if up.EditableSet {
		p := map[string]any{"created": stamp, "lastModified": stamp}
		if up.Description != nil {
			p["description"] = *up.Description
		}
		if up.Name != nil && entityType == "dataset" {
			p["name"] = *up.Name
		}
		out[editablePropertiesAspect[entityType]] = p
	}
	return out, nil
}

// tagAssociations are the TagAssociations of tag URNs, refusing one that
// is not a tag URN with DataHub's text.
func tagAssociations(urns []string) ([]any, error) {
	out := []any{}
	for _, u := range urns {
		if _, err := CheckURN(u); err != nil || EntityTypeOf(u) != "tag" {
			return nil, errorf(Internal, MsgUpdateTagInvalid, u)
		}
		out = append(out, map[string]any{"tag": u})
	}
	return out, nil
}
