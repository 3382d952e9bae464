package gms

import (
	"context"
	"encoding/json"
	"slices"
)

// DataHub's texts of the glossary mutations (CreateGlossaryTermResolver,
// CreateGlossaryNodeResolver, AddRelatedTermsResolver,
// RemoveRelatedTermsResolver, UpdateParentNodeResolver,
// DeleteGlossaryEntityResolver).
const (
	MsgTermExists          = "This Glossary Term already exists!"
	MsgNodeExists          = "This Glossary Node already exists!"
	MsgTermNameTaken       = "Glossary Term with this name already exists at this level of the Business Glossary"
	MsgRelatedNotTerm      = "Failed to update %s. %s either does not exist or is not a glossaryTerm."
	MsgRelatedSelf         = "Failed to update %s. Tried to create related term with itself."
	MsgRelatedOtherType    = "Failed to update %s. %s is not a glossaryTerm."
	MsgRelatedMissing      = "Failed to update %s. %s does not exist."
	MsgRelatedNone         = "Failed to removes related terms from %s. Root cause: Related Terms for this Urn do not exist: %s"
	MsgRelatedNoneOfKind   = "Failed to removes related terms from %s. Root cause: Failed to remove from GlossaryRelatedTerms as they do not exist for this Glossary Term"
	MsgParentNotNode       = "Failed to update %s. %s either does not exist or is not a glossaryNode."
	MsgNodeUnderItself     = "Cannot move a glossary node under one of its own descendants."
	MsgParentUnsupported   = "Failed to update parentNode. Unsupported resource type %s provided."
	MsgTermInfoMissing     = "Info for this Glossary Term does not yet exist!"
	MsgNodeInfoMissing     = "Info for this Glossary Node does not yet exist!"
	MsgGlossaryDeleteNoURN = "This urn does not exist: %s"
)

// GlossaryInput is DataHub's CreateGlossaryEntityInput.
type GlossaryInput struct {
	// ID is the entity's id ("": a random UUID).
	ID          string
	Name        string
	Description *string
	ParentNode  *string
}

// CreateGlossaryTerm creates a glossary term as DataHub's
// createGlossaryTerm and returns its URN: no term under the same parent may
// have the name, the id must be new; glossaryTermInfo gets the name, the
// definition (the description, "" when absent), termSource INTERNAL and the
// parent; the creator becomes its technical owner.
func (c *Core) CreateGlossaryTerm(ctx context.Context, in GlossaryInput) (string, error) {
	return c.createGlossary(ctx, in, "glossaryTerm", "glossaryTermInfo", MsgTermExists)
}

// CreateGlossaryNode creates a glossary node as DataHub's
// createGlossaryNode and returns its URN (glossaryNodeInfo with the name,
// definition and parent; the creator becomes its technical owner).
func (c *Core) CreateGlossaryNode(ctx context.Context, in GlossaryInput) (string, error) {
	return c.createGlossary(ctx, in, "glossaryNode", "glossaryNodeInfo", MsgNodeExists)
}

func (c *Core) createGlossary(ctx context.Context, in GlossaryInput, entityType, aspect, existsMsg string) (string, error) {
	parent := ""
	if in.ParentNode != nil {
		parent = *in.ParentNode
		if err := checkURNs(parent); err != nil {
			return "", err
		}
	}
	if entityType == "glossaryTerm" {
		taken := false
		c.eachOfType("glossaryTerm", "glossaryTermInfo", func(_ string, info map[string]any) bool {
			taken = info != nil && strMember(info, "parentNode") == parent && strMember(info, "name") == in.Name
			return !taken
		})
		if taken {
			return "", errorf(BadArgument, "%s", MsgTermNameTaken)
		}
	}
	id := in.ID
	if id == "" {
		id = randomUUID()
	}
	u := "urn:li:" + entityType + ":" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	if ok, err := c.exists(ctx, u); err != nil {
		return "", err
	} else if ok {
		return "", errorf(BadArgument, "%s", existsMsg)
	}
	info := map[string]any{"name": in.Name, "definition": ""}
	if in.Description != nil {
		info["definition"] = *in.Description
	}
	if entityType == "glossaryTerm" {
		info["termSource"] = "INTERNAL"
	}
	if parent != "" {
		info["parentNode"] = parent
	}
	aspects := map[string]any{aspect: info, "ownership": c.creatorOwnership(ctx)}
	if err := c.create(ctx, u, aspects, errorf(BadArgument, "%s", existsMsg)); err != nil {
		return "", err
	}
	return u, nil
}

// creatorOwnership is the ownership DataHub's addCreatorAsOwner gives an
// entity the UI creates: the actor as technical owner.
func (c *Core) creatorOwnership(ctx context.Context) map[string]any {
	const tech = "urn:li:ownershipType:__system__technical_owner"
	return map[string]any{"owners": []any{map[string]any{"owner": mutationActor(ctx), "type": "TECHNICAL_OWNER",
		"typeUrn": tech, "source": map[string]any{"type": "MANUAL"}}}, "lastModified": c.stamp(ctx)}
}

// RelatedTermsChange is DataHub's RelatedTermsInput, an add or a remove.
type RelatedTermsChange struct {
	URN   string
	Terms []string
	// IsA picks isRelatedTerms (the isA relationship), else hasRelatedTerms.
	IsA    bool
	Remove bool
}

