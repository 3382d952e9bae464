package gms

import (
	"context"
	"encoding/json"
	"slices"
)

// DataHub's texts of the document (knowledge article) mutations
// (DocumentService and its resolvers): each is an IllegalArgumentException,
// answered with its own text.
const (
	MsgDocumentExists        = "Document with ID %s already exists"
	MsgDocumentMissing       = "Document with URN %s does not exist"
	MsgDocumentParentMissing = "Parent Document with URN %s does not exist"
	MsgDocumentOwnParent     = "Cannot move a Document to itself as parent"
	MsgDocumentCycle         = "Cannot move document: would create a circular parent reference"
)

// DocumentInput is DataHub's CreateDocumentInput.
type DocumentInput struct {
	ID, SubType, Title, State *string
	Text                      string
	// Owners are the ownership's owners as the aspect stores them (nil or
	// empty: the caller, a TECHNICAL_OWNER).
	Owners                          []map[string]any
	ParentDocument                  *string
	RelatedAssets, RelatedDocuments []string
	// ShowInGlobalContext is the settings' member (nil: true); Settings is
	// whether settings were given.
	ShowInGlobalContext *bool
}

func relatedList(urns []string, member string) []any {
	out := make([]any, 0, len(urns))
	for _, u := range urns {
		out = append(out, map[string]any{member: u})
	}
	return out
}

// CreateDocument creates a document as DataHub's createDocument: the id (a
// random UUID when nil) must be new; documentInfo gets the title, a NATIVE
// source, the text, created and lastModified stamps, the state
// (UNPUBLISHED unless given), the parent and related entities;
// subTypes the sub-type when given; documentSettings showInGlobalContext
// (true unless given) with a stamp; ownership the owners given, or the
// caller as a technical owner.
func (c *Core) CreateDocument(ctx context.Context, in DocumentInput) (string, error) {
	id := randomUUID()
	if in.ID != nil {
		id = *in.ID
	}
	u := "urn:li:document:" + id
	if err := checkURNs(slices.Concat([]string{u}, derefAll(in.ParentDocument), in.RelatedAssets, in.RelatedDocuments)...); err != nil {
		return "", err
	}
	for _, o := range in.Owners {
		if err := checkURNs(strMember(o, "owner")); err != nil {
			return "", err
		}
	}
	s := c.stamp(ctx)
	state := "UNPUBLISHED"
	if in.State != nil {
		state = *in.State
	}
	info := map[string]any{"source": map[string]any{"sourceType": "NATIVE"}, "contents": map[string]any{"text": in.Text},
		"created": s, "lastModified": s, "status": map[string]any{"state": state}}
	setGiven(info, "title", in.Title)
	if in.ParentDocument != nil {
		info["parentDocument"] = map[string]any{"document": *in.ParentDocument}
	}
	if len(in.RelatedAssets) > 0 {
		info["relatedAssets"] = relatedList(in.RelatedAssets, "asset")
	}
	if len(in.RelatedDocuments) > 0 {
		info["relatedDocuments"] = relatedList(in.RelatedDocuments, "document")
	}
	show := in.ShowInGlobalContext == nil || *in.ShowInGlobalContext
	owners := []any{}
	for _, o := range in.Owners {
		owners = append(owners, o)
	}
	if len(owners) == 0 {
		owners = []any{map[string]any{"owner": mutationActor(ctx), "type": "TECHNICAL_OWNER"}}
	}
	aspects := map[string]any{"documentInfo": info,
		"documentSettings": map[string]any{"showInGlobalContext": show, "lastModified": s},
		"ownership":        map[string]any{"owners": owners, "lastModified": s}}
	if in.SubType != nil {
		aspects["subTypes"] = map[string]any{"typeNames": []any{*in.SubType}}
	}
	return u, c.create(ctx, u, aspects, errorf(BadArgument, MsgDocumentExists, id))
}

// editDocumentInfo is a read-modify-write of a document's documentInfo that
// stamps lastModified; the document must have it.
func (c *Core) editDocumentInfo(ctx context.Context, u string, change func(info map[string]any)) error {
	missing := errorf(BadArgument, MsgDocumentMissing, u)
	s := c.stamp(ctx)
	return c.Update(ctx, u, "documentInfo", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, missing
		}
		return editObject(u, "documentInfo", func(obj map[string]any) error {
			change(obj)
			obj["lastModified"] = s
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: func(string) *Error { return missing }})
}

// UpdateDocumentContents sets the text and title given of a document, and
// its sub-type when given, as DataHub's updateDocumentContents.
func (c *Core) UpdateDocumentContents(ctx context.Context, u string, text, title, subType *string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	err := c.editDocumentInfo(ctx, u, func(info map[string]any) {
		if text != nil {
			info["contents"] = map[string]any{"text": *text}
		}
		setGiven(info, "title", title)
	})
	if err != nil || subType == nil {
		return err
	}
	return c.edit(ctx, u, "subTypes", nil, func(obj map[string]any) error {
		obj["typeNames"] = []any{*subType}
		return nil
	})
}

