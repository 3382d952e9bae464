package gms

import (
	"context"
)

// DataHub's texts of updateDeprecation, batchUpdateDeprecation and
// batchUpdateSoftDeleted.
const (
	MsgDeprecationNoEntity = "Failed to update deprecation for Entity %s. Entity does not exist."
	MsgSoftDeleteNoEntity  = "Failed to soft delete entity with urn %s. Entity does not exist."
)

// Deprecation is DataHub's UpdateDeprecationInput without its resource.
type Deprecation struct {
	Deprecated bool
	// Note is the deprecation note (nil: "", which GMS requires).
	Note *string
	// DecommissionTime is the planned decommission time in epoch millis
	// (nil: none).
	DecommissionTime *int64
	// Replacement is the entity that replaces this one (nil: none).
	Replacement *string
}

// UpdateDeprecation sets the deprecation of an existing entity as DataHub's
// updateDeprecation: deprecated, note ("" when absent), decommissionTime and
// replacement (removed when absent) and the actor, other members kept.
func (c *Core) UpdateDeprecation(ctx context.Context, u string, d Deprecation) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if d.Replacement != nil {
		if err := checkURNs(*d.Replacement); err != nil {
			return err
		}
	}
	missing := func(u string) *Error { return errorf(BadArgument, MsgDeprecationNoEntity, u) }
	if err := c.mustExist(ctx, u, missing(u)); err != nil {
		return err
	}
	return c.writeDeprecation(ctx, u, d, missing)
}

// BatchUpdateDeprecation sets the deprecation of resources as DataHub's
// batchUpdateDeprecation: every resource is checked first
// (LabelUtils.validateResource); a schema field's deprecation goes to its
// schemaField entity (urn:li:schemaField:(dataset,fieldPath)).
func (c *Core) BatchUpdateDeprecation(ctx context.Context, d Deprecation, resources []ResourceRef) error {
	if d.Replacement != nil {
		if err := checkURNs(*d.Replacement); err != nil {
			return err
		}
	}
	for _, r := range resources {
		if err := checkURNs(r.URN); err != nil {
			return err
		}
		if err := c.validateResource(ctx, r); err != nil {
			return err
		}
	}
	for _, r := range resources {
		target, missing := r.URN, func(u string) *Error { return errorf(BadArgument, MsgResourceMissing, u) }
		if r.SubResource != nil {
			target, missing = "urn:li:schemaField:("+r.URN+","+r.sub()+")", nil
			if err := checkURNs(target); err != nil {
				return err
			}
		}
		if err := c.writeDeprecation(ctx, target, d, missing); err != nil {
			return err
		}
	}
	return nil
}

// writeDeprecation is the read-modify-write of u's deprecation; missing nil
// creates the entity (a schema field's).
func (c *Core) writeDeprecation(ctx context.Context, u string, d Deprecation, missing func(string) *Error) error {
	change := func(obj map[string]any) error {
		obj["deprecated"] = d.Deprecated
		obj["note"] = ""
		if d.Note != nil {
			obj["note"] = *d.Note
		}
		delete(obj, "decommissionTime")
		if d.DecommissionTime != nil {
			obj["decommissionTime"] = *d.DecommissionTime
		}
		delete(obj, "replacement")
		if d.Replacement != nil {
			obj["replacement"] = *d.Replacement
		}
		obj["actor"] = mutationActor(ctx)
		return nil
	}
	if missing == nil {
		return c.Update(ctx, u, "deprecation", editObject(u, "deprecation", change), UpdateOptions{SystemMetadata: uiSystemMetadata})
	}
	return c.edit(ctx, u, "deprecation", missing, change)
}

// BatchUpdateSoftDeleted soft-deletes (deleted) or restores entities as
// DataHub's batchUpdateSoftDeleted: every entity must exist, then each
// one's status.removed is written.
func (c *Core) BatchUpdateSoftDeleted(ctx context.Context, urns []string, deleted bool) error {
	if err := checkURNs(urns...); err != nil {
		return err
	}
	for _, u := range urns {
		if err := c.mustExist(ctx, u, errorf(BadArgument, MsgSoftDeleteNoEntity, u)); err != nil {
			return err
		}
	}
	for _, u := range urns {
		err := c.edit(ctx, u, "status", func(u string) *Error { return errorf(BadArgument, MsgSoftDeleteNoEntity, u) },
			func(obj map[string]any) error {
				obj["removed"] = deleted
				return nil
			})
		if err != nil {
			return err
		}
	}
	return nil
}
