package gms

import (
	"context"
	"encoding/json"
	"slices"
)

// DataHub's texts of the data product mutations (CreateDataProductResolver,
// DataProductService, DataProductResolverUtils).
const (
	MsgProductNoDomain   = "The Domain provided dos not exist"
	MsgProductExists     = "This Data product already exists!"
	MsgProductMissing    = "Failed to update DataProduct. DataProduct with urn %s does not exist."
	MsgProductNoResource = "Failed to update data products, resource %s does not exist"
	MsgProductNoProduct  = "Failed to update data products, data product %s does not exist"
)

// DataProductInput is DataHub's CreateDataProductInput.
type DataProductInput struct {
	// ID is the data product's id ("": a random UUID).
	ID          string
	Name        string
	Description *string
	DomainURN   string
}

// CreateDataProduct creates a data product in a domain as DataHub's
// createDataProduct and returns its URN: the domain must exist, the id be
// new; dataProductProperties gets the name and description, domains the
// domain, and the creator becomes its technical owner.
func (c *Core) CreateDataProduct(ctx context.Context, in DataProductInput) (string, error) {
	if err := checkURNs(in.DomainURN); err != nil {
		return "", err
	}
	if err := c.mustExist(ctx, in.DomainURN, errorf(BadArgument, "%s", MsgProductNoDomain)); err != nil {
		return "", err
	}
	id := in.ID
	if id == "" {
		id = randomUUID()
	}
	u := "urn:li:dataProduct:" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	exists := errorf(BadArgument, "%s", MsgProductExists)
	if err := c.mustNotExist(ctx, u, exists); err != nil {
		return "", err
	}
	props := map[string]any{"name": in.Name}
	if in.Description != nil {
		props["description"] = *in.Description
	}
	aspects := map[string]any{"dataProductProperties": props, "domains": map[string]any{"domains": []string{in.DomainURN}},
		"ownership": c.creatorOwnership(ctx)}
	if err := c.create(ctx, u, aspects, exists); err != nil {
		return "", err
	}
	return u, nil
}

// UpdateDataProduct changes a data product's name and description (those
// given) as DataHub's updateDataProduct; its properties must exist.
func (c *Core) UpdateDataProduct(ctx context.Context, u string, name, description *string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	missing := func(u string) *Error { return errorf(BadArgument, MsgProductMissing, u) }
	return c.Update(ctx, u, "dataProductProperties", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, missing(u)
		}
		return editObject(u, "dataProductProperties", func(obj map[string]any) error {
			if name != nil {
				obj["name"] = *name
			}
			if description != nil {
				obj["description"] = *description
			}
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missing})
}

// DeleteDataProduct hard-deletes a data product as DataHub's
// deleteDataProduct (DataHub then clears references to it asynchronously;
// the mock leaves them).
func (c *Core) DeleteDataProduct(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	_, err := c.DeleteEntity(ctx, u, "")
	return err
}

// BatchSetDataProduct puts resources in a data product (nil: takes them
// out of theirs) as DataHub's batchSetDataProduct: every resource must
// exist, and the data product too. A resource is appended to the product's
// dataProductProperties.assets once, with created and lastModified stamps,
// and taken out of every other data product (an asset is in one data
// product).
func (c *Core) BatchSetDataProduct(ctx context.Context, product *string, resources []string) error {
	if err := checkURNs(resources...); err != nil {
		return err
	}
	for _, r := range resources {
		if err := c.mustExist(ctx, r, errorf(BadArgument, MsgProductNoResource, r)); err != nil {
			return err
		}
	}
	target := ""
	if product != nil {
		target = *product
		if err := checkURNs(target); err != nil {
			return err
		}
		if err := c.mustExist(ctx, target, errorf(BadArgument, MsgProductNoProduct, target)); err != nil {
			return err
		}
	}
	var others []string
	c.eachOfType("dataProduct", "dataProductProperties", func(u string, props map[string]any) bool {
		if u == target {
			return true
		}
		for _, it := range list(props, "assets") {
			a, _ := it.(map[string]any)
			if slices.Contains(resources, strMember(a, "destinationUrn")) {
				others = append(others, u)
				break
			}
		}
		return true
	})
	for _, u := range others {
		if err := c.editAssets(ctx, u, nil, resources); err != nil {
			return err
		}
	}
	if target == "" {
		return nil
	}
	return c.editAssets(ctx, target, resources, nil)
}

// editAssets adds and removes assets of data product u.
func (c *Core) editAssets(ctx context.Context, u string, add, remove []string) error {
	stamp := c.stamp(ctx)
	missing := func(u string) *Error { return errorf(BadArgument, MsgProductNoProduct, u) }
	return c.Update(ctx, u, "dataProductProperties", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, missing(u)
		}
		return editObject(u, "dataProductProperties", func(obj map[string]any) error {
			assets := []any{}
			have := map[string]bool{}
			for _, it := range list(obj, "assets") {
				a, _ := it.(map[string]any)
				d := strMember(a, "destinationUrn")
				if slices.Contains(remove, d) {
					continue
				}
				have[d] = true
				assets = append(assets, it)
			}
			for _, r := range add {
				if !have[r] {
					have[r] = true
					assets = append(assets, map[string]any{"destinationUrn": r, "created": stamp, "lastModified": stamp})
				}
			}
			obj["assets"] = assets
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missing})
}
