package graphql

import (
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The admin mutations and queries of policies, roles, invite and reset
// tokens, access tokens, service accounts and privileges. Each resolver
// decodes its arguments and calls the core.

func init() {
	mutation("createPolicy", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input gms.PolicyUpdate }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().UpsertPolicy(c, "", in.Input)
		return created(u, err)
	})
	mutation("updatePolicy", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input gms.PolicyUpdate
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().UpsertPolicy(c, in.URN, in.Input)
		return created(u, err)
	})
	mutation("deletePolicy", func(c *Ctx, a Args) (any, error) {
		u := a.String("urn")
		return created(u, c.Core().DeletePolicy(c, u))
	})

	mutation("batchAssignRole", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				RoleUrn *string
				Actors  []string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().BatchAssignRole(c, strOr(in.Input.RoleUrn), in.Input.Actors))
	})
	mutation("acceptRole", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ InviteToken string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().AcceptRole(c, in.Input.InviteToken, meURN))
	})
	mutation("createInviteToken", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ RoleUrn *string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		t, err := c.Core().CreateInviteToken(c, strOr(in.Input.RoleUrn))
		if err != nil {
			return nil, fromCore(err)
		}
		return map[string]any{"inviteToken": t}, nil
	})
	query("getInviteToken", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ RoleUrn *string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		t, err := c.Core().InviteToken(c, strOr(in.Input.RoleUrn))
		if err != nil {
			role := strOr(in.Input.RoleUrn)
			if role == "" {
				role = "null"
			}
			return nil, serverError(fmt.Sprintf("Failed to get invite token for role %s", role))
		}
		return map[string]any{"inviteToken": t}, nil
	})
	mutation("createNativeUserResetToken", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ UserUrn string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		t, err := c.Core().CreateNativeUserResetToken(c, in.Input.UserUrn)
		if err != nil {
			return nil, fromCore(err)
		}
		return map[string]any{"resetToken": t}, nil
	})

	mutation("createAccessToken", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input gms.AccessTokenRequest }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		t, err := c.Core().CreateAccessToken(c, in.Input)
		if err != nil {
			return nil, fromCore(err)
		}
		return map[string]any{"accessToken": t.Token, "metadata": entityOrNull(c, t.URN)}, nil
	})
	mutation("revokeAccessToken", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().RevokeAccessToken(c, a.String("tokenId")))
	})
	query("getAccessToken", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct{ Type, ActorUrn, Duration string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		t, err := c.Core().IssueAccessToken(in.Input.Type, in.Input.ActorUrn, in.Input.Duration)
		if err != nil {
			return nil, fromCore(err)
		}
		return map[string]any{"accessToken": t}, nil
	})
	query("getAccessTokenMetadata", func(c *Ctx, a Args) (any, error) {
		u := gms.AccessTokenURN(a.String("token"))
		ok, err := c.Core().Exists(c, u)
		if err != nil {
			return nil, fromCore(err)
		}
		if !ok {
			return nil, nil // DataHub's batch load answers no entity: null (an error for the non-null field)
		}
		return entityAnswer(c, u, nil)
	})

	mutation("createServiceAccount", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct{ DisplayName, Description *string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().CreateServiceAccount(c, in.Input.DisplayName, in.Input.Description)
		if err != nil {
			return nil, fromCore(err)
		}
		sa, gerr := serviceAccount(c, u)
		if gerr != nil {
			return nil, gerr
		}
		// DataHub answers what it wrote: the display name as given (null
		// when none), the creator and the time.
		sa["displayName"], sa["createdBy"], sa["createdAt"] = in.Input.DisplayName, meURN, c.Core().Now()
		return sa, nil
	})
	mutation("deleteServiceAccount", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteServiceAccount(c, a.String("urn")))
	})
	mutation("updateServiceAccountDefaultView", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN         string
				DefaultView *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateServiceAccountDefaultView(c, in.Input.URN, strOr(in.Input.DefaultView)))
	})
	query("getServiceAccount", func(c *Ctx, a Args) (any, error) {
		u := a.String("urn")
		ok, err := c.Core().ServiceAccount(c, u)
		if err != nil {
			return nil, fromCore(err)
		}
		if !ok {
			return nil, nil
		}
		sa, gerr := serviceAccount(c, u)
		if gerr != nil {
			return nil, gerr
		}
		return sa, nil
	})
	query("listServiceAccounts", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Start, Count *int32
				Query        *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		f := gms.Filter{{{Field: "typeNames", Condition: gms.CondEqual, Values: []string{gms.ServiceAccountSubType}}}}
		return listOf(c, "corpuser", strOr(in.Input.Query), f, intOr(in.Input.Start, 0), intOr(in.Input.Count, 10), "serviceAccounts",
			func(u string) (any, *gqlError) { return serviceAccount(c, u) })
	})

	query("getGrantedPrivileges", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ActorUrn                 string
				IncludeEvaluationDetails *bool
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		if _, err := gms.CheckURN(in.Input.ActorUrn); err != nil {
			return nil, fromCore(err)
		}
		var details any
		if in.Input.IncludeEvaluationDetails != nil && *in.Input.IncludeEvaluationDetails {
			details = []any{} // every policy the mock has grants: no denial to explain
		}
		return map[string]any{"privileges": c.Core().GrantedPrivileges(), "evaluationDetails": details}, nil
	})
	query("debugAccess", func(c *Ctx, a Args) (any, error) {
		d, err := c.Core().DebugAccess(c, a.String("userUrn"))
		if err != nil {
			return nil, fromCore(err)
		}
		return map[string]any{"roles": d.Roles, "groups": d.Groups, "groupsWithRoles": d.GroupsWithRoles,
			"rolesViaGroups": d.RolesViaGroups, "allRoles": d.AllRoles, "policies": d.Policies, "privileges": d.Privileges}, nil
	})
}

