package gms

import (
	"context"
	"encoding/json"
)

// DataHub's texts of updateName (UpdateNameResolver).
const (
	MsgNameUnsupported   = "Failed to update name. Unsupported resource type %s provided."
	MsgNameNoTerm        = "Glossary Term does not exist"
	MsgNameNoNode        = "Glossary Node does not exist"
	MsgNameNoDomain      = "Domain does not exist"
	MsgNameNoDataProduct = "Data Product does not exist"
	MsgNameNoAttribute   = "Business Attribute does not exist"
	MsgAttributeTaken    = "\"%s\" already exists as Business Attribute. Please pick a unique name."
)

// UpdateName renames an entity as DataHub's updateName: the entity must
// exist (DataHub's "Failed to update <urn>. <urn> does not exist."); then,
// by entity type, the name member of its properties aspect, which must
// exist (glossaryTermInfo, glossaryNodeInfo, domainProperties — no other
// domain of the same parent may have the name, Conflict —,
// dataProductProperties, businessAttributeInfo — whose fieldPath follows
// and whose name must be unique, Conflict); a group's
// corpGroupInfo.displayName (made with empty lists when absent); a
// dataset's editableDatasetProperties.name with a lastModified stamp. Other
// entity types are Unsupported. Each is one read-modify-write with the UI's
// systemMetadata.
//
// DataHub replaces a dataset's editableDatasetProperties with one holding
// only the name; the mock keeps its other members (the description).
func (c *Core) UpdateName(ctx context.Context, u, name string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := c.mustExist(ctx, u, missingDescriptionTarget(u)); err != nil {
		return err
	}
	rename := func(aspect, absent string, change func(obj map[string]any)) error {
		return c.Update(ctx, u, aspect, func(cur json.RawMessage) (json.RawMessage, error) {
			if cur == nil && absent != "" {
				return nil, errorf(BadArgument, "%s", absent)
			}
			return editObject(u, aspect, func(obj map[string]any) error {
				change(obj)
				return nil
			})(cur)
		}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missingDescriptionTarget})
	}
	setName := func(obj map[string]any) { obj["name"] = name }
	switch EntityTypeOf(u) {
	case "glossaryTerm":
		return rename("glossaryTermInfo", MsgNameNoTerm, setName)
	case "glossaryNode":
		return rename("glossaryNodeInfo", MsgNameNoNode, setName)
	case "domain":
		props, err := c.latestObject(ctx, u, "domainProperties")
		if err != nil {
			return err
		}
		if props == nil {
			return errorf(BadArgument, "%s", MsgNameNoDomain)
		}
		if c.domainNameTaken(name, strMember(props, "parentDomain"), u) {
			return errorf(Conflict, MsgDomainNameTaken, name)
		}
		return rename("domainProperties", MsgNameNoDomain, setName)
	case "corpGroup":
		return rename("corpGroupInfo", "", func(obj map[string]any) {
			for _, k := range []string{"admins", "members", "groups"} {
				if obj[k] == nil {
					obj[k] = []any{}
				}
			}
			obj["displayName"] = name
		})
	case "dataProduct":
		return rename("dataProductProperties", MsgNameNoDataProduct, setName)
	case "businessAttribute":
		if c.attributeNameTaken(name, u) {
			return errorf(Conflict, MsgAttributeTaken, name)
		}
		return rename("businessAttributeInfo", MsgNameNoAttribute, func(obj map[string]any) {
			obj["name"], obj["fieldPath"] = name, name
		})
	case "dataset":
		return rename("editableDatasetProperties", "", func(obj map[string]any) {
			obj["name"] = name
			obj["lastModified"] = c.stamp(ctx)
		})
	}
	return errorf(Unsupported, MsgNameUnsupported, Abbreviate(u))
}

// attributeNameTaken reports whether a business attribute other than self
// has the name.
func (c *Core) attributeNameTaken(name, self string) bool {
	taken := false
	c.eachOfType("businessAttribute", "businessAttributeInfo", func(u string, info map[string]any) bool {
		taken = u != self && strMember(info, "name") == name
		return !taken
	})
	return taken
}
