package gms

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
)

// The texts of the checks DataHub's GraphQL mutations share (LabelUtils,
// MutationUtils).
const (
	MsgResourceMissing       = "Failed to update resource with urn %s. Entity does not exist."
	MsgSubResourceNoName     = "Failed to update resource with urn %s. SubResourceType (%s) provided without a subResource."
	MsgSubResourceNoType     = "Failed to updates resource with urn %s. SubResource (%s) provided without a subResourceType."
	MsgLabelWrongType        = "Failed to validate label with urn %s. Urn type does not match entity type %s.."
	MsgLabelMissing          = "Failed to validate label with urn %s. Urn does not exist."
	MsgUpdateFailedForInput  = "Failed to perform update against input %s"
	MsgSubResourceTypeOther  = "Failed to update resource with urn %s. Unsupported subResourceType %s (datahub-mock)"
	MsgMutationEntityMissing = "Failed to update %s: the entity does not exist (datahub-mock)"
)

// MutationActor is the actor of the audit stamps the UI's mutations write
// for a request of the system actor (without authentication and without
// X-DataHub-Actor: the mock then has no signed-in user); DataHub, and the
// mock for any other request, stamps the caller.
const MutationActor = LineageActor

// SubResourceDatasetField is the one SubResourceType of DataHub's schema: a
// dataset's schema field, named by its field path.
const SubResourceDatasetField = "DATASET_FIELD"

// ResourceRef is DataHub's ResourceRefInput: an entity, or a part of it (a
// schema field of a dataset) when SubResource is set.
type ResourceRef struct {
	URN string
	// SubResourceType and SubResource name the part (nil or "": the whole
	// entity).
	SubResourceType, SubResource *string
}

// sub returns the sub-resource's name, "" for the whole entity.
func (r ResourceRef) sub() string {
	if r.SubResource == nil {
		return ""
	}
	return *r.SubResource
}

// String is the resource as DataHub's generated input prints it in its
// messages.
func (r ResourceRef) String() string {
	return fmt.Sprintf("ResourceRefInput{resourceUrn=%s, subResourceType=%s, subResource=%s}",
		r.URN, optString(r.SubResourceType), optString(r.SubResource))
}

