package gms

import "context"

// DataHub's texts of upsertDataContract (UpsertDataContractResolver).
const (
	MsgContractNoEntity    = "Provided entity with urn %s does not exist!"
	MsgContractNoAssertion = "Provided assertion with urn %s does not exist!"
)

// DataContract is DataHub's UpsertDataContractInput.
type DataContract struct {
	Entity string
	// Freshness, Schema and DataQuality are the assertions of each part
	// (nil: the part is left out).
	Freshness, Schema, DataQuality []string
	// State is ACTIVE or PENDING ("": ACTIVE).
	State string
	// ID is the new contract's id ("": a random UUID); an entity's
	// existing contract keeps its URN.
	ID string
}

// UpsertDataContract writes the data contract of an entity as DataHub's
// upsertDataContract and returns its URN: the entity and every assertion
// must exist; the entity's contract (the source of its incoming ContractFor
// relationship) is replaced, else a new one is made;
// dataContractProperties (the entity and the assertions of each part)
// and dataContractStatus are written in one batch.
func (c *Core) UpsertDataContract(ctx context.Context, in DataContract) (string, error) {
	if err := checkURNs(in.Entity); err != nil {
		return "", err
	}
	if err := c.mustExist(ctx, in.Entity, errorf(BadArgument, MsgContractNoEntity, in.Entity)); err != nil {
		return "", err
	}
	for _, part := range [][]string{in.Freshness, in.Schema, in.DataQuality} {
		for _, a := range part {
			if err := checkURNs(a); err != nil {
				return "", err
			}
			if err := c.mustExist(ctx, a, errorf(BadArgument, MsgContractNoAssertion, a)); err != nil {
				return "", err
			}
		}
	}
	c.barrier()
	existing, err := c.edges(ctx, in.Entity, []string{"ContractFor"}, true)
	if err != nil {
		return "", err
	}
	var u string
	if len(existing) > 0 {
		u = existing[0].Source
	} else {
		id := in.ID
		if id == "" {
			id = randomUUID()
		}
		u = "urn:li:dataContract:" + id
		if err := checkURNs(u); err != nil {
			return "", err
		}
	}
	props := map[string]any{"entity": in.Entity}
	for name, part := range map[string][]string{"freshness": in.Freshness, "schema": in.Schema, "dataQuality": in.DataQuality} {
		if part == nil {
			continue
		}
		items := []any{}
		for _, a := range part {
			items = append(items, map[string]any{"assertion": a})
		}
		props[name] = items
	}
	state := in.State
	if state == "" {
		state = "ACTIVE"
	}
	if err := c.writeAll(ctx, u, map[string]any{"dataContractProperties": props, "dataContractStatus": map[string]any{"state": state}}); err != nil {
		return "", err
	}
	return u, nil
}
