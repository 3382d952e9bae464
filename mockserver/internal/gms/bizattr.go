package gms

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// DataHub's texts of the business attribute mutations
// (Create/Update/Delete/Add/RemoveBusinessAttributeResolver).
const (
	MsgBizAttrExists       = "This Business Attribute already exists!"
	MsgBizAttrNameTaken    = "\"%s\" already exists as Business Attribute. Please pick a unique name."
	MsgBizAttrNoURN        = "This urn does not exist: %s"
	MsgBizAttrUpdateNoInfo = "Failed to update Business Attribute. Business Attribute with urn %s does not exist."
	MsgBizAttrAddFailed    = "Failed to add Business Attribute %s to resources %s"
	MsgBizAttrRemoveFailed = "Failed to remove Business Attribute with urn %s from resources %s"
)

// bizAttrTypes are the schema field types a business attribute may have:
// DataHub's SchemaFieldDataType enum value → the schema type record.
var bizAttrTypes = map[string]string{
	"BYTES": "BytesType", "FIXED": "FixedType", "ENUM": "EnumType", "MAP": "MapType", "TIME": "TimeType",
	"BOOLEAN": "BooleanType", "STRING": "StringType", "NUMBER": "NumberType", "DATE": "DateType", "ARRAY": "ArrayType",
}

// bizAttrType is the SchemaFieldDataType of enum value t (nil for the
// values DataHub does not map).
func bizAttrType(t string) any {
	rec, ok := bizAttrTypes[t]
	if !ok {
		return nil
	}
	return map[string]any{"type": map[string]any{"com.linkedin.schema." + rec: map[string]any{}}}
}

// BusinessAttributeInput is DataHub's Create/UpdateBusinessAttributeInput.
type BusinessAttributeInput struct {
	// ID is the new attribute's id ("": a random UUID; create only).
	ID          string
	Name        *string
	Description *string
	// Type is a SchemaFieldDataType enum value (nil: none).
	Type *string
}

// CreateBusinessAttribute creates a business attribute as DataHub's
// createBusinessAttribute: the id must be new and the name unused by any
// other attribute; businessAttributeInfo gets the name (as its fieldPath
// too), description, type and stamps; the creator becomes its owner.
func (c *Core) CreateBusinessAttribute(ctx context.Context, in BusinessAttributeInput) (string, error) {
	id := in.ID
	if id == "" {
		id = randomUUID()
	}
	u := "urn:li:businessAttribute:" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	exists := errorf(BadArgument, "%s", MsgBizAttrExists)
	if err := c.mustNotExist(ctx, u, exists); err != nil {
		return "", err
	}
	name := ""
	if in.Name != nil {
		name = *in.Name
	}
	if c.bizAttrNameTaken(name) {
		return "", errorf(Conflict, MsgBizAttrNameTaken, name)
	}
	stamp := c.stamp(ctx)
	info := map[string]any{"fieldPath": name, "name": name, "created": stamp, "lastModified": stamp}
	if in.Description != nil {
		info["description"] = *in.Description
	}
	if in.Type != nil {
		if t := bizAttrType(*in.Type); t != nil {
			info["type"] = t
		}
	}
	if err := c.create(ctx, u, map[string]any{"businessAttributeInfo": info, "ownership": c.creatorOwnership(ctx)}, exists); err != nil {
		return "", err
	}
	return u, nil
}

// bizAttrNameTaken is DataHub's BusinessAttributeUtils.hasNameConflict:
// some business attribute has the name (the one being renamed too).
func (c *Core) bizAttrNameTaken(name string) bool {
	taken := false
	c.eachOfType("businessAttribute", "businessAttributeInfo", func(_ string, info map[string]any) bool {
		taken = info != nil && strMember(info, "name") == name
		return !taken
	})
	return taken
}

