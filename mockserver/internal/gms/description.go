package gms

import (
	"context"
	"encoding/json"
)

// DataHub: updateDescription's refusals (UpdateDescriptionResolver,
// DescriptionUtils). Mock: the whole dataset it does not support, and an
// aspect it cannot decode.
const (
	MsgDescriptionUnsupported = "Failed to update description. Unsupported resource type %s provided."
	MsgDescriptionNoEntity    = "Failed to update %s. %s does not exist."
	MsgDescriptionNoSchema    = "Failed to update %s & field %s. %s has no schema."
	MsgDescriptionNoField     = "Failed to update %s & field %s. Field %s does not exist in the datasets schema."
	MsgDescriptionDataset     = "Failed to update description. Setting the description of a whole dataset through GraphQL is not supported (datahub-mock follows the interface spec): write editableDatasetProperties by proposal, or pass subResourceType DATASET_FIELD and subResource"
	MsgMapAspect              = "Failed to map aspect %s of %s: %s (datahub-mock)"
)

// uiSystemMetadata is the systemMetadata of the writes the UI's mutations
// make (DataHub's MutationUtils marks them with appSource "ui").
var uiSystemMetadata = json.RawMessage(`{"properties":{"appSource":"ui"}}`)

// DescriptionUpdate is an updateDescription of the UI: the new description
// of a resource, or of one of its sub-resources.
type DescriptionUpdate struct {
	Description string
	// ResourceURN is the entity whose description changes.
	ResourceURN string
	// SubResourceType and SubResource name a part of the resource (nil when
	// absent): the field path of a dataset's schema field.
	SubResourceType, SubResource *string
}

// UpdateDescription sets a description as DataHub's
// UpdateDescriptionResolver and DescriptionUtils do, for the resources the
// mock supports:
//
//   - a dataset's schema field (a sub-resource: its field path, "" when
//     absent): the field must be in the dataset's schemaMetadata; its
//     editableSchemaMetadata.editableSchemaFieldInfo entry gets the
//     description (one is appended when the field has none), every other
//     entry and member kept;
//   - a container: editableContainerProperties.description, its other
//     members kept.
//
// A whole dataset (no sub-resource) is BadArgument: the mock does not
// support it; any other entity type is Unsupported (DataHub's 500). The
// entity must exist (BadArgument otherwise). Each change is a
// read-modify-write of the UI ([Core.Update], with the UI's systemMetadata)
// that checks the entity still exists inside the store's writer lock; like
// DataHub, the schema field is checked by a read before the write.
func (c *Core) UpdateDescription(ctx context.Context, d DescriptionUpdate) error {
	u := d.ResourceURN
	if _, err := CheckURN(u); err != nil {
		return err
	}
	switch EntityTypeOf(u) {
	case "dataset":
		if d.SubResourceType == nil {
			return errorf(BadArgument, MsgDescriptionDataset)
		}
		fp := ""
		if d.SubResource != nil {
			fp = *d.SubResource
		}
		return c.updateFieldDescription(ctx, u, fp, d.Description)
	case "container":
		if err := c.descriptionTargetExists(ctx, u); err != nil {
			return err
		}
		return c.updateFromUI(ctx, u, "editableContainerProperties", func(obj map[string]json.RawMessage) error {
			obj["description"], _ = json.Marshal(d.Description)
			return nil
		})
	}
	return errorf(Unsupported, MsgDescriptionUnsupported, Abbreviate(u))
}

// descriptionTargetExists refuses an entity that does not exist with
// DataHub's text, as DescriptionUtils checks it before anything else.
func (c *Core) descriptionTargetExists(ctx context.Context, u string) error {
	ok, err := c.Exists(ctx, u)
	if err != nil {
		return err
	}
	if !ok {
		return missingDescriptionTarget(u)
	}
	return nil
}

// missingDescriptionTarget is the refusal of a description of u, which does
// not exist.
func missingDescriptionTarget(u string) *Error {
	return errorf(BadArgument, MsgDescriptionNoEntity, u, u)
}

// updateFieldDescription sets the description of the schema field fp of
// dataset u in editableSchemaMetadata, keeping every other entry and member.
func (c *Core) updateFieldDescription(ctx context.Context, u, fp, description string) error {
	if err := c.descriptionTargetExists(ctx, u); err != nil {
		return err
	}
	v, err := c.GetAspect(ctx, u, "schemaMetadata", 0)
	if e := AsError(err); e != nil && e.Kind == NotFound {
		return errorf(BadArgument, MsgDescriptionNoSchema, u, fp, u)
	} else if err != nil {
		return err
	}
	var s struct {
		Fields []struct {
			FieldPath string `json:"fieldPath"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return errorf(Internal, MsgMapAspect, "schemaMetadata", Abbreviate(u), err)
	}
	found := false
	for _, f := range s.Fields {
		found = found || f.FieldPath == fp
	}
	if !found {
		return errorf(BadArgument, MsgDescriptionNoField, u, fp, fp)
	}
	return c.updateFromUI(ctx, u, "editableSchemaMetadata", func(obj map[string]json.RawMessage) error {
		var infos []map[string]json.RawMessage
		if raw, ok := obj["editableSchemaFieldInfo"]; ok {
			if err := json.Unmarshal(raw, &infos); err != nil {
				return err
			}
		}
		desc, _ := json.Marshal(description)
		set := false
		for _, info := range infos {
			var path string
			_ = json.Unmarshal(info["fieldPath"], &path)
			if path == fp {
				info["description"], set = desc, true
				break
			}
		}
		if !set {
			path, _ := json.Marshal(fp)
			infos = append(infos, map[string]json.RawMessage{"fieldPath": path, "description": desc})
		}
		obj["editableSchemaFieldInfo"], _ = json.Marshal(infos)
		return nil
	})
}

// updateFromUI changes aspect of the existing entity u from its current
// value with change, an UPSERT of the UI made by [Core.Update] inside the
// store's writer lock, so that concurrent mutations lose nothing and a
// delete of u cannot land between the existence check and the write.
// change gets the current members ({} when the aspect is absent) and edits
// them in place; a value it cannot decode or edit is Internal.
func (c *Core) updateFromUI(ctx context.Context, u, aspect string, change func(obj map[string]json.RawMessage) error) error {
	return c.Update(ctx, u, aspect, func(cur json.RawMessage) (json.RawMessage, error) {
		obj := map[string]json.RawMessage{}
		if cur != nil {
			if err := json.Unmarshal(cur, &obj); err != nil {
				return nil, errorf(Internal, MsgMapAspect, aspect, Abbreviate(u), err)
			}
		}
		if err := change(obj); err != nil {
			return nil, errorf(Internal, MsgMapAspect, aspect, Abbreviate(u), err)
		}
		return json.Marshal(obj)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missingDescriptionTarget})
}
