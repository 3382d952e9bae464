package gms

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// The texts of DataHub's patchEntity and patchEntities
// (PatchEntityResolver, PatchEntitiesResolver, PatchResolverUtils).
const (
	MsgPatchNoURN         = "URN must be provided for patch operations. Please provide a valid URN for the entity you want to patch."
	MsgPatchNoAspect      = "Aspect %s not found for entity type %s"
	MsgPatchMCPFailed     = "Failed to create MCP for input %d: %s"
	MsgPatchApplyFailed   = "Failed to apply patch: %s"
	MsgPatchBatchFailed   = "Failed to apply batch patch: %s"
	msgPatchUnknownEntity = "Entity %s not found in registry"
)

// PatchOp is DataHub's PatchOperationInput: an operation (ADD, REMOVE,
// REPLACE, MOVE, COPY, TEST) on a path, with a value as a JSON text (a
// text that does not parse is a string).
type PatchOp struct {
	Op, Path string
	Value    *string
}

// EntityPatch is DataHub's PatchEntityInput.
type EntityPatch struct {
	URN, Aspect string
	Ops         []PatchOp
	// ArrayPrimaryKeys address array elements by key (the generic patch).
	ArrayPrimaryKeys map[string][]string
	ForceGeneric     bool
	// SystemMetadata is the proposal's systemMetadata (nil: the default).
	SystemMetadata json.RawMessage
	Headers        map[string]string
}

// PatchName is the name a patch sets (the value of its /name operation,
// nil when none), which DataHub answers as the result's name.
func PatchName(ops []PatchOp) *string {
	for _, op := range ops {
		if op.Path == "/name" && op.Value != nil {
			return op.Value
		}
	}
	return nil
}

// PatchEntity applies one entity patch as DataHub's patchEntity: the
// operations become a GenericJsonPatch PATCH proposal of the aspect,
// applied synchronously by the core's patch engine (concurrent patches
// lose nothing). A refusal is an *Error with DataHub's message of the
// result's error.
func (c *Core) PatchEntity(ctx context.Context, p EntityPatch) error {
	ps, err := c.patchProposals([]EntityPatch{p})
	if err != nil {
		return err
	}
	if err := c.Ingest(ctx, ps, IngestOptions{}); err != nil {
		e := AsError(err)
		return &Error{Kind: e.Kind, Message: fmt.Sprintf(MsgPatchApplyFailed, e.Message), Index: -1}
	}
	return nil
}

// PatchEntities applies entity patches as DataHub's patchEntities: every
// proposal is built first, then all are ingested in one batch.
func (c *Core) PatchEntities(ctx context.Context, patches []EntityPatch) error {
	ps, err := c.patchProposals(patches)
	if err != nil {
		return err
	}
	if err := c.Ingest(ctx, ps, IngestOptions{}); err != nil {
		e := AsError(err)
		return &Error{Kind: e.Kind, Message: fmt.Sprintf(MsgPatchBatchFailed, e.Message), Index: -1}
	}
	return nil
}

// patchProposals are the PATCH proposals of patches.
func (c *Core) patchProposals(patches []EntityPatch) ([]Proposal, error) {
	ps := make([]Proposal, 0, len(patches))
	for i, p := range patches {
		prop, err := c.patchProposal(p)
		if err != nil {
			e := AsError(err)
			return nil, &Error{Kind: e.Kind, Message: fmt.Sprintf(MsgPatchMCPFailed, i, e.Message), Index: i}
		}
		ps = append(ps, prop)
	}
	return ps, nil
}

func (c *Core) patchProposal(p EntityPatch) (Proposal, error) {
	if p.URN == "" {
		return Proposal{}, errorf(BadArgument, "%s", MsgPatchNoURN)
	}
	if _, err := CheckURN(p.URN); err != nil {
		return Proposal{}, err
	}
	et := EntityTypeOf(p.URN)
	if _, ok := lookupEntity(et); !ok {
		return Proposal{}, errorf(BadArgument, msgPatchUnknownEntity, et)
	}
	if _, err := AspectOf(et, p.Aspect); err != nil {
		return Proposal{}, errorf(BadArgument, MsgPatchNoAspect, p.Aspect, et)
	}
	ops := make([]map[string]any, 0, len(p.Ops))
	for _, op := range p.Ops {
		o := map[string]any{"op": strings.ToLower(op.Op), "path": op.Path}
		if op.Op == "ADD" || op.Value != nil {
			o["value"] = patchValue(op.Value)
		}
		ops = append(ops, o)
	}
	keys := p.ArrayPrimaryKeys
	if keys == nil {
		keys = map[string][]string{}
	}
	doc, err := json.Marshal(map[string]any{"patch": ops, "arrayPrimaryKeys": keys, "forceGenericPatch": p.ForceGeneric})
	if err != nil {
		return Proposal{}, errorf(Internal, MsgMapAspect, p.Aspect, Abbreviate(p.URN), err)
	}
	return Proposal{EntityType: et, EntityURN: p.URN, ChangeType: "PATCH", AspectName: p.Aspect, Aspect: doc,
		ContentType: ContentTypeJSONPatch, SystemMetadata: p.SystemMetadata, Headers: p.Headers}, nil
}

// patchValue is an operation's value as DataHub's processPatchValue reads
// it: JSON when it parses, else the string itself ("" and `""` are "").
func patchValue(v *string) any {
	if v == nil {
		return nil
	}
	if *v == "" || *v == `""` {
		return ""
	}
	d := json.NewDecoder(strings.NewReader(*v))
	d.UseNumber() // a Long keeps its digits
	var out any
	if err := d.Decode(&out); err != nil {
		return *v
	}
	return out
}