func optString(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

// bootstrapped are the entities a fresh DataHub holds from its bootstrap
// (the system ownership types), which the mock treats as existing.
var bootstrapped = map[string]bool{
	"urn:li:ownershipType:__system__technical_owner": true,
	"urn:li:ownershipType:__system__business_owner":  true,
	"urn:li:ownershipType:__system__data_steward":    true,
	"urn:li:ownershipType:__system__none":            true,
}

// exists is Exists for the checks of the mutations: a malformed URN does not
// exist, and the entities a fresh DataHub bootstraps do.
func (c *Core) exists(ctx context.Context, u string) (bool, error) {
	if IsBootstrapped(u) {
		return true, nil
	}
	if _, err := CheckURN(u); err != nil {
		return false, nil
	}
	return c.Exists(ctx, u)
}

// mustExist returns refusal when u does not exist.
func (c *Core) mustExist(ctx context.Context, u string, refusal *Error) error {
	ok, err := c.exists(ctx, u)
	if err != nil {
		return err
	}
	if !ok {
		return refusal
	}
	return nil
}

// checkURNs checks that every URN is well formed (DataHub's
// Urn.createFromString, which fails the request with a bad argument).
func checkURNs(urns ...string) error {
	for _, u := range urns {
		if _, err := CheckURN(u); err != nil {
			return err
		}
	}
	return nil
}

// validateResource is DataHub's LabelUtils.validateResource: the entity
// exists (soft-deleted ones do), a sub-resource comes with its type and the
// other way round, and a dataset field is in the dataset's schema.
func (c *Core) validateResource(ctx context.Context, r ResourceRef) error {
	if err := c.mustExist(ctx, r.URN, errorf(BadArgument, MsgResourceMissing, r.URN)); err != nil {
		return err
	}
	if r.sub() == "" && r.SubResourceType == nil {
		return nil
	}
	if r.sub() == "" {
		return errorf(BadArgument, MsgSubResourceNoName, r.URN, optString(r.SubResourceType))
	}
	if r.SubResourceType == nil {
		return errorf(BadArgument, MsgSubResourceNoType, r.URN, r.sub())
	}
	if *r.SubResourceType != SubResourceDatasetField {
		return errorf(BadArgument, MsgSubResourceTypeOther, r.URN, *r.SubResourceType)
	}
	return c.schemaFieldExists(ctx, r.URN, r.sub())
}

// schemaFieldExists refuses a field path fp that is not in the
// schemaMetadata of dataset u, with DataHub's texts.
func (c *Core) schemaFieldExists(ctx context.Context, u, fp string) error {
	v, err := c.GetAspect(ctx, u, "schemaMetadata", 0)
	if e := AsError(err); e != nil && (e.Kind == NotFound || e.Kind == UnknownAspect) {
		return errorf(BadArgument, MsgDescriptionNoSchema, u, fp, u)
	} else if err != nil {
		return err
	}
	var s struct {
		Fields []struct {
			FieldPath string `json:"fieldPath"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(v.Value, &s); err != nil {
		return errorf(Internal, MsgMapAspect, "schemaMetadata", Abbreviate(u), err)
	}
	for _, f := range s.Fields {
		if f.FieldPath == fp {
			return nil
		}
	}
	return errorf(BadArgument, MsgDescriptionNoField, u, fp, fp)
}

// validateLabel is DataHub's LabelUtils.validateLabel: the label is of
// entityType and exists.
func (c *Core) validateLabel(ctx context.Context, u, entityType string) error {
	if EntityTypeOf(u) != entityType {
		return errorf(BadArgument, MsgLabelWrongType, u, entityType)
	}
	return c.mustExist(ctx, u, errorf(BadArgument, MsgLabelMissing, u))
}

// stamp is an audit stamp of the mutation's actor at the core's clock.
func (c *Core) stamp(ctx context.Context) map[string]any {
	return map[string]any{"time": c.opts.Clock().UnixMilli(), "actor": mutationActor(ctx)}
}

// mutationActor is the actor of a GraphQL mutation's audit stamps: the
// request's actor, or [MutationActor] for a request of the system actor
// (the mock's UI user: a mutation comes from a signed-in user).
func mutationActor(ctx context.Context) string {
	if a := CallerOf(ctx).Actor; a != "" && a != DefaultActor {
		return a
	}
	return MutationActor
}

// edit is a read-modify-write of aspect of the existing entity u as the UI
// makes it ([Core.Update] with the UI's systemMetadata): change edits the
// aspect's members ({} when it is absent). An entity deleted meanwhile is
// refused with missing (nil: the mock's text).
func (c *Core) edit(ctx context.Context, u, aspect string, missing func(string) *Error, change func(obj map[string]any) error) error {
	if missing == nil {
		missing = func(u string) *Error { return errorf(BadArgument, MsgMutationEntityMissing, u) }
	}
	return c.Update(ctx, u, aspect, editObject(u, aspect, change),
		UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missing})
}

// editObject is an UpdateFunc that edits aspect of u as a JSON object with
// change ({} when absent).
func editObject(u, aspect string, change func(obj map[string]any) error) UpdateFunc {
	return func(cur json.RawMessage) (json.RawMessage, error) {
		obj := map[string]any{}
		if cur != nil {
			if err := json.Unmarshal(cur, &obj); err != nil {
				return nil, errorf(Internal, MsgMapAspect, aspect, Abbreviate(u), err)
			}
		}
		if err := change(obj); err != nil {
			return nil, err
		}
		return json.Marshal(obj)
	}
}

// create writes the aspects of a new entity u (the key aspect comes with
// them) as one atomic batch, the first a CREATE_ENTITY: when u exists at the
// moment of the write nothing is written and the refusal is exists.
func (c *Core) create(ctx context.Context, u string, aspects map[string]any, exists *Error) error {
	names := make([]string, 0, len(aspects))
	for n := range aspects {
		names = append(names, n)
	}
	slices.Sort(names)
	ps := make([]Proposal, 0, len(names))
	for i, n := range names {
		value, err := json.Marshal(aspects[n])
		if err != nil {
			return errorf(Internal, MsgMapAspect, n, Abbreviate(u), err)
		}
		ct := "UPSERT"
		if i == 0 {
			ct = "CREATE_ENTITY"
		}
		ps = append(ps, Proposal{EntityType: EntityTypeOf(u), EntityURN: u, ChangeType: ct, AspectName: n,
			Aspect: value, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
	}
	err := c.Ingest(ctx, ps, IngestOptions{})
	if e := AsError(err); e != nil && e.Kind == Conflict && exists != nil {
		return exists
	}
	return err
}

// fieldInfo returns the editableSchemaFieldInfo entry of field fp in an
// editableSchemaMetadata's members, appending one when there is none
// (DataHub's MutationUtils.getFieldInfoFromSchema).
func fieldInfo(obj map[string]any, fp string) map[string]any {
	infos, _ := obj["editableSchemaFieldInfo"].([]any)
	for _, it := range infos {
		if m, ok := it.(map[string]any); ok && m["fieldPath"] == fp {
			return m
		}
	}
	m := map[string]any{"fieldPath": fp}
	obj["editableSchemaFieldInfo"] = append(infos, m)
	return m
}

// object returns the member k of obj as an object, making it when absent.
func object(obj map[string]any, k string) map[string]any {
	if m, ok := obj[k].(map[string]any); ok {
		return m
	}
	m := map[string]any{}
	obj[k] = m
	return m
}

// list returns the member k of obj as a list (nil when absent).
func list(obj map[string]any, k string) []any {
	l, _ := obj[k].([]any)
	return l
}

// strMember is the string member k of obj ("" when absent).
func strMember(obj map[string]any, k string) string {
	s, _ := obj[k].(string)
	return s
}

// writeAll upserts the aspects of u (whole values) in one atomic batch with
// the UI's systemMetadata; the entity is created if it does not exist.
func (c *Core) writeAll(ctx context.Context, u string, aspects map[string]any) error {
	names := make([]string, 0, len(aspects))
	for n := range aspects {
		names = append(names, n)
	}
	slices.Sort(names)
	ps := make([]Proposal, 0, len(names))
	for _, n := range names {
		value, err := json.Marshal(aspects[n])
		if err != nil {
			return errorf(Internal, MsgMapAspect, n, Abbreviate(u), err)
		}
		ps = append(ps, Proposal{EntityType: EntityTypeOf(u), EntityURN: u, ChangeType: "UPSERT", AspectName: n,
			Aspect: value, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
	}
	return c.Ingest(ctx, ps, IngestOptions{})
}