// ChangeRelatedTerms adds or removes related terms of a glossary term as
// DataHub's addRelatedTerms and removeRelatedTerms: the term must exist;
// an added term must be another existing glossary term; a removal needs
// the list to exist (DataHub's 500 otherwise).
func (c *Core) ChangeRelatedTerms(ctx context.Context, ch RelatedTermsChange) error {
	if err := checkURNs(ch.URN); err != nil {
		return err
	}
	if err := checkURNs(ch.Terms...); err != nil {
		return err
	}
	notTerm := errorf(BadArgument, MsgRelatedNotTerm, ch.URN, ch.URN)
	if EntityTypeOf(ch.URN) != "glossaryTerm" {
		return notTerm
	}
	if err := c.mustExist(ctx, ch.URN, notTerm); err != nil {
		return err
	}
	if !ch.Remove {
		for _, t := range ch.Terms {
			switch {
			case t == ch.URN:
				return errorf(BadArgument, MsgRelatedSelf, ch.URN)
			case EntityTypeOf(t) != "glossaryTerm":
				return errorf(BadArgument, MsgRelatedOtherType, ch.URN, t)
			}
			if err := c.mustExist(ctx, t, errorf(BadArgument, MsgRelatedMissing, ch.URN, t)); err != nil {
				return err
			}
		}
	}
	member := "hasRelatedTerms"
	if ch.IsA {
		member = "isRelatedTerms"
	}
	return c.Update(ctx, ch.URN, "glossaryRelatedTerms", func(cur json.RawMessage) (json.RawMessage, error) {
		if ch.Remove && cur == nil {
			return nil, errorf(Internal, MsgRelatedNone, ch.URN, ch.URN)
		}
		return editObject(ch.URN, "glossaryRelatedTerms", func(obj map[string]any) error {
			terms, ok := obj[member].([]any)
			if ch.Remove {
				if !ok {
					return errorf(Internal, MsgRelatedNoneOfKind, ch.URN)
				}
				out := terms[:0:0]
				for _, t := range terms {
					if s, _ := t.(string); !slices.Contains(ch.Terms, s) {
						out = append(out, t)
					}
				}
				obj[member] = out
				return nil
			}
			for _, t := range ch.Terms {
				if !slices.Contains(terms, any(t)) {
					terms = append(terms, t)
				}
			}
			if terms == nil {
				terms = []any{}
			}
			obj[member] = terms
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: func(string) *Error { return notTerm }})
}

// UpdateParentNode moves a glossary term or node under another node (nil:
// to the top) as DataHub's updateParentNode: the entity must exist, the
// parent be an existing glossary node, a node not under itself; the info
// aspect must exist.
func (c *Core) UpdateParentNode(ctx context.Context, u string, parent *string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, missingDescriptionTarget(u)); err != nil {
		return err
	}
	p := ""
	if parent != nil {
		p = *parent
		if err := checkURNs(p); err != nil {
			return err
		}
		bad := errorf(BadArgument, MsgParentNotNode, u, p)
		if EntityTypeOf(p) != "glossaryNode" {
			return bad
		}
		if err := c.mustExist(ctx, p, bad); err != nil {
			return err
		}
	}
	aspect, missing := "glossaryTermInfo", MsgTermInfoMissing
	switch EntityTypeOf(u) {
	case "glossaryTerm":
	case "glossaryNode":
		aspect, missing = "glossaryNodeInfo", MsgNodeInfoMissing
		if p != "" && (p == u || c.nodeUnder(p, u)) {
			return errorf(BadArgument, "%s", MsgNodeUnderItself)
		}
	default:
		return errorf(Internal, MsgParentUnsupported, Abbreviate(u))
	}
	return c.Update(ctx, u, aspect, func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, errorf(BadArgument, "%s", missing)
		}
		return editObject(u, aspect, func(obj map[string]any) error {
			if p == "" {
				delete(obj, "parentNode")
			} else {
				obj["parentNode"] = p
			}
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missingDescriptionTarget})
}

// nodeUnder reports whether glossary node n is below ancestor.
func (c *Core) nodeUnder(n, ancestor string) bool {
	parents := map[string]string{}
	c.eachOfType("glossaryNode", "glossaryNodeInfo", func(u string, info map[string]any) bool {
		parents[u] = strMember(info, "parentNode")
		return true
	})
	seen := map[string]bool{}
	for p := parents[n]; p != "" && !seen[p]; p = parents[p] {
		if p == ancestor {
			return true
		}
		seen[p] = true
	}
	return false
}

// DeleteEntityOfUI hard-deletes an entity the UI deletes (a glossary term
// or node, a tag, ...): it must exist (Internal with DataHub's text, its
// 500, otherwise). DataHub then removes references to it asynchronously;
// the mock leaves them.
func (c *Core) DeleteEntityOfUI(ctx context.Context, u, failure string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, errorf(Internal, "%s", failure)); err != nil {
		return err
	}
	_, err := c.DeleteEntity(ctx, u, "")
	return err
}

// DeleteGlossaryEntity deletes a glossary term or node as DataHub's
// deleteGlossaryEntity.
func (c *Core) DeleteGlossaryEntity(ctx context.Context, u string) error {
	return c.DeleteEntityOfUI(ctx, u, "This urn does not exist: "+u)
}
