package graphql

import "github.com/catalogkit/datahub-go/mockserver/internal/gms"

// erModelInput is ERModelRelationshipUpdateInput.
type erModelInput struct {
	Properties *struct {
		Name, Source, Destination      string
		RelationshipFieldmappings      []struct{ SourceField, DestinationField *string }
		ErModelRelationshipCardinality *string
		Created                        *bool
		CreatedAt                      *int64
		CreatedBy                      *string
	}
	EditableProperties *struct{ Name, Description *string }
}

func (in erModelInput) core() gms.ERModelRelationship {
	var out gms.ERModelRelationship
	if p := in.Properties; p != nil {
		out.Properties = &gms.ERModelProperties{Name: p.Name, Source: p.Source, Destination: p.Destination,
			Cardinality: strOr(p.ErModelRelationshipCardinality), Created: p.Created != nil && *p.Created,
			CreatedAt: p.CreatedAt, CreatedBy: p.CreatedBy}
		if p.RelationshipFieldmappings != nil {
			out.Properties.FieldMappings = [][2]string{}
			for _, m := range p.RelationshipFieldmappings {
				out.Properties.FieldMappings = append(out.Properties.FieldMappings, [2]string{strOr(m.SourceField), strOr(m.DestinationField)})
			}
		}
	}
	if e := in.EditableProperties; e != nil {
		out.EditableSet, out.EditName, out.Description = true, e.Name, e.Description
	}
	return out
}

func init() {
	mutation("createERModelRelationship", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input erModelInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().CreateERModelRelationship(c, in.Input.core())
		return entityAnswer(c, u, err)
	})
	mutation("updateERModelRelationship", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input erModelInput
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateERModelRelationship(c, in.URN, in.Input.core()))
	})
	// DataHub wires no data fetcher for deleteERModelRelationship: it
	// answers null and deletes nothing, as here.
	mutation("deleteERModelRelationship", func(c *Ctx, a Args) (any, error) { return nil, nil })
}
