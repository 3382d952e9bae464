package gms

import (
	"context"
	"encoding/json"
	"slices"
)

// FormResponse is DataHub's SubmitFormPromptInput: the answer to one prompt
// of a form assigned to an entity.
type FormResponse struct {
	Form, PromptID, Type string
	// FieldPath is the schema field answered (FIELDS_STRUCTURED_PROPERTY).
	FieldPath *string
	// StructuredProperty and Values are the structuredPropertyParams (nil
	// StructuredProperty: none given).
	StructuredProperty *string
	Values             []PropertyValue
}

// SubmitFormPrompt answers a prompt of a form on an entity as DataHub's
// submitFormPrompt (FormService): the property's values are written to the
// entity's structuredProperties (to its schema field's, for a
// FIELDS_STRUCTURED_PROPERTY prompt), replacing any of that property and
// checked against its definition; then the prompt is marked complete in the
// entity's forms aspect (a field prompt once every field of the entity's
// schema is answered), and the form moves to the completed forms once every
// required prompt is complete. As in DataHub, the values are written before
// the forms aspect is read, so an entity the form is not assigned to gets
// them and the call fails. It returns false for a prompt type it does not
// know.
func (c *Core) SubmitFormPrompt(ctx context.Context, entity string, r FormResponse) (bool, error) {
	switch r.Type {
	case PromptStructuredProperty, PromptFieldsStructuredProperty:
	default:
		return false, nil
	}
	if r.StructuredProperty == nil {
		return false, errorf(BadArgument, MsgFormSubmitNoParams, r.Type)
	}
	field := r.Type == PromptFieldsStructuredProperty
	if field && r.FieldPath == nil {
		return false, errorf(BadArgument, "%s", MsgFormSubmitNoFieldPath)
	}
	if err := checkURNs(entity, r.Form, *r.StructuredProperty); err != nil {
		return false, err
	}
	target := entity
	if field {
		target = "urn:li:schemaField:(" + entity + "," + *r.FieldPath + ")"
	}
	if err := c.answerProperty(ctx, target, *r.StructuredProperty, r.Values); err != nil {
		return false, err
	}
	var fields []string // the entity's schema fields, for a field prompt
	if field {
		schema, err := c.latestObject(ctx, entity, "schemaMetadata")
		if err != nil {
			return false, err
		}
		if schema != nil {
			fields = []string{}
			for _, f := range list(schema, "fields") {
				m, _ := f.(map[string]any)
				fields = append(fields, strMember(m, "fieldPath"))
			}
		}
	}
	info, err := c.latestObject(ctx, r.Form, "formInfo") // nil: refused once the forms aspect is read, as DataHub's order has it
	if err != nil {
		return false, err
	}
	s := c.stamp(ctx)
	err = c.Update(ctx, entity, "forms", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, errorf(Internal, MsgFormNoFormsAspect, entity)
		}
		forms, err := formsObject(entity, cur)
		if err != nil {
			return nil, err
		}
		if !field && info == nil {
			return nil, errorf(Internal, MsgFormInfoMissing, r.Form)
		}
		assoc := formAssociation(forms, r.Form)
		if assoc == nil {
			return nil, errorf(Internal, MsgFormNotAssigned, r.Form, entity)
		}
		if field {
			prompt := promptAssociation(assoc, r.PromptID, s)
			if !completeField(prompt, *r.FieldPath, s, fields) {
				if fields == nil {
					return nil, errorf(Internal, MsgFormNoSchema, entity)
				}
				return json.Marshal(forms)
			}
		}
		if info == nil {
			return nil, errorf(Internal, MsgFormInfoMissing, r.Form)
		}
		completePrompt(assoc, r.PromptID, s)
		formCompletion(forms, assoc, info)
		return json.Marshal(forms)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata})
	return err == nil, err
}

// answerProperty writes the values of property to target's
// structuredProperties as FormService.ingestStructuredProperties: any
// assignment of the property is replaced by one appended with created and
// lastModified stamps.
func (c *Core) answerProperty(ctx context.Context, target, property string, values []PropertyValue) error {
	s := c.stamp(ctx)
	vs := make([]any, 0, len(values))
	for _, v := range values {
		vs = append(vs, v.primitive())
	}
	_, err := c.updateProperties(ctx, target, UpdateOptions{SystemMetadata: uiSystemMetadata}, func(obj map[string]any) {
		props := slices.DeleteFunc(list(obj, "properties"), func(it any) bool {
			m, _ := it.(map[string]any)
			return strMember(m, "propertyUrn") == property
		})
		obj["properties"] = append(props, map[string]any{"propertyUrn": property, "values": vs, "created": s, "lastModified": s})
	})
	return err
}

