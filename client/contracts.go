package client

import (
	"context"
	"fmt"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/urn"
)

// DataContracts sets and reads data contracts: the assertions an entity
// (a dataset) promises to pass, by kind (schema, freshness, data
// quality). A contract is a dataContract entity written as DataHub's
// Python client writes one (DataContract.generate_mcp): its
// dataContractProperties, a status that is not removed and its
// dataContractStatus. Make the assertions first (such as with
// [Assertions.UpsertCustom]). Get it with [Client.DataContracts].
type DataContracts struct {
	c *Client
}

// DataContracts returns the data contract operations of c.
func (c *Client) DataContracts() *DataContracts { return &DataContracts{c: c} }

// DataContractSpec is a data contract: its entity and assertions.
type DataContractSpec struct {
	// URN is the contract; zero: [DataContractURN] of Entity, as Python
	// names a contract.
	URN urn.DataContract
	// Entity is the entity it is about (required).
	Entity urn.URN
	// Schema, Freshness and DataQuality are its assertions by kind.
	Schema, Freshness, DataQuality []urn.Assertion
	// State is its state: PENDING (the default, as Python writes a new
	// contract) until something evaluates it, then ACTIVE.
	State aspects.DataContractState
}

// DataContractURN returns the URN DataHub's Python client gives the
// contract of entity e: urn:li:dataContract: and DataHub's GUID of
// {"entity": e}.
func DataContractURN(e urn.URN) (urn.DataContract, error) {
	if e == nil {
		return urn.DataContract{}, fmt.Errorf("client: data contract URN: no entity: %w", datahub.ErrValidation)
	}
	id, err := urn.GUID(map[string]any{"entity": e.String()})
	if err != nil {
		return urn.DataContract{}, err
	}
	return urn.NewDataContract(id)
}

// Set writes contract d (creating or replacing it, in one request) and
// returns its URN.
func (dc *DataContracts) Set(ctx context.Context, d DataContractSpec) (urn.DataContract, error) {
	if d.Entity == nil {
		return urn.DataContract{}, fmt.Errorf("client: set data contract: no entity: %w", datahub.ErrValidation)
	}
	u := d.URN
	if u == (urn.DataContract{}) {
		var err error
		if u, err = DataContractURN(d.Entity); err != nil {
			return urn.DataContract{}, fmt.Errorf("client: set data contract of %s: %w", d.Entity, err)
		}
	}
	state := d.State
	if state == "" {
		state = aspects.DataContractStatePending
	}
	props := &aspects.DataContractProperties{Entity: d.Entity.String()}
	for _, a := range d.Schema {
		props.Schema = append(props.Schema, aspects.SchemaContract{Assertion: a.String()})
	}
	for _, a := range d.Freshness {
		props.Freshness = append(props.Freshness, aspects.FreshnessContract{Assertion: a.String()})
	}
	props.DataQuality = []aspects.DataQualityContract{}
	for _, a := range d.DataQuality {
		props.DataQuality = append(props.DataQuality, aspects.DataQualityContract{Assertion: a.String()})
	}
	e := &entity.DataContract{URN: u, Properties: props, Status: &aspects.Status{Removed: false},
		DataContractStatus: &aspects.DataContractStatus{State: state}}
	if err := dc.c.Entities().Upsert(ctx, e); err != nil {
		return urn.DataContract{}, fmt.Errorf("client: set data contract %s of %s: %w", u, d.Entity, err)
	}
	return u, nil
}

// Get reads contract u (an error matching datahub.ErrNotFound when it has
// no properties).
func (dc *DataContracts) Get(ctx context.Context, u urn.DataContract) (DataContractSpec, error) {
	got, err := dc.c.Entities().Get(ctx, u, aspects.DataContractProperties{}.AspectName(), aspects.DataContractStatus{}.AspectName())
	if err != nil {
		return DataContractSpec{}, fmt.Errorf("client: data contract %s: %w", u, err)
	}
	e := got.(*entity.DataContract)
	if e.Properties == nil {
		return DataContractSpec{}, fmt.Errorf("client: data contract %s: no dataContractProperties: %w", u, datahub.ErrNotFound)
	}
	d := DataContractSpec{URN: u}
	if d.Entity, err = urn.Parse(e.Properties.Entity); err != nil {
		return DataContractSpec{}, fmt.Errorf("client: data contract %s: %w", u, err)
	}
	if e.DataContractStatus != nil {
		d.State = e.DataContractStatus.State
	}
	parse := func(s string) (urn.Assertion, bool) {
		a, perr := urn.ParseAssertion(s)
		if perr != nil && err == nil {
			err = fmt.Errorf("client: data contract %s: %w", u, perr)
		}
		return a, perr == nil
	}
	for _, c := range e.Properties.Schema {
		if a, ok := parse(c.Assertion); ok {
			d.Schema = append(d.Schema, a)
		}
	}
	for _, c := range e.Properties.Freshness {
		if a, ok := parse(c.Assertion); ok {
			d.Freshness = append(d.Freshness, a)
		}
	}
	for _, c := range e.Properties.DataQuality {
		if a, ok := parse(c.Assertion); ok {
			d.DataQuality = append(d.DataQuality, a)
		}
	}
	if err != nil {
		return DataContractSpec{}, err
	}
	return d, nil
}
