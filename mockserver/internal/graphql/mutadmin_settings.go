package graphql

import (
	"github.com/vektah/gqlparser/v2/ast"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The settings mutations (a user's corpUserSettings, the global settings,
// an asset's assetSettings) and the reads that show them. The signed-in
// user (DataHub's root user) is the user whose settings change.

func init() {
	mutation("updateCorpUserViewsSettings", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ DefaultView *string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateUserViewsSettings(c, meURN, strOr(in.Input.DefaultView)))
	})
	mutation("updateUserHomePageSettings", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input gms.HomePageUpdate }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateUserHomePageSettings(c, meURN, in.Input))
	})
	mutation("updateCorpUserLocaleSettings", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ Language *string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateUserLocaleSettings(c, meURN, strOr(in.Input.Language)))
	})
	mutation("updateUserSetting", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Name  string
				Value bool
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateUserSetting(c, meURN, in.Input.Name, in.Input.Value))
	})
	mutation("updateGlobalViewsSettings", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ DefaultView *string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateGlobalViewsSettings(c, strOr(in.Input.DefaultView)))
	})
	mutation("updateDocPropagationSettings", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct{ DocColumnPropagation *bool }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		on := in.Input.DocColumnPropagation == nil || *in.Input.DocColumnPropagation
		return done(c.Core().UpdateDocPropagationSettings(c, on))
	})
	mutation("updateApplicationsSettings", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ Enabled bool } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateApplicationsSettings(c, in.Input.Enabled))
	})
	mutation("updateAssetSettings", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN     string
				Summary *struct{ Template string }
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		template := ""
		if in.Input.Summary != nil {
			template = in.Input.Summary.Template
		}
		s, err := c.Core().UpdateAssetSettings(c, in.Input.URN, template)
		if err != nil {
			return nil, fromCore(err)
		}
		return &gval{m: s, e: &entity{r: c.x.h.res, ctx: c, urn: in.Input.URN}}, nil
	})

	query("globalViewsSettings", func(c *Ctx, _ Args) (any, error) {
		s, err := c.Core().GlobalSettings(c)
		if err != nil {
			return nil, fromCore(err)
		}
		views, _ := s["views"].(map[string]any)
		return map[string]any{"defaultView": views["defaultView"]}, nil // a fresh DataHub has none
	})
	query("docPropagationSettings", func(c *Ctx, _ Args) (any, error) {
		s, err := c.Core().GlobalSettings(c)
		if err != nil {
			return nil, fromCore(err)
		}
		on := true // a fresh DataHub's bootstrapped global settings propagate column docs
		if dp, ok := s["docPropagation"].(map[string]any); ok {
			on = dp["columnPropagationEnabled"] != false // the PDL default is true
		}
		return map[string]any{"docColumnPropagation": on}, nil
	})

	// A user's settings, as DataHub's CorpUserMapper reads corpUserSettings.
	renames["CorpUserHomePageSettings.dismissedAnnouncementUrns"] = "dismissedAnnouncements"
	Register("CorpUser.settings", func(c *Ctx, _ Args) (any, error) {
		b, ok := c.Parent.(baser)
		if !ok {
			return nil, nil
		}
		e := b.base()
		if e.r == nil {
			return nil, nil
		}
		v, err := e.aspectAny("corpUserSettings")
		if err != nil || v == nil {
			return nil, err
		}
		return c.x.adapt(c, v, &ast.Type{NamedType: "CorpUserSettings"}, e)
	})
}
