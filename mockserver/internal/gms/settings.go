package gms

import (
	"context"
	"encoding/json"
	"slices"
)

// The settings mutations: a user's corpUserSettings (views, home page,
// locale, appearance), the global settings (globalSettingsInfo of
// urn:li:globalSettings:0: views, documentation propagation,
// applications) and an asset's assetSettings (SettingsService and the
// Update*SettingsResolvers).

// GlobalSettingsURN is the entity that holds DataHub's global settings.
const GlobalSettingsURN = "urn:li:globalSettings:0"

// DataHub's texts of the settings mutations.
const (
	MsgHomePageBoth        = "Invalid inputs: Cannot specify both pageTemplate and removePageTemplate."
	MsgUserSettingUnknown  = "Failed to perform user settings update against input %s. Root cause: User Setting name %s not currently supported"
	MsgAssetSettingsFailed = "Failed to update action settings! %s"
)

// updateUserSettings is a read-modify-write of u's corpUserSettings; an
// absent one starts as DataHub's resolvers make it (appearance
// showSimplifiedHomepage false).
func (c *Core) updateUserSettings(ctx context.Context, u string, change func(s map[string]any) error) error {
	return c.Update(ctx, u, "corpUserSettings", func(cur json.RawMessage) (json.RawMessage, error) {
		s := map[string]any{}
		if cur == nil {
			s["appearance"] = map[string]any{"showSimplifiedHomepage": false}
		} else if err := json.Unmarshal(cur, &s); err != nil {
			return nil, errorf(Internal, MsgMapAspect, "corpUserSettings", Abbreviate(u), err)
		}
		if err := change(s); err != nil {
			return nil, err
		}
		return json.Marshal(s)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata})
}

// member is obj[k] as an object, made when absent.
func member(obj map[string]any, k string) map[string]any {
	m, _ := obj[k].(map[string]any)
	if m == nil {
		m = map[string]any{}
		obj[k] = m
	}
	return m
}

// UpdateUserViewsSettings sets (view "": removes) user u's default view,
// as DataHub's updateCorpUserViewsSettings.
func (c *Core) UpdateUserViewsSettings(ctx context.Context, u, view string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if view != "" {
		if err := checkURNs(view); err != nil {
			return err
		}
	}
	return c.updateUserSettings(ctx, u, func(s map[string]any) error {
		setOrRemove(member(s, "views"), "defaultView", view)
		return nil
	})
}

// HomePageUpdate is DataHub's UpdateUserHomePageSettingsInput.
type HomePageUpdate struct {
	PageTemplate              *string
	RemovePageTemplate        *bool
	NewDismissedAnnouncements []string
}

// UpdateUserHomePageSettings changes user u's home page settings as
// DataHub's updateUserHomePageSettings: the page template set or removed
// (not both), the announcements given added to the dismissed ones.
func (c *Core) UpdateUserHomePageSettings(ctx context.Context, u string, h HomePageUpdate) error {
	remove := h.RemovePageTemplate != nil && *h.RemovePageTemplate
	if h.PageTemplate != nil && remove {
		return errorf(BadArgument, MsgHomePageBoth)
	}
	if err := checkURNs(append([]string{u}, h.NewDismissedAnnouncements...)...); err != nil {
		return err
	}
	if h.PageTemplate != nil {
		if err := checkURNs(*h.PageTemplate); err != nil {
			return err
		}
	}
	return c.updateUserSettings(ctx, u, func(s map[string]any) error {
		hp := member(s, "homePage")
		if remove {
			delete(hp, "pageTemplate")
		} else if h.PageTemplate != nil {
			hp["pageTemplate"] = *h.PageTemplate
		}
		if h.NewDismissedAnnouncements != nil {
			var ds []any
			if cur, ok := hp["dismissedAnnouncements"].([]any); ok {
				ds = cur
			}
			for _, a := range h.NewDismissedAnnouncements {
				if !slices.Contains(ds, any(a)) {
					ds = append(ds, a)
				}
			}
			if ds == nil {
				ds = []any{}
			}
			hp["dismissedAnnouncements"] = ds
		}
		return nil
	})
}

