package gms

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"slices"
)

// The admin mutations of policies, roles, invite tokens and native users'
// password reset tokens (UpsertPolicyResolver, DeletePolicyResolver,
// RoleService, InviteTokenService, NativeUserService).

// DataHub's texts of these mutations.
const (
	MsgPolicyDeleteFailed = "Failed to perform delete against policy with urn %s. Root cause: %s"
	MsgRoleMissing        = "Failed to perform update against input %s. Root cause: Role %s does not exist. Skipping batch role assignment"
	MsgInviteTokenInvalid = "Failed to accept role using invite token %s. Root cause: Invite token %s is invalid"
	MsgInviteTokenFailed  = "Failed to create invite token for role %s"
	MsgResetTokenFailed   = "Failed to generate password reset token for user: %s"
)

// PolicyUpdate is DataHub's PolicyUpdateInput as decoded JSON: type, name,
// state, description, resources, privileges and actors.
type PolicyUpdate struct {
	Type, Name, State string
	Description       *string
	Privileges        []string
	Actors            struct {
		Users, Groups, ResourceOwnersTypes  []string
		ResourceOwners, AllUsers, AllGroups bool
	}
	Resources *struct {
		Type                         *string
		Resources                    []string
		AllResources                 *bool
		Filter, PrivilegeConstraints *PolicyMatchFilter
	}
}

// PolicyMatchFilter is DataHub's PolicyMatchFilterInput.
type PolicyMatchFilter struct {
	Criteria []struct {
		Field     string   `json:"field"`
		Values    []string `json:"values"`
		Condition string   `json:"condition"`
	} `json:"criteria"`
}

// info is the dataHubPolicyInfo of the update, as DataHub's
// PolicyUpdateInputInfoMapper makes it (lastUpdatedTimestamp now).
func (p PolicyUpdate) info(now int64) (map[string]any, error) {
	actors := map[string]any{"allGroups": p.Actors.AllGroups, "allUsers": p.Actors.AllUsers, "resourceOwners": p.Actors.ResourceOwners}
	for k, us := range map[string][]string{"users": p.Actors.Users, "groups": p.Actors.Groups, "resourceOwnersTypes": p.Actors.ResourceOwnersTypes} {
		if us == nil {
			continue
		}
		if err := checkURNs(us...); err != nil {
			return nil, err
		}
		actors[k] = us
	}
	info := map[string]any{"type": p.Type, "displayName": p.Name, "state": p.State, "privileges": strsOrEmpty(p.Privileges),
		"actors": actors, "lastUpdatedTimestamp": now}
	setGiven(info, "description", p.Description)
	if r := p.Resources; r != nil {
		res := map[string]any{}
		if r.AllResources != nil {
			res["allResources"] = *r.AllResources
		}
		setGiven(res, "type", r.Type)
		if r.Resources != nil {
			res["resources"] = r.Resources
		}
		if r.Filter != nil {
			res["filter"] = r.Filter
		}
		if r.PrivilegeConstraints != nil {
			res["privilegeConstraints"] = r.PrivilegeConstraints
		}
		info["resources"] = res
	}
	return info, nil
}

func strsOrEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// UpsertPolicy writes a policy's dataHubPolicyInfo as DataHub's
// createPolicy (u "": a new policy with a random id) and updatePolicy (the
// info of u replaced; DataHub does not check that u exists) do, and returns
// its URN.
func (c *Core) UpsertPolicy(ctx context.Context, u string, p PolicyUpdate) (string, error) {
	info, err := p.info(c.Now())
	if err != nil {
		return "", err
	}
	if u == "" {
		return c.CreateUIEntity(ctx, "dataHubPolicy", "", map[string]any{"dataHubPolicyInfo": info}, nil)
	}
	if err := checkURNs(u); err != nil {
		return "", err
	}
	return u, c.PutUIAspect(ctx, u, "dataHubPolicyInfo", info)
}

// DeletePolicy deletes the policy u as DataHub's deletePolicy (a missing
// policy is no error); the system policies are refused.
func (c *Core) DeletePolicy(ctx context.Context, u string) error {
	err := c.DeleteUIEntity(ctx, u, nil)
	if e := AsError(err); e != nil && e.Kind == Invalid {
		return errorf(Invalid, MsgPolicyDeleteFailed, u, e.Message)
	}
	return err
}

