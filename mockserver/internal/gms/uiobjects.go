package gms

import (
	"context"
	"encoding/json"
)

// DataHub's texts of the mutations of the UI's own objects and of users and
// groups (OwnershipTypeService, PostService, ViewService, QueryService,
// UpdateEmbedResolver, GroupService, Add/RemoveGroupMembersResolver).
const (
	MsgOwnershipTypeNoInfo = "Failed to update Ownership Type. Ownership Type with urn %s does not exist."
	MsgPostMissing         = "Failed to edit/update post for urn %s as post doesn't exist"
	MsgViewMissing         = "Failed to update View. View with urn %s does not exist."
	MsgQueryMissing        = "Failed to update Query. Query with urn %s does not exist."
	MsgEmbedNoEntity       = "Failed to update embed for entity with urn %s. Entity does not exist!"
	MsgGroupExists         = "This Group already exists!"
	MsgGroupAddMissing     = "Failed to add members to group %s. Group does not exist."
	MsgGroupRemoveMissing  = "Failed to add remove members from group %s. Group does not exist."
	MsgGroupNoUser         = "Failed to add member to group. User does not exist."
	MsgEntityMissingUI     = "Failed to update %s: it does not exist (datahub-mock)"
)

// CreateUIEntity creates the entity entityType:id (id "": a random UUID)
// with aspects, one atomic batch with the UI's systemMetadata, and returns
// its URN; exists (nil: a Conflict of the mock's) refuses an id in use.
// It is the write of DataHub's create mutations of the UI's own objects
// (ownership types, posts, views, queries).
func (c *Core) CreateUIEntity(ctx context.Context, entityType, id string, aspects map[string]any, exists *Error) (string, error) {
	if id == "" {
		id = randomUUID()
	}
	u := "urn:li:" + entityType + ":" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	if exists == nil {
		exists = errorf(Conflict, "%s already exists (datahub-mock)", u)
	}
	if err := c.mustNotExist(ctx, u, exists); err != nil {
		return "", err
	}
	return u, c.create(ctx, u, aspects, exists)
}

// ChangeUIAspect is a read-modify-write of aspect of u with change; missing
// refuses an absent aspect (nil: the aspect is made from {} when u exists,
// and a missing u is refused with the mock's text).
func (c *Core) ChangeUIAspect(ctx context.Context, u, aspect string, missing *Error, change func(obj map[string]any)) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	entityMissing := func(u string) *Error { return errorf(BadArgument, MsgEntityMissingUI, u) }
	if missing != nil {
		entityMissing = func(string) *Error { return missing }
	}
	return c.Update(ctx, u, aspect, func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil && missing != nil {
			return nil, missing
		}
		return editObject(u, aspect, func(obj map[string]any) error {
			change(obj)
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: entityMissing})
}

// Stamp is an audit stamp of the mutations' actor at the core's clock.
func (c *Core) Stamp(ctx context.Context) map[string]any { return c.stamp(ctx) }

// Now is the core's clock in epoch milliseconds.
func (c *Core) Now() int64 { return c.opts.Clock().UnixMilli() }

// CreateOwnershipType creates an ownership type as DataHub's
// createOwnershipType: a random id, ownershipTypeInfo with the name,
// description and created and lastModified stamps.
func (c *Core) CreateOwnershipType(ctx context.Context, name, description string) (string, error) {
	s := c.stamp(ctx)
	return c.CreateUIEntity(ctx, "ownershipType", "", map[string]any{"ownershipTypeInfo": map[string]any{
		"name": name, "description": description, "created": s, "lastModified": s}}, nil)
}

// UpdateOwnershipType changes the name and description given of an
// ownership type (its info must exist) and stamps lastModified.
func (c *Core) UpdateOwnershipType(ctx context.Context, u string, name, description *string) error {
	s := c.stamp(ctx)
	return c.ChangeUIAspect(ctx, u, "ownershipTypeInfo", errorf(BadArgument, MsgOwnershipTypeNoInfo, u), func(obj map[string]any) {
		setGiven(obj, "name", name)
		setGiven(obj, "description", description)
		obj["lastModified"] = s
	})
}

// DeleteOwnershipType soft-deletes an ownership type (status.removed), as
// DataHub's deleteOwnershipType does.
func (c *Core) DeleteOwnershipType(ctx context.Context, u string) error {
	return c.ChangeUIAspect(ctx, u, "status", nil, func(obj map[string]any) { obj["removed"] = true })
}

// setGiven sets obj[k] to *v when v is given.
func setGiven(obj map[string]any, k string, v *string) {
	if v != nil {
		obj[k] = *v
	}
}

// PostContent is DataHub's UpdatePostContentInput.
type PostContent struct {
	ContentType, Title  string
	Description, Link   *string
	MediaType, Location string
}

