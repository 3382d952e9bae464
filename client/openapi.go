package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/serverconfig"
	"github.com/catalogkit/datahub-go/internal/transport"
	"github.com/catalogkit/datahub-go/urn"
)

// The client reads through DataHub's OpenAPI v3 entity API instead of
// Rest.li when datahub.WithEndpoint says so (or, with EndpointAuto, when
// the server supports it). The reads answer the same values either way:
// GetAspectJSON reads GET /openapi/v3/entity/{type}/{urn}/{aspect};
// GetEntity and GetVersioned read GET /openapi/v3/entity/{type}/{urn} with
// systemMetadata=true, which carries each aspect's version; Exists asks
// HEAD /openapi/v3/entity/{type}/{urn}. GetEntity's answer then holds
// the latest timeseries aspects too, as GMS's OpenAPI reads add them.

// openAPI reports whether the client talks OpenAPI, deciding from GET
// /config once for datahub.EndpointAuto.
func (c *Client) openAPI(ctx context.Context) bool {
	switch c.ep {
	case datahub.EndpointOpenAPI:
		return true
	case datahub.EndpointAuto:
		return c.auto.OpenAPI(ctx, c.tc, c.log)
	}
	return false
}

// v3EntityPath is the OpenAPI path of entity u of entityType.
func v3EntityPath(entityType, u string) string {
	return "/openapi/v3/entity/" + url.PathEscape(entityType) + "/" + transport.URNInPath(u)
}

// urnEntityType returns the entity type of a URN checked by the caller
// ("dataset" of "urn:li:dataset:(...)").
func urnEntityType(u string) string {
	rest := strings.TrimPrefix(u, "urn:li:")
	t, _, _ := strings.Cut(rest, ":")
	return t
}

// v3Aspect is an aspect as the OpenAPI reads answer it.
type v3Aspect struct {
	Value          json.RawMessage `json:"value"`
	SystemMetadata json.RawMessage `json:"systemMetadata"`
	AuditStamp     *struct {
		Time  int64  `json:"time"`
		Actor string `json:"actor"`
	} `json:"auditStamp"`
}

// getAspectV3 reads version v (0 the latest) of an aspect through GET
// /openapi/v3/entity/{type}/{urn}/{aspect}.
func (c *Client) getAspectV3(ctx context.Context, u string, info aspects.Info, v int64) (json.RawMessage, error) {
	path := v3EntityPath(urnEntityType(u), u) + "/" + url.PathEscape(info.Name)
	if v != 0 {
		path += "?version=" + strconv.FormatInt(v, 10)
	}
	resp, err := c.tc.Do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	var a v3Aspect
	if err := json.Unmarshal(resp.Body, &a); err != nil || len(a.Value) == 0 {
		return nil, fmt.Errorf("client: read %s of %s: answer is not an OpenAPI aspect: %w", info.Name, u, errors.Join(err, datahub.ErrValidation))
	}
	return a.Value, nil
}

// getEntityV3 reads entity u through GET /openapi/v3/entity/{type}/{urn}
// with its system metadata, all its aspects or only those named.
func (c *Client) getEntityV3(ctx context.Context, u urn.URN, aspectNames []string) (*RawEntity, error) {
	path := v3EntityPath(u.EntityType(), u.String()) + "?systemMetadata=true"
	if len(aspectNames) > 0 {
		// With the key aspect, as Rest.li's entitiesV2 answers: an entity
		// that exists without the aspects asked for is then no 404.
		names := aspectNames
		if e, ok := aspects.LookupEntity(u.EntityType()); ok && !slices.Contains(names, e.KeyAspect) {
			names = append(slices.Clone(names), e.KeyAspect)
		}
		path += "&aspects=" + url.QueryEscape(strings.Join(names, ","))
	}
	resp, err := c.tc.Do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(resp.Body, &members); err != nil {
		return nil, fmt.Errorf("client: read %s: answer is not an OpenAPI entity: %w", u, err)
	}
	e := &RawEntity{URN: u.String(), EntityName: u.EntityType(), Aspects: make(map[string]EnvelopedAspect, len(members))}
	for name, raw := range members {
		if name == "urn" {
			continue
		}
		var a v3Aspect
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, fmt.Errorf("client: read %s: aspect %s is not an OpenAPI aspect: %w", u, name, err)
		}
		ea := EnvelopedAspect{Name: name, Type: "VERSIONED", Value: a.Value, SystemMetadata: a.SystemMetadata, Version: versionOf(a.SystemMetadata)}
		if info, ok := aspects.Lookup(name); ok && info.Timeseries {
			ea.Type = "TIMESERIES"
		}
		if a.AuditStamp != nil {
			ea.Created = aspects.AuditStamp{Time: a.AuditStamp.Time, Actor: a.AuditStamp.Actor}
		}
		e.Aspects[name] = ea
	}
	return e, nil
}

