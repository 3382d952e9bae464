package graphql

import (
	"encoding/json"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// patchEntity and patchEntities: a failure is the result's error (success
// false), not a GraphQL error, as DataHub answers.

// patchUnknownURN is the result's urn when the input has none.
const patchUnknownURN = "urn:li:unknown:error"

// patchInput is PatchEntityInput.
type patchInput struct {
	URN, EntityType *string
	AspectName      string
	Patch           []struct {
		Op, Path    string
		Value, From *string
	}
	ArrayPrimaryKeys []struct {
		ArrayField string
		Keys       []string
	}
	ForceGenericPatch *bool
	SystemMetadata    *struct {
		LastObserved *int64
		RunID        *string
		Properties   []struct{ Key, Value string }
	}
	Headers []struct{ Key, Value string }
}

func (in patchInput) core() gms.EntityPatch {
	p := gms.EntityPatch{URN: strOr(in.URN), Aspect: in.AspectName, ForceGeneric: in.ForceGenericPatch != nil && *in.ForceGenericPatch}
	for _, op := range in.Patch {
		p.Ops = append(p.Ops, gms.PatchOp{Op: op.Op, Path: op.Path, Value: op.Value})
	}
	if in.ArrayPrimaryKeys != nil {
		p.ArrayPrimaryKeys = map[string][]string{}
		for _, k := range in.ArrayPrimaryKeys {
			p.ArrayPrimaryKeys[k.ArrayField] = k.Keys
		}
	}
	if sm := in.SystemMetadata; sm != nil {
		m := map[string]any{}
		if sm.LastObserved != nil {
			m["lastObserved"] = *sm.LastObserved
		}
		if sm.RunID != nil {
			m["runId"] = *sm.RunID
		}
		if sm.Properties != nil {
			props := map[string]string{}
			for _, kv := range sm.Properties {
				props[kv.Key] = kv.Value
			}
			m["properties"] = props
		}
		p.SystemMetadata, _ = json.Marshal(m)
	}
	if in.Headers != nil {
		p.Headers = map[string]string{}
		for _, kv := range in.Headers {
			p.Headers[kv.Key] = kv.Value
		}
	}
	return p
}

// patchResult is a PatchEntityResult.
func patchResult(urn string, name *string, err error) map[string]any {
	if urn == "" {
		urn = patchUnknownURN
	}
	if err != nil {
		return map[string]any{"urn": urn, "name": nil, "success": false, "error": gms.AsError(err).Message}
	}
	return map[string]any{"urn": urn, "name": name, "success": true, "error": nil}
}

func init() {
	mutation("patchEntity", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input patchInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		p := in.Input.core()
		if err := c.Core().PatchEntity(c, p); err != nil {
			return patchResult(p.URN, nil, err), nil
		}
		return patchResult(p.URN, gms.PatchName(p.Ops), nil), nil
	})
	mutation("patchEntities", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input []patchInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		ps := make([]gms.EntityPatch, 0, len(in.Input))
		for _, i := range in.Input {
			ps = append(ps, i.core())
		}
		err := c.Core().PatchEntities(c, ps)
		out := make([]any, 0, len(ps))
		for _, p := range ps {
			if err != nil {
				out = append(out, patchResult(p.URN, nil, err))
			} else {
				out = append(out, patchResult(p.URN, gms.PatchName(p.Ops), nil))
			}
		}
		return out, nil
	})
}