// UpdateUserLocaleSettings sets (language "": removes) user u's language,
// as DataHub's updateCorpUserLocaleSettings.
func (c *Core) UpdateUserLocaleSettings(ctx context.Context, u, language string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	return c.updateUserSettings(ctx, u, func(s map[string]any) error {
		setOrRemove(member(s, "locale"), "language", language)
		return nil
	})
}

// UpdateUserSetting sets one appearance setting of user u as DataHub's
// updateUserSetting (SHOW_SIMPLIFIED_HOMEPAGE, SHOW_THEME_V2). An absent
// corpUserSettings starts empty there.
func (c *Core) UpdateUserSetting(ctx context.Context, u, name string, value bool) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	field := map[string]string{"SHOW_SIMPLIFIED_HOMEPAGE": "showSimplifiedHomepage", "SHOW_THEME_V2": "showThemeV2"}[name]
	if field == "" {
		return errorf(Internal, MsgUserSettingUnknown, "{name="+name+"}", name)
	}
	return c.Update(ctx, u, "corpUserSettings", editObject(u, "corpUserSettings", func(s map[string]any) error {
		member(s, "appearance")[field] = value
		return nil
	}), UpdateOptions{SystemMetadata: uiSystemMetadata})
}

// GlobalSettings is the latest globalSettingsInfo (nil when none was
// written: a fresh DataHub's).
func (c *Core) GlobalSettings(ctx context.Context) (map[string]any, error) {
	return c.latestObject(ctx, GlobalSettingsURN, "globalSettingsInfo")
}

// updateGlobalSettings is a read-modify-write of globalSettingsInfo.
func (c *Core) updateGlobalSettings(ctx context.Context, change func(s map[string]any)) error {
	return c.Update(ctx, GlobalSettingsURN, "globalSettingsInfo", editObject(GlobalSettingsURN, "globalSettingsInfo",
		func(s map[string]any) error { change(s); return nil }), UpdateOptions{SystemMetadata: uiSystemMetadata})
}

// UpdateGlobalViewsSettings sets (view "": removes) the global default
// view, as DataHub's updateGlobalViewsSettings.
func (c *Core) UpdateGlobalViewsSettings(ctx context.Context, view string) error {
	if view != "" {
		if err := checkURNs(view); err != nil {
			return err
		}
	}
	return c.updateGlobalSettings(ctx, func(s map[string]any) { setOrRemove(member(s, "views"), "defaultView", view) })
}

// UpdateDocPropagationSettings sets whether column documentation
// propagates, as DataHub's updateDocPropagationSettings (a new
// docPropagation starts enabled).
func (c *Core) UpdateDocPropagationSettings(ctx context.Context, columns bool) error {
	return c.updateGlobalSettings(ctx, func(s map[string]any) {
		if _, ok := s["docPropagation"].(map[string]any); !ok {
			s["docPropagation"] = map[string]any{"enabled": true}
		}
		member(s, "docPropagation")["columnPropagationEnabled"] = columns
	})
}

// UpdateApplicationsSettings sets whether applications are enabled, as
// DataHub's updateApplicationsSettings.
func (c *Core) UpdateApplicationsSettings(ctx context.Context, enabled bool) error {
	return c.updateGlobalSettings(ctx, func(s map[string]any) { member(s, "applications")["enabled"] = enabled })
}

// UpdateAssetSettings sets the asset summary template of asset u (template
// "": left as is) as DataHub's updateAssetSettings, and returns the
// assetSettings written.
func (c *Core) UpdateAssetSettings(ctx context.Context, u, template string) (map[string]any, error) {
	if err := checkURNs(u); err != nil {
		return nil, err
	}
	if template != "" {
		if err := checkURNs(template); err != nil {
			return nil, err
		}
	}
	var out map[string]any
	err := c.Update(ctx, u, "assetSettings", editObject(u, "assetSettings", func(s map[string]any) error {
		if template != "" {
			s["assetSummary"] = map[string]any{"templates": []any{map[string]any{"template": template}}}
		}
		out = s
		return nil
	}), UpdateOptions{SystemMetadata: uiSystemMetadata})
	return out, err
}
