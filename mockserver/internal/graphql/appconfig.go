package graphql

import (
	_ "embed"
	"encoding/json"
	"sync"
)

// appConfig answers Query.appConfig as a fresh DataHub's AppConfigResolver
// does, with application.yaml's defaults: the feature flags, and the
// privileges DataHub's PoliciesConfig declares (types and display names;
// their descriptions are left out) are in appconfig.json, taken from
// DataHub's application.yaml and PoliciesConfig at the commit the mock
// follows. What the mock decides is the same as its GET /config says:
// the app version is the server version, managed ingestion is on, impact
// analysis off, token authentication on when the mock requires tokens;
// analytics off (as isAnalyticsEnabled), metadata tests off, views on,
// semantic search off; applications show in the navigation when the
// global settings enable them (updateApplicationsSettings).

//go:embed appconfig.json
var appConfigJSON []byte

// serverInfo is what the mock's server says of itself (see
// WithServerInfo).
type serverInfo struct {
	version   string
	tokenAuth bool
}

// WithServerInfo gives the handler the version the mock's server reports
// (GET /config) and whether it requires tokens, which appConfig answers.
func WithServerInfo(version string, tokenAuth bool) Option {
	return func(h *Handler) { h.server = serverInfo{version, tokenAuth} }
}

// appConfigDefaults is appconfig.json decoded.
var appConfigDefaults = sync.OnceValues(func() (map[string]any, error) {
	var m map[string]any
	err := json.Unmarshal(appConfigJSON, &m)
	return m, err
})

func init() {
	query("appConfig", appConfig)
}

func appConfig(c *Ctx, _ Args) (any, error) {
	d, err := appConfigDefaults()
	if err != nil {
		return nil, serverError(err.Error())
	}
	settings, cerr := c.Core().GlobalSettings(c)
	if cerr != nil {
		return nil, fromCore(cerr)
	}
	apps := false
	if a, ok := settings["applications"].(map[string]any); ok {
		apps = a["enabled"] == true
	}
	var resources []any
	for _, r := range d["resourcePrivileges"].([]any) {
		m := r.(map[string]any)
		rp := map[string]any{"resourceType": m["resourceType"], "resourceTypeDisplayName": m["resourceTypeDisplayName"],
			"privileges": m["privileges"], "entityType": nil}
		if et, ok := entityTypes[m["resourceType"].(string)]; ok {
			rp["entityType"] = et
		}
		resources = append(resources, rp)
	}
	var version any
	if v := c.x.h.server.version; v != "" {
		version = v
	}
	return map[string]any{
		"appVersion":               version,
		"authConfig":               map[string]any{"tokenAuthEnabled": c.x.h.server.tokenAuth},
		"analyticsConfig":          map[string]any{"enabled": false},
		"policiesConfig":           map[string]any{"enabled": true, "platformPrivileges": d["platformPrivileges"], "resourcePrivileges": resources},
		"identityManagementConfig": map[string]any{"enabled": true},
		"managedIngestionConfig":   map[string]any{"enabled": true},
		"lineageConfig":            map[string]any{"supportsImpactAnalysis": false},
		"visualConfig": map[string]any{
			"logoUrl": "assets/logos/datahublogo.svg", "faviconUrl": "assets/icons/favicon.ico", "appTitle": "",
			"hideGlossary": false, "showFullTitleInLineage": false,
			"queriesTab":     map[string]any{"queriesTabResultSize": 5},
			"entityProfiles": map[string]any{"domain": map[string]any{"defaultTab": ""}},
			"searchResult":   map[string]any{"enableNameHighlight": true},
			"theme":          map[string]any{"themeId": ""},
			"application":    map[string]any{"showApplicationInNavigation": apps, "showSidebarSectionWhenEmpty": apps},
		},
		"telemetryConfig":       map[string]any{"enableThirdPartyLogging": false},
		"testsConfig":           map[string]any{"enabled": false},
		"viewsConfig":           map[string]any{"enabled": true},
		"searchBarConfig":       map[string]any{"apiVariant": "SEARCH_ACROSS_ENTITIES"},
		"searchCardConfig":      map[string]any{"showDescription": false},
		"searchFlagsConfig":     map[string]any{"defaultSkipHighlighting": false},
		"featureFlags":          d["featureFlags"],
		"chromeExtensionConfig": map[string]any{"enabled": true, "lineageEnabled": true},
		"homePageConfig":        map[string]any{"firstInPersonalSidebar": "YOUR_ASSETS"},
		"semanticSearchConfig":  map[string]any{"enabled": false, "enabledEntities": []any{"document"}, "embeddingConfig": nil},
	}, nil
}