func (p PostContent) record() map[string]any {
	m := map[string]any{"type": p.ContentType, "title": p.Title}
	setGiven(m, "description", p.Description)
	setGiven(m, "link", p.Link)
	if p.MediaType != "" {
		m["media"] = map[string]any{"type": p.MediaType, "location": p.Location}
	}
	return m
}

// CreatePost creates a post as DataHub's createPost: a random id, postInfo
// with the type, content, target (when given), created and lastModified
// times and an audit stamp.
func (c *Core) CreatePost(ctx context.Context, postType string, content PostContent, target string) (string, error) {
	now := c.Now()
	info := map[string]any{"type": postType, "content": content.record(), "created": now, "lastModified": now, "auditStamp": c.stamp(ctx)}
	if target != "" {
		if err := checkURNs(target); err != nil {
			return "", err
		}
		info["target"] = target
	}
	return c.CreateUIEntity(ctx, "post", "", map[string]any{"postInfo": info}, nil)
}

// UpdatePost replaces a post's type and content as DataHub's updatePost
// (the post must exist).
func (c *Core) UpdatePost(ctx context.Context, u, postType string, content PostContent) error {
	now := c.Now()
	return c.ChangeUIAspect(ctx, u, "postInfo", errorf(Invalid, MsgPostMissing, u), func(obj map[string]any) {
		obj["type"], obj["content"], obj["lastModified"] = postType, content.record(), now
	})
}

// DeleteUIEntity hard-deletes the entity u, as DataHub's delete mutations
// of the UI's objects do; missing (nil: none) refuses one that does not
// exist.
func (c *Core) DeleteUIEntity(ctx context.Context, u string, missing *Error) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if missing != nil {
		if err := c.mustExist(ctx, u, missing); err != nil {
			return err
		}
	}
	_, err := c.DeleteEntity(ctx, u, "")
	return err
}

// CreateView creates a view as DataHub's createView: a random id,
// dataHubViewInfo with the type, name, description, definition and stamps.
func (c *Core) CreateView(ctx context.Context, viewType, name string, description *string, definition any) (string, error) {
	s := c.stamp(ctx)
	info := map[string]any{"type": viewType, "name": name, "definition": definition, "created": s, "lastModified": s}
	setGiven(info, "description", description)
	return c.CreateUIEntity(ctx, "dataHubView", "", map[string]any{"dataHubViewInfo": info}, nil)
}

// UpdateView changes the members given of a view (it must exist) and
// stamps lastModified.
func (c *Core) UpdateView(ctx context.Context, u string, name, description *string, definition any) error {
	s := c.stamp(ctx)
	return c.ChangeUIAspect(ctx, u, "dataHubViewInfo", errorf(BadArgument, MsgViewMissing, u), func(obj map[string]any) {
		setGiven(obj, "name", name)
		setGiven(obj, "description", description)
		if definition != nil {
			obj["definition"] = definition
		}
		obj["lastModified"] = s
	})
}

// QueryStatement is DataHub's QueryStatementInput.
type QueryStatement struct{ Value, Language string }

// CreateQuery creates a query as DataHub's createQuery: queryProperties
// (source MANUAL, the statement, name, description, stamps) and
// querySubjects (one entity per dataset).
func (c *Core) CreateQuery(ctx context.Context, name, description *string, st QueryStatement, datasets []string) (string, error) {
	if err := checkURNs(datasets...); err != nil {
		return "", err
	}
	s := c.stamp(ctx)
	props := map[string]any{"source": "MANUAL", "statement": map[string]any{"value": st.Value, "language": st.Language},
		"created": s, "lastModified": s}
	setGiven(props, "name", name)
	setGiven(props, "description", description)
	return c.CreateUIEntity(ctx, "query", "", map[string]any{"queryProperties": props, "querySubjects": querySubjects(datasets)}, nil)
}

func querySubjects(datasets []string) map[string]any {
	subjects := []any{}
	for _, d := range datasets {
		subjects = append(subjects, map[string]any{"entity": d})
	}
	return map[string]any{"subjects": subjects}
}

// UpdateQuery changes the members given of a query's properties (they must
// exist), stamps lastModified, and replaces its subjects when given.
func (c *Core) UpdateQuery(ctx context.Context, u string, name, description *string, st *QueryStatement, datasets []string) error {
	if err := checkURNs(datasets...); err != nil {
		return err
	}
	s := c.stamp(ctx)
	err := c.ChangeUIAspect(ctx, u, "queryProperties", errorf(BadArgument, MsgQueryMissing, u), func(obj map[string]any) {
		setGiven(obj, "name", name)
		setGiven(obj, "description", description)
		if st != nil {
			obj["statement"] = map[string]any{"value": st.Value, "language": st.Language}
		}
		obj["lastModified"] = s
	})
	if err != nil || datasets == nil {
		return err
	}
	return c.ChangeUIAspect(ctx, u, "querySubjects", nil, func(obj map[string]any) { obj["subjects"] = querySubjects(datasets)["subjects"] })
}