// PutUIAspect replaces aspect of u with value, a write of the UI (an
// UPSERT that creates u when it does not exist).
func (c *Core) PutUIAspect(ctx context.Context, u, aspect string, value any) error {
	b, err := json.Marshal(value)
	if err != nil {
		return errorf(Internal, MsgMapAspect, aspect, Abbreviate(u), err)
	}
	return c.Update(ctx, u, aspect, func(json.RawMessage) (json.RawMessage, error) { return b, nil },
		UpdateOptions{SystemMetadata: uiSystemMetadata})
}

// BatchAssignRole gives each actor that exists the role (role "": none) as
// DataHub's RoleService does: roleMembership {roles: [role]} replaced; an
// actor that does not exist is skipped; a role that does not exist fails
// the whole batch.
func (c *Core) BatchAssignRole(ctx context.Context, role string, actors []string) error {
	if role != "" {
		if err := checkURNs(role); err != nil {
			return err
		}
		input := "{roleUrn=" + role + ", actors=[" + joinComma(actors) + "]}"
		if err := c.mustExist(ctx, role, errorf(Internal, MsgRoleMissing, input, role)); err != nil {
			return err
		}
	}
	if err := checkURNs(actors...); err != nil {
		return err
	}
	roles := []string{}
	if role != "" {
		roles = append(roles, role)
	}
	value, _ := json.Marshal(map[string]any{"roles": roles})
	skipped := errorf(NotFound, "actor does not exist")
	for _, a := range actors {
		// An actor that does not exist (also when deleted meanwhile) is
		// skipped, as DataHub logs and skips it.
		err := c.Update(ctx, a, "roleMembership", func(json.RawMessage) (json.RawMessage, error) { return value, nil },
			UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: func(string) *Error { return skipped }})
		if e := AsError(err); err != nil && (e.Kind != skipped.Kind || e.Message != skipped.Message) {
			return err
		}
	}
	return nil
}

func joinComma(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += v
	}
	return out
}

// tokenHash is the id of a token's entity: the SHA-256 of the token,
// base64 (URL alphabet, so that it fits a URN).
func tokenHash(token string) string {
	h := sha256.Sum256([]byte(token))
	return base64.URLEncoding.EncodeToString(h[:])
}

// urlSafeToken is a random token of n lowercase letters, as DataHub's
// SecretService.generateUrlSafeToken.
func urlSafeToken(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return string(b)
}

// CreateInviteToken makes a new invite token for role (role "": none) as
// DataHub's createInviteToken: an inviteToken entity whose id is the
// token's hash and whose inviteToken aspect holds the token (DataHub
// encrypts it; the mock stores it as is) and the role. It returns the
// token.
func (c *Core) CreateInviteToken(ctx context.Context, role string) (string, error) {
	info := map[string]any{}
	if role != "" {
		if _, err := CheckURN(role); err != nil {
			return "", errorf(Internal, MsgInviteTokenFailed, role)
		}
		info["role"] = role
	}
	token := urlSafeToken(32)
	info["token"] = token
	_, err := c.CreateUIEntity(ctx, "inviteToken", tokenHash(token), map[string]any{"inviteToken": info}, nil)
	return token, err
}

// InviteToken is the invite token of role as DataHub's getInviteToken
// answers it: the one stored for the role, a new one when there is none.
func (c *Core) InviteToken(ctx context.Context, role string) (string, error) {
	f := Filter{{{Field: "hasRole", Condition: CondEqual, Values: []string{"false"}}}}
	if role != "" {
		f = Filter{{{Field: "role", Condition: CondEqual, Values: []string{role}}}}
	}
	res, err := c.Search(ctx, Query{Types: []string{"inviteToken"}, Text: "*", Filter: f, Count: 10, SkipAggregates: true})
	if err != nil {
		return "", err
	}
	if len(res.Hits) == 1 {
		obj, err := c.latestObject(ctx, res.Hits[0].URN, "inviteToken")
		if err != nil {
			return "", err
		}
		if t, ok := obj["token"].(string); ok {
			return t, nil
		}
	}
	for _, h := range res.Hits { // more than one: DataHub deletes them all
		if _, err := c.DeleteEntity(ctx, h.URN, ""); err != nil {
			return "", err
		}
	}
	return c.CreateInviteToken(ctx, role)
}

