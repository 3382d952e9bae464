package graphql

import "github.com/catalogkit/datahub-go/mockserver/internal/gms"

// The business attribute mutations: each decodes its input and calls the
// core.

func init() {
	type attrInput struct {
		ID                      *string
		Name, Description, Type *string
	}
	coreInput := func(in attrInput) gms.BusinessAttributeInput {
		return gms.BusinessAttributeInput{ID: strOr(in.ID), Name: in.Name, Description: in.Description, Type: in.Type}
	}
	mutation("createBusinessAttribute", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input attrInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().CreateBusinessAttribute(c, coreInput(in.Input))
		return entityAnswer(c, u, err)
	})
	mutation("updateBusinessAttribute", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input attrInput
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return entityAnswer(c, in.URN, c.Core().UpdateBusinessAttribute(c, in.URN, coreInput(in.Input)))
	})
	mutation("deleteBusinessAttribute", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteBusinessAttribute(c, a.String("urn")))
	})
	type attachInput struct {
		Input struct {
			BusinessAttributeUrn string
			ResourceUrn          []*resourceRef
		}
	}
	mutation("addBusinessAttribute", func(c *Ctx, a Args) (any, error) {
		var in attachInput
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().AddBusinessAttribute(c, in.Input.BusinessAttributeUrn, refs(in.Input.ResourceUrn)))
	})
	mutation("removeBusinessAttribute", func(c *Ctx, a Args) (any, error) {
		var in attachInput
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().RemoveBusinessAttribute(c, in.Input.BusinessAttributeUrn, refs(in.Input.ResourceUrn)))
	})
}