// promptAssociation is FormService.getOrDefaultFormPromptAssociation: the
// association of prompt id (completed first), made and added to the
// incomplete prompts when there is none, stamped now.
func promptAssociation(assoc map[string]any, id string, s map[string]any) map[string]any {
	for _, k := range []string{"completedPrompts", "incompletePrompts"} {
		for _, it := range list(assoc, k) {
			if m, _ := it.(map[string]any); strMember(m, "id") == id {
				m["lastModified"] = s
				return m
			}
		}
	}
	m := map[string]any{"id": id, "lastModified": s}
	assoc["incompletePrompts"] = append(list(assoc, "incompletePrompts"), m)
	return m
}

// completePrompt moves prompt id to the association's completed prompts
// (FormService.updatePromptToComplete).
func completePrompt(assoc map[string]any, id string, s map[string]any) {
	p := promptAssociation(assoc, id, s)
	notID := func(it any) bool { m, _ := it.(map[string]any); return strMember(m, "id") == id }
	assoc["completedPrompts"] = append(slices.DeleteFunc(slices.Clone(list(assoc, "completedPrompts")), notID), p)
	incomplete := slices.DeleteFunc(slices.Clone(list(assoc, "incompletePrompts")), notID)
	if incomplete == nil {
		incomplete = []any{}
	}
	assoc["incompletePrompts"] = incomplete
}

// completeField marks field fp of a field prompt complete
// (FormService.updateFieldPromptToComplete) and reports whether every field
// of the schema (nil: none known) is now complete.
func completeField(prompt map[string]any, fp string, s map[string]any, fields []string) bool {
	fa := object(prompt, "fieldAssociations")
	isFP := func(it any) bool { m, _ := it.(map[string]any); return strMember(m, "fieldPath") == fp }
	completed := append(slices.DeleteFunc(slices.Clone(list(fa, "completedFieldPrompts")), isFP), map[string]any{"fieldPath": fp, "lastModified": s})
	incomplete := slices.DeleteFunc(slices.Clone(list(fa, "incompleteFieldPrompts")), isFP)
	if incomplete == nil {
		incomplete = []any{}
	}
	fa["completedFieldPrompts"], fa["incompleteFieldPrompts"] = completed, incomplete
	if fields == nil {
		return false
	}
	done := map[string]bool{}
	for _, it := range completed {
		m, _ := it.(map[string]any)
		done[strMember(m, "fieldPath")] = true
	}
	for _, f := range fields {
		if !done[f] {
			return false
		}
	}
	return true
}

// formCompletion moves the form to the completed forms when every required
// prompt of it is complete, else to the incomplete ones, dropping its
// verification when it is a verification form (FormService.updateFormCompletion).
func formCompletion(forms, assoc map[string]any, info map[string]any) {
	done := map[string]bool{}
	for _, it := range list(assoc, "completedPrompts") {
		m, _ := it.(map[string]any)
		done[strMember(m, "id")] = true
	}
	complete := true
	for _, it := range list(info, "prompts") {
		m, _ := it.(map[string]any)
		if req, _ := m["required"].(bool); req && !done[strMember(m, "id")] {
			complete = false
		}
	}
	form := strMember(assoc, "urn")
	from, to := "completedForms", "incompleteForms"
	if complete {
		from, to = to, from
	}
	forms[from] = slices.DeleteFunc(slices.Clone(list(forms, from)), func(it any) bool { return urnOf(it) == form })
	if !slices.ContainsFunc(list(forms, to), func(it any) bool { return urnOf(it) == form }) {
		forms[to] = append(list(forms, to), assoc)
	}
	if !complete && strMember(info, "type") == "VERIFICATION" && forms["verifications"] != nil {
		forms["verifications"] = slices.DeleteFunc(slices.Clone(list(forms, "verifications")), func(it any) bool {
			m, _ := it.(map[string]any)
			return strMember(m, "form") == form
		})
	}
}

// VerifyForm verifies a completed verification form on an entity as
// DataHub's verifyForm: the form must be of type VERIFICATION and among the
// entity's completed forms; its verification is replaced by one stamped
// now. DataHub first checks that the form is assigned to the caller; the
// mock, which authorizes every call, does not.
func (c *Core) VerifyForm(ctx context.Context, form, entity string) error {
	if err := checkURNs(form, entity); err != nil {
		return err
	}
	info, err := c.formInfo(ctx, form)
	if err != nil {
		return err
	}
	if t := strMember(info, "type"); t != "VERIFICATION" {
		return errorf(Internal, MsgFormNotVerification, form)
	}
	s := c.stamp(ctx)
	return c.Update(ctx, entity, "forms", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, errorf(Internal, MsgFormNoFormsAspect, entity)
		}
		forms, err := formsObject(entity, cur)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(list(forms, "completedForms"), func(it any) bool { return urnOf(it) == form }) {
			return nil, errorf(Internal, MsgFormNotCompleted, form)
		}
		vs := slices.DeleteFunc(slices.Clone(list(forms, "verifications")), func(it any) bool {
			m, _ := it.(map[string]any)
			return strMember(m, "form") == form
		})
		forms["verifications"] = append(vs, map[string]any{"form": form, "lastModified": s})
		return json.Marshal(forms)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata})
}
