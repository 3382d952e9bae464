package gms

import (
	"context"
	"strings"
)

// DataHub's texts of the owner mutations (OwnerUtils, BatchAddOwnersResolver).
const (
	MsgOwnerResourceMissing = "Failed to change ownership for resource %s. Resource does not exist."
	MsgOwnerNotGroup        = "Failed to change ownership for resource(s). Expected a corp group urn, found %s"
	MsgOwnerNotUser         = "Failed to change ownership for resource(s). Expected a corp user urn, found %s."
	MsgOwnerMissing         = "Failed to change ownership for resource(s). Owner with urn %s does not exist."
	MsgOwnershipTypeMissing = "Failed to change ownership for resource(s). Custom Ownership type with urn %s does not exist."
	MsgOwnerNoType          = "Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified."
	MsgOwnerSubResource     = "Malformed input provided: owners cannot be applied to subresources."
)

// Owner is DataHub's OwnerInput: an owner to add.
type Owner struct {
	URN string
	// EntityType is CORP_USER or CORP_GROUP ("" unchecked).
	EntityType string
	// Type is the deprecated OwnershipType enum ("" when absent: NONE).
	Type string
	// TypeURN is the ownership type entity ("" when absent: the system type
	// of Type).
	TypeURN string
}

// systemOwnershipType is the ownership type entity of a deprecated
// OwnershipType enum value (DataHub's mapOwnershipTypeToEntity).
func systemOwnershipType(t string) string {
	return "urn:li:ownershipType:__system__" + strings.ToLower(t)
}

// validateOwner is DataHub's OwnerUtils.validateOwner.
func (c *Core) validateOwner(ctx context.Context, o Owner) error {
	if err := checkURNs(o.URN); err != nil {
		return err
	}
	if o.EntityType == "CORP_GROUP" && EntityTypeOf(o.URN) != "corpGroup" {
		return errorf(BadArgument, MsgOwnerNotGroup, o.URN)
	}
	if o.EntityType == "CORP_USER" && EntityTypeOf(o.URN) != "corpuser" {
		return errorf(BadArgument, MsgOwnerNotUser, o.URN)
	}
	if err := c.mustExist(ctx, o.URN, errorf(BadArgument, MsgOwnerMissing, o.URN)); err != nil {
		return err
	}
	if o.TypeURN != "" {
		if err := c.mustExist(ctx, o.TypeURN, errorf(BadArgument, MsgOwnershipTypeMissing, o.TypeURN)); err != nil {
			return err
		}
	}
	if o.Type == "" && o.TypeURN == "" {
		return errorf(BadArgument, MsgOwnerNoType)
	}
	return nil
}

// validateOwnedResource is the check of a resource of an owner mutation:
// no sub-resource, and the entity exists.
func (c *Core) validateOwnedResource(ctx context.Context, r ResourceRef) error {
	if err := checkURNs(r.URN); err != nil {
		return err
	}
	if r.SubResource != nil {
		return errorf(BadArgument, MsgOwnerSubResource)
	}
	return c.mustExist(ctx, r.URN, errorf(BadArgument, MsgOwnerResourceMissing, r.URN))
}

// AddOwners adds owners to resources as DataHub's batchAddOwners (and
// addOwners) does: every owner is checked (its URN of the entity type named,
// existing, an ownership type that exists, a type or type URN given), then
// every resource (no sub-resource, existing); then each resource's ownership
// is one read-modify-write with the UI's systemMetadata: an owner already
// there with the same ownership type is replaced, the new one appended with
// source MANUAL, and lastModified stamped.
func (c *Core) AddOwners(ctx context.Context, owners []Owner, resources []ResourceRef) error {
	for _, o := range owners {
		if err := c.validateOwner(ctx, o); err != nil {
			return err
		}
	}
	for _, r := range resources {
		if err := c.validateOwnedResource(ctx, r); err != nil {
			return err
		}
	}
	for _, r := range resources {
		err := c.edit(ctx, r.URN, "ownership", ownerResourceMissing, func(obj map[string]any) error {
			obj["lastModified"] = c.stamp(ctx)
			cur := list(obj, "owners")
			for _, o := range owners {
				t := o.Type
				if t == "" {
					t = "NONE"
				}
				typeURN := o.TypeURN
				if typeURN == "" {
					typeURN = systemOwnershipType(t)
				}
				cur = removeOwner(cur, o.URN, typeURN)
				cur = append(cur, map[string]any{"owner": o.URN, "type": t, "typeUrn": typeURN,
					"source": map[string]any{"type": "MANUAL"}})
			}
			if cur == nil {
				cur = []any{}
			}
			obj["owners"] = cur
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// RemoveOwners removes owners from resources as DataHub's
// batchRemoveOwners, removeOwner do: every resource must exist; an owner is
// removed whatever its ownership type when typeURN is "", else only with
// that type (an owner without typeUrn matched by its deprecated type).
func (c *Core) RemoveOwners(ctx context.Context, ownerURNs []string, typeURN string, resources []ResourceRef) error {
	if err := checkURNs(ownerURNs...); err != nil {
		return err
	}
	for _, r := range resources {
		if err := c.validateOwnedResource(ctx, r); err != nil {
			return err
		}
	}
	for _, r := range resources {
		err := c.edit(ctx, r.URN, "ownership", ownerResourceMissing, func(obj map[string]any) error {
			obj["lastModified"] = c.stamp(ctx)
			cur := list(obj, "owners")
			for _, u := range ownerURNs {
				cur = removeOwner(cur, u, typeURN)
			}
			if cur == nil {
				cur = []any{}
			}
			obj["owners"] = cur
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func ownerResourceMissing(u string) *Error { return errorf(BadArgument, MsgOwnerResourceMissing, u) }

// removeOwner drops the owners equal to (owner, typeURN) as DataHub's
// OwnerServiceUtils.isOwnerEqual compares them.
func removeOwner(owners []any, owner, typeURN string) []any {
	out := owners[:0:0]
	for _, it := range owners {
		m, _ := it.(map[string]any)
		if strMember(m, "owner") == owner {
			have := strMember(m, "typeUrn")
			switch {
			case typeURN == "":
				continue
			case have != "" && have == typeURN:
				continue
			case have == "" && systemOwnershipType(strMember(m, "type")) == typeURN:
				continue
			}
		}
		out = append(out, it)
	}
	return out
}