// entityOrNull is the entity u as the reads answer it, nil when it cannot
// be loaded.
func entityOrNull(c *Ctx, u string) any {
	e, err := c.x.h.res.load(c, u, "")
	if err != nil {
		return nil
	}
	return newEntityR(e)
}

// serviceAccount is the service account u as ServiceAccountUtils maps it:
// its name (the id without "service_"), display name and description
// (corpUserInfo displayName and title) and default view.
func serviceAccount(c *Ctx, u string) (map[string]any, *gqlError) {
	info, err := latestAspect(c, u, "corpUserInfo")
	if err != nil {
		return nil, err
	}
	settings, err := latestAspect(c, u, "corpUserSettings")
	if err != nil {
		return nil, err
	}
	name := strings.TrimPrefix(strings.TrimPrefix(u, "urn:li:corpuser:"), "service_")
	sa := map[string]any{"urn": u, "type": "CORP_USER", "name": name, "displayName": info["displayName"],
		"description": info["title"], "createdBy": nil, "createdAt": nil, "updatedAt": nil, "defaultView": nil}
	if views, ok := settings["views"].(map[string]any); ok {
		if v, ok := views["defaultView"].(string); ok {
			sa["defaultView"] = entityOrNull(c, v)
		}
	}
	return sa, nil
}

// latestAspect is the latest aspect of u decoded ({} when absent).
func latestAspect(c *Ctx, u, aspect string) (map[string]any, *gqlError) {
	va, err := c.Core().GetAspect(c, u, aspect, 0)
	if e := gms.AsError(err); e != nil && (e.Kind == gms.NotFound || e.Kind == gms.UnknownAspect) {
		return map[string]any{}, nil
	} else if err != nil {
		return nil, fromCore(err)
	}
	var v anyJSON
	if err := v.UnmarshalJSON(va.Value); err != nil {
		return nil, serverError(fmt.Sprintf(msgMapAspect, aspect, gms.Abbreviate(u), err))
	}
	m, _ := v.v.(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m, nil
}

// listOf runs a list query of entity over the index ({start, count,
// total, <result>}), each hit answered by value.
func listOf(c *Ctx, entity, text string, f gms.Filter, start, count int, result string, value func(u string) (any, *gqlError)) (any, error) {
	q := gms.Query{Types: []string{entity}, Text: text, Filter: f, Start: start, Count: count}
	return listPage(c, q, result, func(_ gms.SearchResult, h gms.SearchHit) (any, error) {
		v, gerr := value(h.URN)
		if gerr != nil {
			return nil, gerr
		}
		return v, nil
	})
}
