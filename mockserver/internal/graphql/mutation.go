package graphql

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// descriptionUpdateInput is DescriptionUpdateInput.
type descriptionUpdateInput struct {
	Description     string
	ResourceUrn     string
	SubResourceType *string
	SubResource     *string
}

// uiSystemMetadata marks the mutation's proposals as DataHub's MutationUtils
// does.
var uiSystemMetadata = json.RawMessage(`{"properties":{"appSource":"ui"}}`)

// UpdateDescription resolves Mutation.updateDescription with DataHub's rules
// for dataset fields and containers (UpdateDescriptionResolver,
// DescriptionUtils); other resources are refused (the SDK specification supports no others).
func (r *resolver) UpdateDescription(ctx context.Context, a struct{ Input descriptionUpdateInput }) (*bool, error) {
	in := a.Input
	u := in.ResourceUrn
	if _, err := gms.CheckURN(u); err != nil {
		return nil, fromCore(err)
	}
	var err error
	switch gms.EntityTypeOf(u) {
	case "dataset":
		if in.SubResourceType == nil {
			return nil, badRequest(msgWholeDataset)
		}
		err = r.updateFieldDescription(ctx, u, in)
	case "container":
		err = r.updateContainerDescription(ctx, u, in.Description)
	default:
		return nil, serverError(fmt.Sprintf(msgUnsupportedResource, gms.Abbreviate(u)))
	}
	if err != nil {
		return nil, err
	}
	ok := true
	return &ok, nil
}

// mustExist refuses an entity that does not exist with DataHub's text.
func (r *resolver) mustExist(ctx context.Context, u string) error {
	ok, err := r.exists(ctx, u)
	if err != nil {
		return err
	}
	if !ok {
		return badRequest(fmt.Sprintf(msgDoesNotExist, u, u))
	}
	return nil
}

// exists is Core.Exists with its error as GraphQL answers it.
func (r *resolver) exists(ctx context.Context, u string) (bool, *gqlError) {
	ok, err := r.core.Exists(ctx, u)
	if err != nil {
		return false, fromCore(err)
	}
	return ok, nil
}

// updateFieldDescription sets the description of one schema field in
// editableSchemaMetadata, keeping every other entry and member.
func (r *resolver) updateFieldDescription(ctx context.Context, u string, in descriptionUpdateInput) error {
	fp := ""
	if in.SubResource != nil {
		fp = *in.SubResource
	}
	if err := r.mustExist(ctx, u); err != nil {
		return err
	}
	schema, err := r.latest(ctx, u, "schemaMetadata")
	if err != nil {
		return err
	}
	if schema == nil {
		return badRequest(fmt.Sprintf(msgNoSchema, u, fp, u))
	}
	var s struct {
		Fields []struct {
			FieldPath string `json:"fieldPath"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return serverError(fmt.Sprintf(msgMapAspect, "schemaMetadata", gms.Abbreviate(u), err))
	}
	found := false
	for _, f := range s.Fields {
		found = found || f.FieldPath == fp
	}
	if !found {
		return badRequest(fmt.Sprintf(msgNoSuchField, u, fp, fp))
	}
	return r.update(ctx, u, "editableSchemaMetadata", func(obj map[string]json.RawMessage) error {
		var infos []map[string]json.RawMessage
		if raw, ok := obj["editableSchemaFieldInfo"]; ok {
			if err := json.Unmarshal(raw, &infos); err != nil {
				return err
			}
		}
		desc, _ := json.Marshal(in.Description)
		set := false
		for _, info := range infos {
			var path string
			_ = json.Unmarshal(info["fieldPath"], &path)
			if path == fp {
				info["description"], set = desc, true
				break
			}
		}
		if !set {
			path, _ := json.Marshal(fp)
			infos = append(infos, map[string]json.RawMessage{"fieldPath": path, "description": desc})
		}
		obj["editableSchemaFieldInfo"], _ = json.Marshal(infos)
		return nil
	})
}

// updateContainerDescription sets editableContainerProperties.description,
// keeping its other members.
func (r *resolver) updateContainerDescription(ctx context.Context, u, description string) error {
	if err := r.mustExist(ctx, u); err != nil {
		return err
	}
	return r.update(ctx, u, "editableContainerProperties", func(obj map[string]json.RawMessage) error {
		obj["description"], _ = json.Marshal(description)
		return nil
	})
}

// latest returns the latest value of aspect of u, nil when there is none.
func (r *resolver) latest(ctx context.Context, u, aspect string) (json.RawMessage, error) {
	v, err := r.core.GetAspect(ctx, u, aspect, 0)
	if e := gms.AsError(err); e != nil && e.Kind == gms.NotFound {
		return nil, nil
	} else if err != nil {
		return nil, fromCore(err)
	}
	return v.Value, nil
}

// update changes aspect of u from its current value with change, an UPSERT
// from the UI made by Core.Update inside the store's lock, so that
// concurrent mutations lose nothing. change gets the current members ({}
// when the aspect is absent) and edits them in place.
func (r *resolver) update(ctx context.Context, u, aspect string, change func(obj map[string]json.RawMessage) error) error {
	err := r.core.Update(ctx, u, aspect, func(cur json.RawMessage) (json.RawMessage, error) {
		obj := map[string]json.RawMessage{}
		if cur != nil {
			if err := json.Unmarshal(cur, &obj); err != nil {
				return nil, serverError(fmt.Sprintf(msgMapAspect, aspect, gms.Abbreviate(u), err))
			}
		}
		if err := change(obj); err != nil {
			return nil, serverError(fmt.Sprintf(msgMapAspect, aspect, gms.Abbreviate(u), err))
		}
		return json.Marshal(obj)
	}, gms.UpdateOptions{SystemMetadata: uiSystemMetadata})
	var ge *gqlError
	if errors.As(err, &ge) {
		return ge
	}
	if err != nil {
		return fromCore(err)
	}
	return nil
}
