package gms

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"

	"github.com/catalogkit/datahub-go/mockserver/internal/index"
)

// DataHub's texts of the domain mutations (SetDomainResolver,
// UnsetDomainResolver, DomainUtils, CreateDomainResolver, MoveDomainResolver,
// DeleteDomainResolver).
const (
	MsgSetDomainNoDomain = "Failed to add Entity %s to Domain %s. Domain does not exist."
	MsgSetDomainNoEntity = "Failed to add Entity %s to Domain %s. Entity does not exist."
	// MsgUnsetDomainNoEntity is what DataHub answers: its message has two
	// %s for one argument, and Java's formatter fails with this text.
	MsgUnsetDomainNoEntity = "Format specifier '%s'"
	MsgDomainMissing       = "Failed to validate Domain with urn %s. Urn does not exist."
	MsgDomainExists        = "This Domain already exists!"
	MsgParentDomainMissing = "Parent Domain does not exist!"
	MsgDomainNameTaken     = "\"%s\" already exists in this domain. Please pick a unique name."
	MsgDomainNameTakenMove = "\"%s\" already exists in the destination domain. Please pick a unique name."
	MsgNotADomain          = "Resource is not a domain."
	MsgDomainNoProperties  = "Domain properties do not exist."
	MsgParentNotADomain    = "Parent entity is not a domain."
	MsgParentMissing       = "Parent entity does not exist."
	MsgDomainUnderItself   = "Cannot move a domain under one of its own descendants."
	MsgDomainHasChildren   = "Failed to perform delete against domain with urn %s. Root cause: Cannot delete domain %s which has child domains"
)

// SetDomain sets the one domain of entity as DataHub's setDomain: the domain
// and then the entity must exist; domains.domains becomes [domain].
func (c *Core) SetDomain(ctx context.Context, entity, domain string) error {
	if err := checkURNs(entity, domain); err != nil {
		return err
	}
	if err := c.mustExist(ctx, domain, errorf(BadArgument, MsgSetDomainNoDomain, entity, domain)); err != nil {
		return err
	}
	if err := c.mustExist(ctx, entity, errorf(BadArgument, MsgSetDomainNoEntity, entity, domain)); err != nil {
		return err
	}
	return c.setDomains(ctx, entity, []string{domain}, func(u string) *Error {
		return errorf(BadArgument, MsgSetDomainNoEntity, u, domain)
	})
}

// UnsetDomain empties the domains of entity as DataHub's unsetDomain (the
// entity must exist; DataHub's refusal of a missing one is its formatter's
// failure, which the mock repeats).
func (c *Core) UnsetDomain(ctx context.Context, entity string) error {
	if err := checkURNs(entity); err != nil {
		return err
	}
	missing := func(string) *Error { return &Error{Kind: BadArgument, Message: MsgUnsetDomainNoEntity, Index: -1} }
	if err := c.mustExist(ctx, entity, missing(entity)); err != nil {
		return err
	}
	return c.setDomains(ctx, entity, []string{}, missing)
}

// BatchSetDomain sets (domain non-nil) or clears the domain of resources as
// DataHub's batchSetDomain: the domain must exist, then every resource
// (LabelUtils.validateResource's checks).
func (c *Core) BatchSetDomain(ctx context.Context, domain *string, resources []ResourceRef) error {
	set := []string{}
	if domain != nil {
		if err := checkURNs(*domain); err != nil {
			return err
		}
		if err := c.mustExist(ctx, *domain, errorf(BadArgument, MsgDomainMissing, *domain)); err != nil {
			return err
		}
		set = []string{*domain}
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
		if err := c.setDomains(ctx, r.URN, set, func(u string) *Error { return errorf(BadArgument, MsgResourceMissing, u) }); err != nil {
			return err
		}
	}
	return nil
}

// setDomains writes domains.domains of u, keeping its other members.
func (c *Core) setDomains(ctx context.Context, u string, domains []string, missing func(string) *Error) error {
	return c.edit(ctx, u, "domains", missing, func(obj map[string]any) error {
		obj["domains"] = domains
		return nil
	})
}

// DomainInput is DataHub's CreateDomainInput.
type DomainInput struct {
	// ID is the domain's id ("": a random UUID).
	ID           string
	Name         string
	Description  *string
	ParentDomain *string
	Owners       []Owner
}

// CreateDomain creates a domain as DataHub's createDomain and returns its
// URN: the id must be new, the parent must exist, and no domain of the same
// parent may have the name (Conflict); its domainProperties get the name,
// description, parent and a created stamp; owners are then added.
func (c *Core) CreateDomain(ctx context.Context, in DomainInput) (string, error) {
	id := in.ID
	if id == "" {
		id = randomUUID()
	}
	u := "urn:li:domain:" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	if ok, err := c.exists(ctx, u); err != nil {
		return "", err
	} else if ok {
		return "", errorf(BadArgument, MsgDomainExists)
	}
	parent := ""
	if in.ParentDomain != nil {
		parent = *in.ParentDomain
		if err := checkURNs(parent); err != nil {
			return "", err
		}
		if err := c.mustExist(ctx, parent, errorf(BadArgument, MsgParentDomainMissing)); err != nil {
			return "", err
		}
	}
	if c.domainNameTaken(in.Name, parent, "") {
		return "", errorf(Conflict, MsgDomainNameTaken, in.Name)
	}
	props := map[string]any{"name": in.Name, "created": c.stamp(ctx)}
	if in.Description != nil {
		props["description"] = *in.Description
	}
	if parent != "" {
		props["parentDomain"] = parent
	}
	if err := c.create(ctx, u, map[string]any{"domainProperties": props}, errorf(BadArgument, MsgDomainExists)); err != nil {
		return "", err
	}
	if len(in.Owners) > 0 {
		if err := c.AddOwners(ctx, in.Owners, []ResourceRef{{URN: u}}); err != nil {
			return "", err
		}
	}
	return u, nil
}

