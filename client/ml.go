package client

import (
	"context"
	"slices"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

// The ML helpers add or remove one URN in a list of an ML entity's
// properties aspect with Modify, or with one PATCH proposal under the
// patch strategy (WithWriteStrategy), so that concurrent helpers never
// lose each other's items. Each is idempotent (adding a URN that is there, or
// removing one that is not, writes nothing), refuses with an
// *EntityNotFoundError (errors.Is(err, datahub.ErrNotFound)) when the
// entity it writes to does not exist, and does not require the entity it
// refers to to exist, as DataHub does not.

// AddFeatureToTable adds feature to table's mlFeatureTableProperties.mlFeatures.
func (c *Client) AddFeatureToTable(ctx context.Context, table urn.MLFeatureTable, feature urn.MLFeature) error {
	return c.either(ctx, table, mlTableProps, func() *patch.Builder {
		b := patch.NewMLFeatureTable(table)
		b.AddFeature(feature.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, table, true, func(p *aspects.MLFeatureTableProperties) error {
			return addURN(&p.MLFeatures, feature)
		})
	})
}

// RemoveFeatureFromTable removes feature from table's
// mlFeatureTableProperties.mlFeatures.
func (c *Client) RemoveFeatureFromTable(ctx context.Context, table urn.MLFeatureTable, feature urn.MLFeature) error {
	return c.either(ctx, table, mlTableProps, func() *patch.Builder {
		b := patch.NewMLFeatureTable(table)
		b.RemoveFeature(feature.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, table, true, func(p *aspects.MLFeatureTableProperties) error {
			return removeURN(&p.MLFeatures, feature)
		})
	})
}

// AddFeatureToModel adds feature to model's mlModelProperties.mlFeatures
// (the features the model was trained on).
func (c *Client) AddFeatureToModel(ctx context.Context, model urn.MLModel, feature urn.MLFeature) error {
	return c.either(ctx, model, mlModelProps, func() *patch.Builder {
		b := patch.NewMLModel(model)
		b.AddFeature(feature.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, model, true, func(p *aspects.MLModelProperties) error {
			return addURN(&p.MLFeatures, feature)
		})
	})
}

// RemoveFeatureFromModel removes feature from model's
// mlModelProperties.mlFeatures.
func (c *Client) RemoveFeatureFromModel(ctx context.Context, model urn.MLModel, feature urn.MLFeature) error {
	return c.either(ctx, model, mlModelProps, func() *patch.Builder {
		b := patch.NewMLModel(model)
		b.RemoveFeature(feature.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, model, true, func(p *aspects.MLModelProperties) error {
			return removeURN(&p.MLFeatures, feature)
		})
	})
}

// AddModelToGroup adds group to model's mlModelProperties.groups: the
// membership is stored on the model, as DataHub stores it.
func (c *Client) AddModelToGroup(ctx context.Context, model urn.MLModel, group urn.MLModelGroup) error {
	return c.either(ctx, model, mlModelProps, func() *patch.Builder {
		b := patch.NewMLModel(model)
		b.AddGroup(group.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, model, true, func(p *aspects.MLModelProperties) error {
			return addURN(&p.Groups, group)
		})
	})
}

// RemoveModelFromGroup removes group from model's mlModelProperties.groups.
func (c *Client) RemoveModelFromGroup(ctx context.Context, model urn.MLModel, group urn.MLModelGroup) error {
	return c.either(ctx, model, mlModelProps, func() *patch.Builder {
		b := patch.NewMLModel(model)
		b.RemoveGroup(group.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, model, true, func(p *aspects.MLModelProperties) error {
			return removeURN(&p.Groups, group)
		})
	})
}

// AddSourceToFeature adds source (usually a dataset) to feature's
// mlFeatureProperties.sources.
func (c *Client) AddSourceToFeature(ctx context.Context, feature urn.MLFeature, source urn.URN) error {
	if err := checkURN(source); err != nil {
		return err
	}
	return c.either(ctx, feature, mlFeatureProps, func() *patch.Builder {
		b := patch.NewMLFeature(feature)
		b.AddSource(source.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, feature, true, func(p *aspects.MLFeatureProperties) error {
			return addURN(&p.Sources, source)
		})
	})
}

// RemoveSourceFromFeature removes source from feature's
// mlFeatureProperties.sources.
func (c *Client) RemoveSourceFromFeature(ctx context.Context, feature urn.MLFeature, source urn.URN) error {
	if err := checkURN(source); err != nil {
		return err
	}
	return c.either(ctx, feature, mlFeatureProps, func() *patch.Builder {
		b := patch.NewMLFeature(feature)
		b.RemoveSource(source.String())
		return b.Builder
	}, func() error {
		return modify(ctx, c, feature, true, func(p *aspects.MLFeatureProperties) error {
			return removeURN(&p.Sources, source)
		})
	})
}

// addURN appends u to list unless it is there (ErrNoChange).
func addURN(list *[]string, u urn.URN) error {
	s := u.String()
	if slices.Contains(*list, s) {
		return ErrNoChange
	}
	*list = append(*list, s)
	return nil
}

// removeURN removes every u from list, or returns ErrNoChange.
func removeURN(list *[]string, u urn.URN) error {
	s := u.String()
	n := len(*list)
	*list = slices.DeleteFunc(*list, func(x string) bool { return x == s })
	if len(*list) == n {
		return ErrNoChange
	}
	return nil
}

// The aspects the ML helpers write.
const (
	mlTableProps   = "mlFeatureTableProperties"
	mlModelProps   = "mlModelProperties"
	mlFeatureProps = "mlFeatureProperties"
)
