package gms

import (
	"context"
	"slices"
)

// DataHub's text of bulkEntityDataProducts' limit
// (BulkEntityDataProductsResolver).
const MsgBulkProductsTooMany = "Cannot fetch data products for more than %d entities at once"

// MaxBulkProductURNs is the most entities bulkEntityDataProducts takes.
const MaxBulkProductURNs = 100

// ProductAssociation is a data product an entity belongs to.
type ProductAssociation struct {
	DataProduct string
	// OutputPort is whether the entity (or a sibling) is an output port
	// of the product.
	OutputPort bool
}

// EntityProducts are the data products of one entity.
type EntityProducts struct {
	URN      string
	Products []ProductAssociation
}

// EntityDataProducts answers DataHub's bulkEntityDataProducts: for each
// entity, the data products that contain it or one of its siblings (the
// sources of their DataProductContains relationships), each with whether
// it is an output port there; in the order of urns.
func (c *Core) EntityDataProducts(ctx context.Context, urns []string) ([]EntityProducts, error) {
	if len(urns) > MaxBulkProductURNs {
		return nil, errorf(BadArgument, MsgBulkProductsTooMany, MaxBulkProductURNs)
	}
	if err := checkURNs(urns...); err != nil {
		return nil, err
	}
	c.barrier()
	groups := make(map[string][]string, len(urns))
	want := map[string]bool{}
	for _, u := range urns {
		group := []string{u}
		var sib struct {
			Siblings []string `json:"siblings"`
		}
		// DataHub skips an entity type whose siblings it cannot read.
		if ok, err := c.latestJSON(ctx, u, "siblings", &sib); err != nil && AsError(err).Kind == Internal {
			return nil, err
		} else if ok && err == nil {
			group = append(group, sib.Siblings...)
		}
		groups[u] = group
		for _, m := range group {
			want[m] = true
		}
	}
	rows, err := c.st.All()
	if err != nil {
		return nil, errorf(Internal, MsgStore, err)
	}
	products := map[string][]string{} // entity → products, in the store's order
	for _, a := range rows {
		for _, e := range c.edgesOf(a) {
			if e.Type == "DataProductContains" && want[e.Destination] && EntityTypeOf(e.Source) == "dataProduct" &&
				!slices.Contains(products[e.Destination], e.Source) {
				products[e.Destination] = append(products[e.Destination], e.Source)
			}
		}
	}
	ports := map[string]map[string]bool{}
	out := make([]EntityProducts, 0, len(urns))
	for _, u := range urns {
		ep := EntityProducts{URN: u, Products: []ProductAssociation{}}
		var seen []string
		for _, m := range groups[u] {
			for _, p := range products[m] {
				if slices.Contains(seen, p) {
					continue
				}
				seen = append(seen, p)
				if ports[p] == nil {
					if ports[p], err = c.outputPorts(ctx, p); err != nil {
						return nil, err
					}
				}
				port := false
				for _, g := range groups[u] {
					port = port || ports[p][g]
				}
				ep.Products = append(ep.Products, ProductAssociation{DataProduct: p, OutputPort: port})
			}
		}
		out = append(out, ep)
	}
	return out, nil
}

// outputPorts are the assets of data product p marked outputPort.
func (c *Core) outputPorts(ctx context.Context, p string) (map[string]bool, error) {
	var props struct {
		Assets []struct {
			DestinationURN string `json:"destinationUrn"`
			OutputPort     bool   `json:"outputPort"`
		} `json:"assets"`
	}
	out := map[string]bool{}
	if _, err := c.latestJSON(ctx, p, "dataProductProperties", &props); err != nil {
		return nil, err
	}
	for _, a := range props.Assets {
		if a.OutputPort {
			out[a.DestinationURN] = true
		}
	}
	return out, nil
}
