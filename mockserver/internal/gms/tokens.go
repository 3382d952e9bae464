package gms

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"slices"
)

// Access tokens as metadata and service accounts (StatefulTokenService,
// CreateAccessTokenResolver, RevokeAccessTokenResolver, the service
// account resolvers and ServiceAccountUtils).

// DataHub's texts of these mutations.
const (
	MsgNotServiceAccount        = "The specified URN is not a service account: %s"
	MsgServiceAccountNotFound   = "Service account not found: %s"
	MsgNotServiceAccountDefault = "URN %s is not a service account."
	MsgDefaultViewMissing       = "View %s does not exist."
	MsgDefaultViewNotGlobal     = "Only public (global) views can be set as the default view for a service account. Personal views are not supported."
	MsgTokenRevokeFailed        = "Failed to revoke access token. Root cause: Access token no longer exists"
	MsgTokenDuration            = "Unrecognized access token duration %s provided"
	MsgTokenType                = "Unsupported AccessTokenType %s provided"
)

// ServiceAccountSubType is the subTypes type name that makes a corpuser a
// service account.
const ServiceAccountSubType = "SERVICE_ACCOUNT"

// tokenDurations are DataHub's AccessTokenDuration values in milliseconds
// (NO_EXPIRY: none).
var tokenDurations = map[string]int64{
	"ONE_HOUR": 3600_000, "ONE_DAY": 86400_000, "ONE_WEEK": 7 * 86400_000, "ONE_MONTH": 30 * 86400_000,
	"THREE_MONTHS": 90 * 86400_000, "SIX_MONTHS": 180 * 86400_000, "ONE_YEAR": 365 * 86400_000, "NO_EXPIRY": 0,
}

// AccessTokenRequest is DataHub's CreateAccessTokenInput.
type AccessTokenRequest struct {
	Type, ActorURN, Duration, Name string
	Description                    *string
}

// IssuedToken is a token the mock issued: its text and, for a stored
// token, the URN of its dataHubAccessToken entity.
type IssuedToken struct {
	Token, URN string
}

// signToken is a token of the shape of DataHub's (a JWT: header, claims
// and signature, base64url): the mock's signature is random, not an
// HMAC of DataHub's signing key.
func (c *Core) signToken(typ, actorID string, expiresInMs int64) string {
	enc := base64.RawURLEncoding
	header, _ := json.Marshal(map[string]any{"alg": "HS256"})
	now := c.Now()
	claims := map[string]any{"actorType": "USER", "actorId": actorID, "type": typ, "version": "2", "jti": randomUUID(),
		"sub": actorID, "iss": "datahub-metadata-service", "iat": now / 1000}
	if expiresInMs > 0 {
		claims["exp"] = (now + expiresInMs) / 1000
	}
	body, _ := json.Marshal(claims)
	sig := make([]byte, 32)
	_, _ = rand.Read(sig)
	return enc.EncodeToString(header) + "." + enc.EncodeToString(body) + "." + enc.EncodeToString(sig)
}

// tokenRequestChecks checks a token's type, duration and actor.
func tokenRequestChecks(typ, duration, actor string, types ...string) (int64, string, error) {
	if !slices.Contains(types, typ) {
		return 0, "", errorf(Internal, MsgTokenType, typ)
	}
	ms, ok := tokenDurations[duration]
	if !ok {
		return 0, "", errorf(Internal, MsgTokenDuration, duration)
	}
	if _, err := CheckURN(actor); err != nil {
		return 0, "", err
	}
	return ms, actor[len("urn:li:")+len(EntityTypeOf(actor))+1:], nil
}

// CreateAccessToken issues a stored access token as DataHub's
// createAccessToken: a SERVICE_ACCOUNT token's actor must be a service
// account; the token's dataHubAccessToken entity (id: the token's hash)
// gets dataHubAccessTokenInfo (name, description, actorUrn, ownerUrn the
// signed-in user, createdAt, expiresAt unless NO_EXPIRY).
func (c *Core) CreateAccessToken(ctx context.Context, r AccessTokenRequest) (IssuedToken, error) {
	ms, actorID, err := tokenRequestChecks(r.Type, r.Duration, r.ActorURN, "PERSONAL", "SERVICE_ACCOUNT")
	if err != nil {
		return IssuedToken{}, err
	}
	if r.Type == "SERVICE_ACCOUNT" {
		if ok, err := c.isServiceAccount(ctx, r.ActorURN); err != nil {
			return IssuedToken{}, err
		} else if !ok {
			return IssuedToken{}, errorf(BadArgument, MsgNotServiceAccount, r.ActorURN)
		}
	}
	token := c.signToken(r.Type, actorID, ms)
	now := c.Now()
	info := map[string]any{"name": r.Name, "actorUrn": "urn:li:corpuser:" + actorID, "ownerUrn": mutationActor(ctx), "createdAt": now}
	setGiven(info, "description", r.Description)
	if ms > 0 {
		info["expiresAt"] = now + ms
	}
	u, err := c.CreateUIEntity(ctx, "dataHubAccessToken", tokenHash(token), map[string]any{"dataHubAccessTokenInfo": info}, nil)
	if err != nil {
		return IssuedToken{}, err
	}
	return IssuedToken{Token: token, URN: u}, nil
}

