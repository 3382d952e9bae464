package graphql

func init() {
	// bulkEntityDataProducts (BulkEntityDataProductsResolver): the data
	// products of each entity, each as a DataProduct with its urn and type.
	query("bulkEntityDataProducts", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ Urns []string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		eps, err := c.Core().EntityDataProducts(c, in.Input.Urns)
		if err != nil {
			return nil, fromCore(err)
		}
		out := make([]any, 0, len(eps))
		for _, ep := range eps {
			assocs := make([]any, 0, len(ep.Products))
			for _, p := range ep.Products {
				e, gerr := c.x.h.res.load(c, p.DataProduct, "")
				if gerr != nil {
					return nil, gerr
				}
				assocs = append(assocs, map[string]any{"dataProduct": newEntityR(e), "isOutputPort": p.OutputPort})
			}
			out = append(out, map[string]any{"urn": ep.URN, "dataProductAssociations": assocs})
		}
		return map[string]any{"entities": out}, nil
	})
}