// headV3 asks HEAD /openapi/v3/entity/{type}/{urn}: true for 204, false
// for 404. GMS answers 404 there for a soft-deleted entity too, which
// Exists counts as existing: Exists checks a 404 with a read of the key
// aspect.
func (c *Client) headV3(ctx context.Context, u string) (bool, error) {
	_, err := c.tc.Do(ctx, http.MethodHead, v3EntityPath(urnEntityType(u), u), nil)
	if errors.Is(err, datahub.ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// ServerInfo is what a DataHub GMS says about itself in GET /config.
type ServerInfo struct {
	// Version is the server's DataHub version as it reports it, such as
	// "v1.2.0" ("" when it reports none).
	Version string
	// ServerType is the deployment's type, such as "prod" ("unknown" when
	// not reported).
	ServerType string
	// ServerEnv is "core" for open-source DataHub; another value marks
	// DataHub Cloud, whose versions are numbered differently.
	ServerEnv string
	// Cloud reports a DataHub Cloud server.
	Cloud bool
	// Capabilities are the features the server offers.
	Capabilities Capabilities
}

// Capabilities are the features of a server, decided as DataHub's Python
// client decides them.
type Capabilities struct {
	// OpenAPI: writes and reads through the OpenAPI v3 entity API, and
	// write tracing (DataHub 1.0.1 or later, Cloud 0.3.11 or later): what
	// datahub.EndpointAuto picks.
	OpenAPI bool
	// Patch: PATCH proposals (patchCapable).
	Patch bool
	// StatefulIngestion: statefulIngestionCapable.
	StatefulIngestion bool
	// ImpactAnalysis: multi-hop lineage queries (supportsImpactAnalysis).
	ImpactAnalysis bool
}

// ServerInfo reads GET /config, which GMS serves without a token, and
// reports the server's version, type and capabilities. A server that
// answers without "noCode": "true" (usually DataHub's front end reached
// without /api/gms) gives an error wrapping emitter.ErrNotGMS.
func (c *Client) ServerInfo(ctx context.Context) (ServerInfo, error) {
	resp, err := c.tc.Do(ctx, http.MethodGet, "/config", nil)
	if err != nil {
		return ServerInfo{}, err
	}
	in, err := serverconfig.Parse(bytes.TrimSpace(resp.Body))
	if err != nil || !in.NoCode {
		return ServerInfo{}, fmt.Errorf("client: %s/config does not answer as DataHub GMS (no \"noCode\": \"true\"): %w",
			datahub.RedactURL(c.tc.BaseURL()), emitter.ErrNotGMS)
	}
	return ServerInfo{Version: in.Version, ServerType: in.ServerType, ServerEnv: in.ServerEnv, Cloud: in.Cloud(),
		Capabilities: Capabilities{OpenAPI: in.OpenAPI(), Patch: in.PatchCapable, StatefulIngestion: in.StatefulIngestion,
			ImpactAnalysis: in.ImpactAnalysis}}, nil
}
