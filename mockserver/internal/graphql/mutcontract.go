package graphql

import "github.com/catalogkit/datahub-go/mockserver/internal/gms"

func init() {
	mutation("upsertDataContract", func(c *Ctx, a Args) (any, error) {
		type part []struct{ AssertionUrn string }
		urns := func(p part) []string {
			if p == nil {
				return nil
			}
			out := []string{}
			for _, x := range p {
				out = append(out, x.AssertionUrn)
			}
			return out
		}
		var in struct {
			Input struct {
				EntityUrn                      string
				Freshness, Schema, DataQuality part
				State, ID                      *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		u, err := c.Core().UpsertDataContract(c, gms.DataContract{Entity: i.EntityUrn, Freshness: urns(i.Freshness),
			Schema: urns(i.Schema), DataQuality: urns(i.DataQuality), State: strOr(i.State), ID: strOr(i.ID)})
		return entityAnswer(c, u, err)
	})
}