// UpdateEmbed sets an entity's embed.renderUrl (removed when nil) as
// DataHub's updateEmbed; the entity must exist.
func (c *Core) UpdateEmbed(ctx context.Context, u string, renderURL *string) error {
	missing := errorf(BadArgument, MsgEmbedNoEntity, u)
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, missing); err != nil {
		return err
	}
	return c.ChangeUIAspect(ctx, u, "embed", nil, func(obj map[string]any) {
		delete(obj, "renderUrl")
		setGiven(obj, "renderUrl", renderURL)
	})
}

// UpdateDisplayProperties sets the members given of an entity's
// displayProperties (colour, icon); the entity must exist.
func (c *Core) UpdateDisplayProperties(ctx context.Context, u string, colorHex *string, icon map[string]any) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, missingDescriptionTarget(u)); err != nil {
		return err
	}
	return c.ChangeUIAspect(ctx, u, "displayProperties", nil, func(obj map[string]any) {
		setGiven(obj, "colorHex", colorHex)
		if icon != nil {
			obj["icon"] = icon
		}
	})
}

// CreateGroup creates a native group as DataHub's createGroup: the id (a
// random UUID when "") must be new; corpGroupInfo gets the display name,
// description, empty member lists and a created stamp; origin is NATIVE.
func (c *Core) CreateGroup(ctx context.Context, id, name string, description *string) (string, error) {
	info := map[string]any{"displayName": name, "admins": []any{}, "members": []any{}, "groups": []any{}, "created": c.stamp(ctx)}
	setGiven(info, "description", description)
	return c.CreateUIEntity(ctx, "corpGroup", id, map[string]any{"corpGroupInfo": info, "origin": map[string]any{"type": "NATIVE"}},
		errorf(BadArgument, "%s", MsgGroupExists))
}

// ChangeGroupMembers adds users to a group (or removes them) as DataHub's
// addGroupMembers and removeGroupMembers: the group must exist (NotFound),
// and an added user too; each user's nativeGroupMembership.nativeGroups
// gets (or loses) the group.
func (c *Core) ChangeGroupMembers(ctx context.Context, group string, users []string, remove bool) error {
	if err := checkURNs(append([]string{group}, users...)...); err != nil {
		return err
	}
	missing := MsgGroupAddMissing
	if remove {
		missing = MsgGroupRemoveMissing
	}
	if err := c.mustExist(ctx, group, errorf(NotFound, missing, group)); err != nil {
		return err
	}
	for _, u := range users {
		if !remove {
			if err := c.mustExist(ctx, u, errorf(Internal, "%s", MsgGroupNoUser)); err != nil {
				return err
			}
		}
		err := c.ChangeUIAspect(ctx, u, "nativeGroupMembership", nil, func(obj map[string]any) {
			groups := list(obj, "nativeGroups")
			out := []any{}
			for _, g := range groups {
				if g != group {
					out = append(out, g)
				}
			}
			if !remove {
				out = append(out, group)
			}
			obj["nativeGroups"] = out
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// UpdateUserStatus sets a user's corpUserStatus (status and a lastModified
// stamp) as DataHub's updateUserStatus.
func (c *Core) UpdateUserStatus(ctx context.Context, u, status string) error {
	s := c.stamp(ctx)
	return c.ChangeUIAspect(ctx, u, "corpUserStatus", nil, func(obj map[string]any) {
		obj["status"], obj["lastModified"] = status, s
	})
}

// UpdateEditableInfo merges the members given into a user's
// corpUserEditableInfo or a group's corpGroupEditableInfo, as DataHub's
// updateCorpUserProperties and updateCorpGroupProperties do.
func (c *Core) UpdateEditableInfo(ctx context.Context, u string, members map[string]any) error {
	aspect := "corpUserEditableInfo"
	if EntityTypeOf(u) == "corpGroup" {
		aspect = "corpGroupEditableInfo"
	}
	return c.ChangeUIAspect(ctx, u, aspect, nil, func(obj map[string]any) {
		for k, v := range members {
			if v != nil {
				obj[k] = v
			}
		}
	})
}

// ChangeDataProductAssets adds resources to (or removes them from) each of
// products, as DataHub's batchAddToDataProducts and
// batchRemoveFromDataProducts: every resource and product must exist; other
// memberships are kept.
func (c *Core) ChangeDataProductAssets(ctx context.Context, products, resources []string, remove bool) error {
	if err := checkURNs(append(append([]string{}, products...), resources...)...); err != nil {
		return err
	}
	for _, r := range resources {
		if err := c.mustExist(ctx, r, errorf(BadArgument, MsgProductNoResource, r)); err != nil {
			return err
		}
	}
	for _, p := range products {
		if err := c.mustExist(ctx, p, errorf(BadArgument, MsgProductNoProduct, p)); err != nil {
			return err
		}
	}
	for _, p := range products {
		var err error
		if remove {
			err = c.editAssets(ctx, p, nil, resources)
		} else {
			err = c.editAssets(ctx, p, resources, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