// UpdateBusinessAttribute changes a business attribute as DataHub's
// updateBusinessAttribute: a new name (which no attribute may have,
// this one included) is its fieldPath too; description and type when
// given; lastModified stamped.
func (c *Core) UpdateBusinessAttribute(ctx context.Context, u string, in BusinessAttributeInput) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, errorf(Internal, MsgBizAttrNoURN, u)); err != nil {
		return err
	}
	if in.Name != nil && c.bizAttrNameTaken(*in.Name) {
		return errorf(Conflict, MsgBizAttrNameTaken, *in.Name)
	}
	noInfo := errorf(BadArgument, MsgBizAttrUpdateNoInfo, u)
	return c.Update(ctx, u, "businessAttributeInfo", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, noInfo
		}
		return editObject(u, "businessAttributeInfo", func(info map[string]any) error {
			if in.Name != nil {
				info["name"], info["fieldPath"] = *in.Name, *in.Name
			}
			if in.Description != nil {
				info["description"] = *in.Description
			}
			if in.Type != nil {
				if t := bizAttrType(*in.Type); t != nil {
					info["type"] = t
				} else {
					delete(info, "type")
				}
			}
			info["lastModified"] = c.stamp(ctx)
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: func(u string) *Error { return errorf(Internal, MsgBizAttrNoURN, u) }})
}

// DeleteBusinessAttribute hard-deletes an existing business attribute and
// then the references to it, as DataHub's deleteBusinessAttribute.
func (c *Core) DeleteBusinessAttribute(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, errorf(Internal, MsgBizAttrNoURN, u)); err != nil {
		return err
	}
	if _, err := c.DeleteEntity(ctx, u, ""); err != nil {
		return err
	}
	_, err := c.DeleteReferences(ctx, u, false)
	return err
}

// resourcesString prints resources as DataHub prints the input list.
func resourcesString(rs []ResourceRef) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = r.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// AddBusinessAttribute attaches a business attribute to resources (schema
// fields, by their schemaField URN) as DataHub's addBusinessAttribute: the
// attribute must exist; each resource's businessAttributes aspect gets it,
// its other members kept.
func (c *Core) AddBusinessAttribute(ctx context.Context, attr string, resources []ResourceRef) error {
	if err := checkURNs(attr); err != nil {
		return err
	}
	if err := c.mustExist(ctx, attr, errorf(BadArgument, MsgBizAttrNoURN, attr)); err != nil {
		return err
	}
	failed := func() *Error { return errorf(Internal, MsgBizAttrAddFailed, attr, resourcesString(resources)) }
	for _, r := range resources {
		if err := checkURNs(r.URN); err != nil {
			return failed()
		}
	}
	for _, r := range resources {
		err := c.Update(ctx, r.URN, "businessAttributes", editObject(r.URN, "businessAttributes", func(obj map[string]any) error {
			object(obj, "businessAttribute")["businessAttributeUrn"] = attr
			return nil
		}), UpdateOptions{SystemMetadata: uiSystemMetadata})
		if e := AsError(err); e != nil && e.Kind != Internal {
			return failed()
		} else if err != nil {
			return err
		}
	}
	return nil
}

// RemoveBusinessAttribute detaches the business attribute of resources as
// DataHub's removeBusinessAttribute: each must have one (whichever it is).
func (c *Core) RemoveBusinessAttribute(ctx context.Context, attr string, resources []ResourceRef) error {
	if err := checkURNs(attr); err != nil {
		return err
	}
	failed := fmt.Sprintf(MsgBizAttrRemoveFailed, attr, resourcesString(resources))
	for _, r := range resources {
		if err := checkURNs(r.URN); err != nil {
			return errorf(Internal, "%s", failed)
		}
	}
	for _, r := range resources {
		err := c.Update(ctx, r.URN, "businessAttributes", editObject(r.URN, "businessAttributes", func(obj map[string]any) error {
			if obj["businessAttribute"] == nil {
				return errorf(Internal, "%s", failed)
			}
			delete(obj, "businessAttribute")
			return nil
		}), UpdateOptions{SystemMetadata: uiSystemMetadata})
		if err != nil {
			return err
		}
	}
	return nil
}