// AcceptRole gives actor the role of the invite token as DataHub's
// acceptRole: the token must exist.
func (c *Core) AcceptRole(ctx context.Context, token, actor string) error {
	u := "urn:li:inviteToken:" + tokenHash(token)
	obj, err := c.latestObject(ctx, u, "inviteToken")
	if err != nil {
		return err
	}
	if obj == nil {
		return errorf(Internal, MsgInviteTokenInvalid, token, token)
	}
	role, _ := obj["role"].(string)
	return c.BatchAssignRole(ctx, role, []string{actor})
}

// CreateNativeUserResetToken gives the native user u a password reset
// token as DataHub's NativeUserService: the user's corpUserCredentials
// (with a salt and a hashed password) gets the token (DataHub encrypts it;
// the mock stores it as is) and its expiry, a day from now. It returns the
// token.
func (c *Core) CreateNativeUserResetToken(ctx context.Context, u string) (string, error) {
	if _, err := CheckURN(u); err != nil {
		return "", errorf(Internal, MsgResetTokenFailed, u)
	}
	token := urlSafeToken(32)
	expires := c.Now() + 24*60*60*1000
	err := c.Update(ctx, u, "corpUserCredentials", func(cur json.RawMessage) (json.RawMessage, error) {
		obj := map[string]any{}
		if cur == nil || json.Unmarshal(cur, &obj) != nil || obj["salt"] == nil || obj["hashedPassword"] == nil {
			return nil, errorf(Internal, MsgResetTokenFailed, u)
		}
		obj["passwordResetToken"], obj["passwordResetTokenExpirationTimeMillis"] = token, expires
		return json.Marshal(obj)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: func(string) *Error { return errorf(Internal, MsgResetTokenFailed, u) }})
	if err != nil {
		return "", err
	}
	return token, nil
}

// rootPrivileges are the privileges DataHub's bootstrap policies give its
// root user (urn:li:dataHubPolicy:0, the platform privileges, and :1, the
// metadata privileges on every resource), which the mock, authorizing
// everything, answers for every actor.
var rootPrivileges = []string{
	"CREATE_LOGICAL_MODELS", "MANAGE_POLICIES", "MANAGE_INGESTION", "MANAGE_SECRETS", "MANAGE_USERS_AND_GROUPS",
	"VIEW_ANALYTICS", "GENERATE_PERSONAL_ACCESS_TOKENS", "MANAGE_ACCESS_TOKENS", "MANAGE_SERVICE_ACCOUNTS",
	"MANAGE_DOMAINS", "MANAGE_GLOBAL_ANNOUNCEMENTS", "MANAGE_TESTS", "MANAGE_GLOSSARIES", "MANAGE_USER_CREDENTIALS",
	"MANAGE_TAGS", "MANAGE_GLOBAL_VIEWS", "MANAGE_GLOBAL_SETTINGS", "RESTORE_INDICES_PRIVILEGE",
	"GET_TIMESERIES_INDEX_SIZES_PRIVILEGE", "TRUNCATE_TIMESERIES_INDEX_PRIVILEGE", "GET_ES_TASK_STATUS_PRIVILEGE",
	"SET_WRITEABLE_PRIVILEGE", "APPLY_RETENTION_PRIVILEGE", "MANAGE_GLOBAL_OWNERSHIP_TYPES", "GET_ANALYTICS_PRIVILEGE",
	"CREATE_BUSINESS_ATTRIBUTE", "MANAGE_BUSINESS_ATTRIBUTE", "MANAGE_STRUCTURED_PROPERTIES",
	"VIEW_STRUCTURED_PROPERTIES_PAGE", "MANAGE_DOCUMENTATION_FORMS", "MANAGE_FEATURES", "MANAGE_SYSTEM_OPERATIONS",
	"GET_PLATFORM_EVENTS", "MANAGE_HOME_PAGE_TEMPLATES", "GET_METADATA_CHANGE_LOG_EVENTS", "MANAGE_DOCUMENTS",
	"GET_TOPIC_EVENTS",
	"EDIT_ENTITY", "VIEW_ENTITY_PAGE", "VIEW_DATASET_USAGE", "VIEW_DATASET_PROFILE", "VIEW_DATASET_OPERATIONS",
	"EDIT_LINEAGE", "EDIT_ENTITY_ASSERTIONS", "SEARCH_PRIVILEGE", "GET_COUNTS_PRIVILEGE",
	"GET_TIMESERIES_ASPECT_PRIVILEGE", "GET_ENTITY_PRIVILEGE", "GET_TIMELINE_PRIVILEGE",
	"PRODUCE_PLATFORM_EVENT_PRIVILEGE", "MANAGE_DATA_PRODUCTS", "DELETE_ENTITY", "ES_EXPLAIN_QUERY_PRIVILEGE",
	"EXECUTE_ENTITY", "MANAGE_ASSET_SUMMARY",
}