// IssueAccessToken issues a token that is not stored, as DataHub's
// getAccessToken (a PERSONAL token of the stateless token service).
func (c *Core) IssueAccessToken(typ, actor, duration string) (string, error) {
	ms, actorID, err := tokenRequestChecks(typ, duration, actor, "PERSONAL")
	if err != nil {
		return "", err
	}
	return c.signToken(typ, actorID, ms), nil
}

// AccessTokenURN is the URN of the stored token token (its
// dataHubAccessToken entity), as DataHub's getAccessTokenMetadata finds it.
func AccessTokenURN(token string) string { return "urn:li:dataHubAccessToken:" + tokenHash(token) }

// AccessTokenValid is whether token is a stored access token (one
// createAccessToken issued and nobody revoked) that has not expired, as
// DataHub's StatefulTokenService accepts it.
func (c *Core) AccessTokenValid(ctx context.Context, token string) bool {
	info, err := c.latestObject(ctx, AccessTokenURN(token), "dataHubAccessTokenInfo")
	if err != nil || info == nil {
		return false
	}
	if exp, ok := info["expiresAt"].(float64); ok && int64(exp) <= c.Now() {
		return false
	}
	return true
}

// RevokeAccessToken deletes the token whose id (hash) is id, as DataHub's
// revokeAccessToken; one that does not exist is refused.
func (c *Core) RevokeAccessToken(ctx context.Context, id string) error {
	u := "urn:li:dataHubAccessToken:" + id
	if err := checkURNs(u); err != nil {
		return err
	}
	return c.DeleteUIEntity(ctx, u, errorf(Internal, MsgTokenRevokeFailed))
}

// isServiceAccount is whether u's subTypes name it a service account.
func (c *Core) isServiceAccount(ctx context.Context, u string) (bool, error) {
	obj, err := c.latestObject(ctx, u, "subTypes")
	if err != nil {
		return false, err
	}
	names, _ := obj["typeNames"].([]any)
	return slices.Contains(names, any(ServiceAccountSubType)), nil
}

// CreateServiceAccount creates a service account as DataHub's
// createServiceAccount: the corpuser service_<uuid> with corpUserKey,
// corpUserInfo (active, displayName the one given or the id, title the
// description) and subTypes [SERVICE_ACCOUNT]. It returns the URN.
func (c *Core) CreateServiceAccount(ctx context.Context, displayName, description *string) (string, error) {
	id := "service_" + randomUUID()
	info := map[string]any{"active": true, "displayName": id}
	setGiven(info, "displayName", displayName)
	setGiven(info, "title", description)
	return c.CreateUIEntity(ctx, "corpuser", id, map[string]any{
		"corpUserKey": map[string]any{"username": id}, "corpUserInfo": info,
		"subTypes": map[string]any{"typeNames": []string{ServiceAccountSubType}}}, nil)
}

// ServiceAccount checks that u is a service account: missing (nil when
// it does not exist: false, nil), else an error when it is not one.
func (c *Core) ServiceAccount(ctx context.Context, u string) (bool, error) {
	if err := checkURNs(u); err != nil {
		return false, err
	}
	ok, err := c.exists(ctx, u)
	if err != nil || !ok {
		return false, err
	}
	if sa, err := c.isServiceAccount(ctx, u); err != nil {
		return false, err
	} else if !sa {
		return false, errorf(BadArgument, MsgNotServiceAccount, u)
	}
	return true, nil
}

// DeleteServiceAccount deletes the service account u as DataHub's
// deleteServiceAccount: it must exist and be a service account.
func (c *Core) DeleteServiceAccount(ctx context.Context, u string) error {
	ok, err := c.ServiceAccount(ctx, u)
	if err != nil {
		return err
	}
	if !ok {
		return errorf(BadArgument, MsgServiceAccountNotFound, u)
	}
	return c.DeleteUIEntity(ctx, u, nil)
}

// UpdateServiceAccountDefaultView sets (view "": removes) the default view
// of the service account u in its corpUserSettings, as DataHub's
// updateServiceAccountDefaultView: the view must exist and be GLOBAL.
func (c *Core) UpdateServiceAccountDefaultView(ctx context.Context, u, view string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if sa, err := c.isServiceAccount(ctx, u); err != nil {
		return err
	} else if !sa {
		return errorf(BadArgument, MsgNotServiceAccountDefault, u)
	}
	if view != "" {
		if err := checkURNs(view); err != nil {
			return err
		}
		info, err := c.latestObject(ctx, view, "dataHubViewInfo")
		if err != nil {
			return err
		}
		if info == nil {
			return errorf(BadArgument, MsgDefaultViewMissing, view)
		}
		if info["type"] != "GLOBAL" {
			return errorf(BadArgument, MsgDefaultViewNotGlobal)
		}
	}
	return c.updateUserSettings(ctx, u, func(s map[string]any) error {
		views, _ := s["views"].(map[string]any)
		if views == nil {
			views = map[string]any{}
		}
		setOrRemove(views, "defaultView", view)
		s["views"] = views
		return nil
	})
}

// setOrRemove sets obj[k] to v, or removes it when v is "".
func setOrRemove(obj map[string]any, k, v string) {
	if v == "" {
		delete(obj, k)
	} else {
		obj[k] = v
	}
}