// UpdateDocumentRelatedEntities replaces the related assets and documents
// given (an empty list removes them) as DataHub's
// updateDocumentRelatedEntities.
func (c *Core) UpdateDocumentRelatedEntities(ctx context.Context, u string, assets, documents []string) error {
	if err := checkURNs(slices.Concat([]string{u}, assets, documents)...); err != nil {
		return err
	}
	set := func(info map[string]any, k, member string, urns []string) {
		switch {
		case urns == nil:
		case len(urns) == 0:
			delete(info, k)
		default:
			info[k] = relatedList(urns, member)
		}
	}
	return c.editDocumentInfo(ctx, u, func(info map[string]any) {
		set(info, "relatedAssets", "asset", assets)
		set(info, "relatedDocuments", "document", documents)
	})
}

// MoveDocument sets (or, nil, removes) a document's parent as DataHub's
// moveDocument: the parent must exist, and not be the document or one of
// its descendants.
func (c *Core) MoveDocument(ctx context.Context, u string, parent *string) error {
	if err := checkURNs(append([]string{u}, derefAll(parent)...)...); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, errorf(BadArgument, MsgDocumentMissing, u)); err != nil {
		return err
	}
	if parent != nil {
		if err := c.mustExist(ctx, *parent, errorf(BadArgument, MsgDocumentParentMissing, *parent)); err != nil {
			return err
		}
		if *parent == u {
			return errorf(BadArgument, "%s", MsgDocumentOwnParent)
		}
		seen := map[string]bool{}
		for p := *parent; p != "" && !seen[p]; {
			if p == u {
				return errorf(BadArgument, "%s", MsgDocumentCycle)
			}
			seen[p] = true
			info, err := c.latestObject(ctx, p, "documentInfo")
			if err != nil {
				return err
			}
			p = strMember(object(info, "parentDocument"), "document")
		}
	}
	return c.editDocumentInfo(ctx, u, func(info map[string]any) {
		delete(info, "parentDocument")
		if parent != nil {
			info["parentDocument"] = map[string]any{"document": *parent}
		}
	})
}

// UpdateDocumentStatus sets a document's status.state as DataHub's
// updateDocumentStatus.
func (c *Core) UpdateDocumentStatus(ctx context.Context, u, state string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	return c.editDocumentInfo(ctx, u, func(info map[string]any) { info["status"] = map[string]any{"state": state} })
}

// UpdateDocumentSettings replaces a document's documentSettings
// (showInGlobalContext, a lastModified stamp) and stamps its documentInfo,
// as DataHub's updateDocumentSettings.
func (c *Core) UpdateDocumentSettings(ctx context.Context, u string, show bool) error {
	return c.documentAspect(ctx, u, "documentSettings", map[string]any{"showInGlobalContext": show, "lastModified": c.stamp(ctx)})
}

// UpdateDocumentSubType replaces a document's subTypes (one name, or none
// when nil) and stamps its documentInfo, as DataHub's
// updateDocumentSubType.
func (c *Core) UpdateDocumentSubType(ctx context.Context, u string, subType *string) error {
	names := []any{}
	if subType != nil {
		names = append(names, *subType)
	}
	return c.documentAspect(ctx, u, "subTypes", map[string]any{"typeNames": names})
}

// documentAspect writes value as aspect of the existing document u and
// stamps its documentInfo's lastModified (when it has one).
func (c *Core) documentAspect(ctx context.Context, u, aspect string, value map[string]any) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	missing := func(string) *Error { return errorf(BadArgument, MsgDocumentMissing, u) }
	if err := c.mustExist(ctx, u, missing(u)); err != nil {
		return err
	}
	if err := c.edit(ctx, u, aspect, missing, func(obj map[string]any) error {
		clear(obj)
		for k, v := range value {
			obj[k] = v
		}
		return nil
	}); err != nil {
		return err
	}
	err := c.editDocumentInfo(ctx, u, func(map[string]any) {})
	if e := AsError(err); e != nil && e.Kind == BadArgument && e.Message == missing(u).Message {
		return nil // a document without documentInfo: the settings alone
	}
	return err
}

// DeleteDocument soft-deletes a document (status.removed) as DataHub's
// deleteDocument; it must exist.
func (c *Core) DeleteDocument(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	missing := errorf(BadArgument, MsgDocumentMissing, u)
	if err := c.mustExist(ctx, u, missing); err != nil {
		return err
	}
	return c.edit(ctx, u, "status", func(string) *Error { return missing }, func(obj map[string]any) error {
		obj["removed"] = true
		return nil
	})
}
