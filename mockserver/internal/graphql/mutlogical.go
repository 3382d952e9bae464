package graphql

import "github.com/catalogkit/datahub-go/mockserver/internal/gms"

// The lifecycle stage and logical model mutations: each decodes its input
// and calls the core.

func columns(in []struct{ FieldPath, Type string }) []gms.Column {
	out := make([]gms.Column, 0, len(in))
	for _, c := range in {
		out = append(out, gms.Column{FieldPath: c.FieldPath, Type: c.Type})
	}
	return out
}

func init() {
	mutation("setLifecycleStage", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().SetLifecycleStage(c, a.String("urn"), a.String("lifecycleStageUrn")))
	})
	mutation("setLogicalParent", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ResourceUrn string
				ParentUrn   *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().SetLogicalParent(c, in.Input.ResourceUrn, strOr(in.Input.ParentUrn)))
	})
	mutation("createLogicalModel", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Name          string
				DisplayName   *string
				Env, Platform *string
				Columns       []struct{ FieldPath, Type string }
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		u, err := c.Core().CreateLogicalModel(c, gms.LogicalModel{Name: i.Name, DisplayName: i.DisplayName,
			Env: strOr(i.Env), Platform: strOr(i.Platform), Columns: columns(i.Columns)})
		if err != nil {
			return nil, fromCore(err)
		}
		return u, nil
	})
	mutation("linkPhysicalChild", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				LogicalParentUrn, ChildUrn string
				ColumnMappings             []gms.ColumnMapping
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().LinkPhysicalChild(c, in.Input.LogicalParentUrn, in.Input.ChildUrn, in.Input.ColumnMappings))
	})
	mutation("unlinkPhysicalChild", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ ChildUrn string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UnlinkPhysicalChild(c, in.Input.ChildUrn))
	})
	mutation("updateLogicalModelSchema", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN     string
				Columns []struct{ FieldPath, Type string }
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateLogicalModelSchema(c, in.Input.URN, columns(in.Input.Columns)))
	})
}