// MoveDomain moves a domain under a new parent (nil: to the top) as
// DataHub's moveDomain: the resource must be a domain with properties, the
// parent an existing domain that is neither the domain nor under it, and
// the destination must not have a domain of the same name (Conflict).
func (c *Core) MoveDomain(ctx context.Context, domain string, parent *string) error {
	if err := checkURNs(domain); err != nil {
		return err
	}
	if EntityTypeOf(domain) != "domain" {
		return errorf(BadArgument, MsgNotADomain)
	}
	props, err := c.latestObject(ctx, domain, "domainProperties")
	if err != nil {
		return err
	}
	if props == nil {
		return errorf(BadArgument, MsgDomainNoProperties)
	}
	p := ""
	if parent != nil {
		p = *parent
		if err := checkURNs(p); err != nil {
			return err
		}
		if EntityTypeOf(p) != "domain" {
			return errorf(BadArgument, MsgParentNotADomain)
		}
		if err := c.mustExist(ctx, p, errorf(BadArgument, MsgParentMissing)); err != nil {
			return err
		}
		if p == domain || c.domainUnder(p, domain) {
			return errorf(BadArgument, MsgDomainUnderItself)
		}
	}
	name := strMember(props, "name")
	if c.domainNameTaken(name, p, domain) {
		return errorf(Conflict, MsgDomainNameTakenMove, name)
	}
	return c.edit(ctx, domain, "domainProperties", func(string) *Error { return errorf(BadArgument, MsgDomainNoProperties) },
		func(obj map[string]any) error {
			if p == "" {
				delete(obj, "parentDomain")
			} else {
				obj["parentDomain"] = p
			}
			return nil
		})
}

// DeleteDomain hard-deletes a domain as DataHub's deleteDomain, refusing one
// with child domains (Internal, DataHub's 500 and text).
func (c *Core) DeleteDomain(ctx context.Context, domain string) error {
	if err := checkURNs(domain); err != nil {
		return err
	}
	c.barrier()
	children := false
	c.eachDomain(func(u string, props map[string]any) bool {
		children = strMember(props, "parentDomain") == domain
		return !children
	})
	if children {
		return errorf(Internal, MsgDomainHasChildren, domain, domain)
	}
	_, err := c.DeleteEntity(ctx, domain, "")
	return err
}

// eachDomain calls fn with every indexed domain's properties until it
// returns false.
func (c *Core) eachDomain(fn func(u string, props map[string]any) bool) {
	c.eachOfType("domain", "domainProperties", fn)
}

// eachOfType calls fn with every indexed entity of entityType and its
// aspect decoded (nil when absent) until fn returns false; the index is
// caught up first.
func (c *Core) eachOfType(entityType, aspect string, fn func(u string, value map[string]any) bool) {
	c.barrier()
	c.ix.Each(index.EntityIndexName(entityType), func(d *index.Document) bool {
		var v map[string]any
		if raw := d.Aspects[aspect]; raw != nil {
			_ = json.Unmarshal(raw, &v)
		}
		return fn(d.URN, v)
	})
}

// domainNameTaken reports whether a domain other than self under parent
// ("": at the top) has the name, as DataHub's DomainUtils.hasNameConflict
// searches for one.
func (c *Core) domainNameTaken(name, parent, self string) bool {
	c.barrier()
	taken := false
	c.eachDomain(func(u string, props map[string]any) bool {
		taken = u != self && props != nil && strMember(props, "name") == name && strMember(props, "parentDomain") == parent
		return !taken
	})
	return taken
}

// domainUnder reports whether domain d is below ancestor.
func (c *Core) domainUnder(d, ancestor string) bool {
	parents := map[string]string{}
	c.eachDomain(func(u string, props map[string]any) bool {
		parents[u] = strMember(props, "parentDomain")
		return true
	})
	seen := map[string]bool{}
	for p := parents[d]; p != "" && !seen[p]; p = parents[p] {
		if p == ancestor {
			return true
		}
		seen[p] = true
	}
	return false
}

// latestObject is the latest value of aspect of u decoded (nil when
// absent).
func (c *Core) latestObject(ctx context.Context, u, aspect string) (map[string]any, error) {
	v, err := c.GetAspect(ctx, u, aspect, 0)
	if e := AsError(err); e != nil && e.Kind == NotFound {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	obj := map[string]any{}
	if err := json.Unmarshal(v.Value, &obj); err != nil {
		return nil, errorf(Internal, MsgMapAspect, aspect, Abbreviate(u), err)
	}
	return obj, nil
}

// randomUUID is a random (version 4) UUID, as Java's UUID.randomUUID.
func randomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