// GrantedPrivileges are the privileges the mock grants every actor: those
// DataHub's root user has (the mock authorizes every request).
func (c *Core) GrantedPrivileges() []string { return slices.Clone(rootPrivileges) }

// AccessDebug is DataHub's debugAccess answer for a user.
type AccessDebug struct {
	Roles, Groups, GroupsWithRoles, RolesViaGroups, AllRoles, Policies, Privileges []string
}

// DebugAccess answers DataHub's debugAccess for user u from the graph and
// the stored policies: the roles and groups u is a member of, the roles of
// those groups, the policies whose actors name u, one of its groups or
// roles, all users or all groups, and the privileges of those policies.
func (c *Core) DebugAccess(ctx context.Context, u string) (AccessDebug, error) {
	if _, err := CheckURN(u); err != nil {
		return AccessDebug{}, err
	}
	out := AccessDebug{Roles: []string{}, Groups: []string{}, GroupsWithRoles: []string{}, RolesViaGroups: []string{},
		AllRoles: []string{}, Policies: []string{}, Privileges: []string{}}
	member, err := c.Relationships(ctx, u, []string{"IsMemberOfRole", "IsMemberOfGroup", "IsMemberOfNativeGroup"}, false, 0, 100)
	if err != nil {
		return out, err
	}
	for _, e := range member.Edges {
		switch EntityTypeOf(e.Destination) {
		case "dataHubRole":
			out.Roles = addUnique(out.Roles, e.Destination)
		case "corpGroup":
			out.Groups = addUnique(out.Groups, e.Destination)
		}
	}
	out.AllRoles = slices.Clone(out.Roles)
	for _, g := range out.Groups {
		rs, err := c.Relationships(ctx, g, []string{"IsMemberOfRole"}, false, 0, 100)
		if err != nil {
			return out, err
		}
		with := false
		for _, e := range rs.Edges {
			if EntityTypeOf(e.Destination) == "dataHubRole" {
				with = true
				out.RolesViaGroups = addUnique(out.RolesViaGroups, e.Destination)
				out.AllRoles = addUnique(out.AllRoles, e.Destination)
			}
		}
		if with {
			out.GroupsWithRoles = append(out.GroupsWithRoles, g)
		}
	}
	res, err := c.Search(ctx, Query{Types: []string{"dataHubPolicy"}, Text: "*", Count: 10000, SkipAggregates: true})
	if err != nil {
		return out, err
	}
	for _, h := range res.Hits {
		info, err := c.latestObject(ctx, h.URN, "dataHubPolicyInfo")
		if err != nil || info == nil {
			if err != nil {
				return out, err
			}
			continue
		}
		var p struct {
			Privileges []string `json:"privileges"`
			Actors     struct {
				Users     []string `json:"users"`
				Groups    []string `json:"groups"`
				Roles     []string `json:"roles"`
				AllUsers  bool     `json:"allUsers"`
				AllGroups bool     `json:"allGroups"`
			} `json:"actors"`
		}
		b, _ := json.Marshal(info)
		_ = json.Unmarshal(b, &p)
		a := p.Actors
		applies := a.AllUsers || a.AllGroups || slices.Contains(a.Users, u) ||
			slices.ContainsFunc(a.Groups, func(g string) bool { return slices.Contains(out.Groups, g) }) ||
			slices.ContainsFunc(a.Roles, func(r string) bool { return slices.Contains(out.AllRoles, r) })
		if !applies {
			continue
		}
		out.Policies = append(out.Policies, h.URN)
		for _, pr := range p.Privileges {
			out.Privileges = addUnique(out.Privileges, pr)
		}
	}
	return out, nil
}

func addUnique(s []string, v string) []string {
	if slices.Contains(s, v) {
		return s
	}
	return append(s, v)
}
