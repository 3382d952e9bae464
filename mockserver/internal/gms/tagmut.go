package gms

import (
	"context"
	"strings"
)

// DataHub's texts of the tag mutations (CreateTagResolver, SetTagColorResolver).
const (
	MsgTagExists       = "This Tag already exists!"
	MsgTagColorNoTag   = "Failed to set Tag %s color. Tag does not exist."
	MsgTagUpdateNoName = "Failed to update tag: a name is required (datahub-mock)"
)

// TagInput is DataHub's CreateTagInput.
type TagInput struct {
	// ID is the tag's id ("": a random UUID).
	ID          string
	Name        string
	Description *string
}

// CreateTag creates a tag as DataHub's createTag and returns its URN: the
// id must be new; tagProperties gets the name and description, and the
// creator becomes its technical owner.
func (c *Core) CreateTag(ctx context.Context, in TagInput) (string, error) {
	id := in.ID
	if id == "" {
		id = randomUUID()
	}
	u := "urn:li:tag:" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	exists := errorf(BadArgument, "%s", MsgTagExists)
	if err := c.mustNotExist(ctx, u, exists); err != nil {
		return "", err
	}
	props := map[string]any{"name": in.Name}
	if in.Description != nil {
		props["description"] = *in.Description
	}
	if err := c.create(ctx, u, map[string]any{"tagProperties": props, "ownership": c.creatorOwnership(ctx)}, exists); err != nil {
		return "", err
	}
	return u, nil
}

// mustNotExist returns refusal when u exists.
func (c *Core) mustNotExist(ctx context.Context, u string, refusal *Error) error {
	ok, err := c.exists(ctx, u)
	if err != nil {
		return err
	}
	if ok {
		return refusal
	}
	return nil
}

// UpdateTag is DataHub's updateTag (its TagType's update): the tag's
// ownership becomes the actor alone (type NONE, source SERVICE) and, when a
// name or description is given, tagProperties becomes just those two (a
// colour is dropped), as DataHub writes them. Both are written in one
// atomic batch with the UI's systemMetadata.
func (c *Core) UpdateTag(ctx context.Context, u, name string, description *string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if strings.TrimSpace(name) == "" && description == nil {
		return errorf(BadArgument, "%s", MsgTagUpdateNoName)
	}
	stamp := c.stamp(ctx)
	owner := map[string]any{"owner": mutationActor(ctx), "type": "NONE", "typeUrn": systemOwnershipType("NONE"),
		"source": map[string]any{"type": "SERVICE"}}
	props := map[string]any{"name": name}
	if description != nil {
		props["description"] = *description
	}
	return c.writeAll(ctx, u, map[string]any{
		"ownership":     map[string]any{"owners": []any{owner}, "lastModified": stamp},
		"tagProperties": props,
	})
}

// SetTagColor sets a tag's colour as DataHub's setTagColor: the tag must
// exist; tagProperties.colorHex is set, its name the tag's id when the
// tag has no properties yet.
func (c *Core) SetTagColor(ctx context.Context, u, colorHex string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	missing := func(u string) *Error { return errorf(BadArgument, MsgTagColorNoTag, u) }
	if err := c.mustExist(ctx, u, missing(u)); err != nil {
		return err
	}
	return c.edit(ctx, u, "tagProperties", missing, func(obj map[string]any) error {
		if obj["name"] == nil {
			obj["name"] = strings.TrimPrefix(u, "urn:li:tag:")
		}
		obj["colorHex"] = colorHex
		return nil
	})
}

// DeleteTag hard-deletes a tag as DataHub's deleteTag (which deletes
// whatever the URN names, and answers true for a missing one too).
func (c *Core) DeleteTag(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	_, err := c.DeleteEntity(ctx, u, "")
	return err
}
