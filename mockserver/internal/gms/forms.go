package gms

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
)

// DataHub's texts of the form mutations (CreateFormResolver,
// UpdateFormResolver, SubmitFormPromptResolver and FormService). A
// refusal of kind BadArgument is an IllegalArgumentException, which DataHub
// answers with its own text; one of kind Internal is a RuntimeException,
// which DataHub's resolver wraps as MsgFormFailed.
const (
	MsgFormPromptNoParams    = "Provided prompt with type STRUCTURED_PROPERTY or FIELDS_STRUCTURED_PROPERTY and no structured property params"
	MsgFormUpdateMissing     = "Form with urn %s does not exist"
	MsgFormEntityMissing     = "Entity %s does not exist. Skipping batch form assignment"
	MsgFormEntityUnverified  = "Issue verifying whether entity exists when assigning form to it. Entity urn: %s"
	MsgFormDynamicMissing    = "Form %s does not exist. Skipping dynamic form assignment"
	MsgFormInfoMissing       = "Form %s does not exist."
	MsgFormNotAssigned       = "Form %s has not been assigned to entity %s"
	MsgFormNoFormsAspect     = "Entity is missing forms aspect, form is not assigned to entity with urn %s"
	MsgFormNoSchema          = "Schema metadata does not exist on entity %s."
	MsgFormNotVerification   = "Form %s is not of type VERIFICATION. Cannot verify form."
	MsgFormNotCompleted      = "Form %s is not in the list of completed forms for this entity. Skipping verification."
	MsgFormSubmitNoParams    = "Failed to provide structured property params for prompt type %s"
	MsgFormSubmitNoFieldPath = "Failed to provide fieldPath for prompt type FIELDS_STRUCTURED_PROPERTY"
	// MsgFormFailed is how DataHub's form resolvers answer a failure that
	// is not an argument's: the input as Java prints it, then the cause.
	MsgFormFailed = "Failed to perform update against input %s. Root cause: %s"
)

// The prompt types of a form (FormPromptType).
const (
	PromptStructuredProperty       = "STRUCTURED_PROPERTY"
	PromptFieldsStructuredProperty = "FIELDS_STRUCTURED_PROPERTY"
)

// FormPrompt is DataHub's CreatePromptInput.
type FormPrompt struct {
	ID          *string
	Title       string
	Description *string
	Type        string
	// StructuredProperty is structuredPropertyParams.urn (nil: none).
	StructuredProperty *string
	Required           *bool
}

// FormActors is DataHub's FormActorAssignmentInput.
type FormActors struct {
	Owners        *bool
	Users, Groups []string
}

// FormInput is DataHub's CreateFormInput.
type FormInput struct {
	ID                *string
	Name              string
	Description, Type *string
	Prompts           []FormPrompt
	Actors            *FormActors
}

// FormUpdate is DataHub's UpdateFormInput less its urn.
type FormUpdate struct {
	Name, Description, Type     *string
	PromptsToAdd                []FormPrompt
	PromptsToRemove             []string
	Owners                      *bool
	UsersToAdd, UsersToRemove   []string
	GroupsToAdd, GroupsToRemove []string
}

// record is the prompt as formInfo stores it (FormUtils.mapPrompt): a
// random id when none is given; required (false by the PDL's default) only
// when given.
func (p FormPrompt) record() map[string]any {
	id := randomUUID()
	if p.ID != nil {
		id = *p.ID
	}
	m := map[string]any{"id": id, "title": p.Title, "type": p.Type}
	if p.Required != nil {
		m["required"] = *p.Required
	}
	setGiven(m, "description", p.Description)
	if p.StructuredProperty != nil {
		m["structuredPropertyParams"] = map[string]any{"urn": *p.StructuredProperty}
	}
	return m
}

// checkPrompts is CreateFormResolver.validatePrompts: a structured
// property prompt names its property.
func checkPrompts(ps []FormPrompt) error {
	for _, p := range ps {
		if err := checkURNs(derefAll(p.StructuredProperty)...); err != nil {
			return err
		}
		if (p.Type == PromptStructuredProperty || p.Type == PromptFieldsStructuredProperty) && p.StructuredProperty == nil {
			return errorf(BadArgument, "%s", MsgFormPromptNoParams)
		}
	}
	return nil
}

func derefAll(ss ...*string) []string {
	var out []string
	for _, s := range ss {
		if s != nil {
			out = append(out, *s)
		}
	}
	return out
}

// CreateForm creates a form as DataHub's createForm: the id (a random UUID
// when nil), formInfo with the name and the description, type, prompts and
// actors given (the PDL's defaults, COMPLETION, no prompts and
// {owners: true}, stand for those not given). A form of an id in use is
// replaced, as DataHub's upsert does.
func (c *Core) CreateForm(ctx context.Context, in FormInput) (string, error) {
	if err := checkPrompts(in.Prompts); err != nil {
		return "", err
	}
	id := randomUUID()
	if in.ID != nil {
		id = *in.ID
	}
	u := "urn:li:form:" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	info := map[string]any{"name": in.Name}
	setGiven(info, "description", in.Description)
	setGiven(info, "type", in.Type)
	if in.Prompts != nil {
		ps := []any{}
		for _, p := range in.Prompts {
			ps = append(ps, p.record())
		}
		info["prompts"] = ps
	}
	if a := in.Actors; a != nil {
		if err := checkURNs(append(slices.Clone(a.Users), a.Groups...)...); err != nil {
			return "", err
		}
		actors := map[string]any{}
		if a.Owners != nil {
			actors["owners"] = *a.Owners
		}
		if a.Users != nil {
			actors["users"] = anyStrings(a.Users)
		}
		if a.Groups != nil {
			actors["groups"] = anyStrings(a.Groups)
		}
		info["actors"] = actors
	}
	return u, c.writeAll(ctx, u, map[string]any{"formInfo": info})
}

func anyStrings(ss []string) []any {
	out := make([]any, 0, len(ss))
	for _, s := range ss {
		out = append(out, s)
	}
	return out
}

// UpdateForm changes a form as DataHub's updateForm (a patch of formInfo):
// the form must exist; the members given are set, prompts added (an id
// already there replaced) and removed by id, users and groups added and
// removed.
func (c *Core) UpdateForm(ctx context.Context, u string, up FormUpdate) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := checkPrompts(up.PromptsToAdd); err != nil {
		return err
	}
	if err := checkURNs(slices.Concat(up.UsersToAdd, up.UsersToRemove, up.GroupsToAdd, up.GroupsToRemove)...); err != nil {
		return err
	}
	missing := errorf(BadArgument, MsgFormUpdateMissing, u)
	if err := c.mustExist(ctx, u, missing); err != nil {
		return err
	}
	var added []map[string]any
	for _, p := range up.PromptsToAdd {
		added = append(added, p.record())
	}
	return c.edit(ctx, u, "formInfo", func(string) *Error { return missing }, func(obj map[string]any) error {
		setGiven(obj, "name", up.Name)
		setGiven(obj, "description", up.Description)
		setGiven(obj, "type", up.Type)
		if added == nil && up.PromptsToRemove == nil {
			return editActors(obj, up)
		}
		prompts := list(obj, "prompts")
		for _, p := range added {
			prompts = slices.DeleteFunc(prompts, func(it any) bool { m, _ := it.(map[string]any); return m["id"] == p["id"] })
			prompts = append(prompts, p)
		}
		prompts = slices.DeleteFunc(prompts, func(it any) bool {
			m, _ := it.(map[string]any)
			return slices.Contains(up.PromptsToRemove, strMember(m, "id"))
		})
		if prompts == nil {
			prompts = []any{}
		}
		obj["prompts"] = prompts
		return editActors(obj, up)
	})
}

// editActors applies the actor changes of up to a formInfo's members.
func editActors(obj map[string]any, up FormUpdate) error {
	if up.Owners == nil && up.UsersToAdd == nil && up.UsersToRemove == nil && up.GroupsToAdd == nil && up.GroupsToRemove == nil {
		return nil
	}
	actors := object(obj, "actors")
	if up.Owners != nil {
		actors["owners"] = *up.Owners
	}
	editURNList(actors, "users", up.UsersToAdd, up.UsersToRemove)
	editURNList(actors, "groups", up.GroupsToAdd, up.GroupsToRemove)
	return nil
}

// editURNList adds the URNs of add not in obj[k] and removes those of
// remove; obj[k] is left absent when nothing is asked.
func editURNList(obj map[string]any, k string, add, remove []string) {
	if add == nil && remove == nil {
		return
	}
	l := appendNew(list(obj, k), add)
	l = slices.DeleteFunc(l, func(it any) bool { s, _ := it.(string); return slices.Contains(remove, s) })
	if l == nil {
		l = []any{}
	}
	obj[k] = l
}

// DeleteForm hard-deletes a form and removes the references to it, as
// DataHub's deleteForm (which removes them asynchronously).
func (c *Core) DeleteForm(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if _, err := c.DeleteEntity(ctx, u, ""); err != nil {
		return err
	}
	_, err := c.DeleteReferences(ctx, u, false)
	return err
}

// formInfo is the formInfo of form u (Internal with DataHub's text when
// absent).
func (c *Core) formInfo(ctx context.Context, u string) (map[string]any, error) {
	info, err := c.latestObject(ctx, u, "formInfo")
	if err != nil {
		return nil, err
	}
	if info == nil {
		return nil, errorf(Internal, MsgFormInfoMissing, u)
	}
	return info, nil
}

// checkAssignment is FormService's check of a batch (un)assignment: the
// form and every entity exist.
func (c *Core) checkAssignment(ctx context.Context, form string, entities []string) error {
	if err := checkURNs(append([]string{form}, entities...)...); err != nil {
		return err
	}
	if err := c.mustExist(ctx, form, errorf(Internal, MsgFormEntityMissing, form)); err != nil {
		return err
	}
	for _, u := range entities {
		if err := c.mustExist(ctx, u, errorf(Internal, MsgFormEntityUnverified, u)); err != nil {
			return err
		}
	}
	return nil
}

// AssignForm assigns a form to entities as DataHub's batchAssignForm: the
// form and the entities must exist; an entity that has the form (complete
// or not) is left, any other gets it among its incompleteForms with every
// prompt of the form incomplete. A form without formInfo is skipped, as
// DataHub logs and skips it.
func (c *Core) AssignForm(ctx context.Context, form string, entities []string) error {
	if err := c.checkAssignment(ctx, form, entities); err != nil {
		return err
	}
	info, err := c.latestObject(ctx, form, "formInfo")
	if err != nil || info == nil {
		return err
	}
	for _, u := range entities {
		s := c.stamp(ctx)
		err := c.updateOrSkip(ctx, u, "forms", func(cur json.RawMessage) (json.RawMessage, error) {
			forms, err := formsObject(u, cur)
			if err != nil {
				return nil, err
			}
			if formAssociation(forms, form) != nil {
				return nil, errSkip
			}
			incomplete := []any{}
			for _, p := range list(info, "prompts") {
				m, _ := p.(map[string]any)
				incomplete = append(incomplete, map[string]any{"id": m["id"], "lastModified": s})
			}
			forms["incompleteForms"] = append(list(forms, "incompleteForms"), map[string]any{
				"urn": form, "incompletePrompts": incomplete, "completedPrompts": []any{}})
			return json.Marshal(forms)
		}, UpdateOptions{SystemMetadata: uiSystemMetadata})
		if err != nil {
			return err
		}
	}
	return nil
}

// UnassignForm removes a form from entities as DataHub's batchRemoveForm
// (the form and the entities must exist); an entity without it is left.
func (c *Core) UnassignForm(ctx context.Context, form string, entities []string) error {
	if err := c.checkAssignment(ctx, form, entities); err != nil {
		return err
	}
	for _, u := range entities {
		err := c.updateOrSkip(ctx, u, "forms", func(cur json.RawMessage) (json.RawMessage, error) {
			forms, err := formsObject(u, cur)
			if err != nil {
				return nil, err
			}
			if formAssociation(forms, form) == nil {
				return nil, errSkip
			}
			for _, k := range []string{"completedForms", "incompleteForms"} {
				forms[k] = slices.DeleteFunc(list(forms, k), func(it any) bool { return urnOf(it) == form })
			}
			return json.Marshal(forms)
		}, UpdateOptions{SystemMetadata: uiSystemMetadata})
		if err != nil {
			return err
		}
	}
	return nil
}

// errSkip is what an UpdateFunc returns to write nothing: the change of
// FormService it stands for builds no proposal.
var errSkip = errors.New("nothing to write")

// updateOrSkip is Update where fn may return errSkip to write nothing.
func (c *Core) updateOrSkip(ctx context.Context, u, aspect string, fn UpdateFunc, o UpdateOptions) error {
	err := c.Update(ctx, u, aspect, fn, o)
	if errors.Is(err, errSkip) {
		return nil
	}
	return err
}

// formsObject decodes a forms aspect, empty lists when absent.
func formsObject(u string, cur json.RawMessage) (map[string]any, error) {
	forms := map[string]any{}
	if cur != nil {
		if err := json.Unmarshal(cur, &forms); err != nil {
			return nil, errorf(Internal, MsgMapAspect, "forms", Abbreviate(u), err)
		}
	}
	for _, k := range []string{"incompleteForms", "completedForms"} {
		if list(forms, k) == nil {
			forms[k] = []any{}
		}
	}
	return forms, nil
}

func urnOf(it any) string {
	m, _ := it.(map[string]any)
	return strMember(m, "urn")
}

// formAssociation is the entity's association with form, looked for among
// the completed forms first (FormService.getFormWithUrn); nil when none.
func formAssociation(forms map[string]any, form string) map[string]any {
	for _, k := range []string{"completedForms", "incompleteForms"} {
		for _, it := range list(forms, k) {
			if urnOf(it) == form {
				m, _ := it.(map[string]any)
				return m
			}
		}
	}
	return nil
}

// CreateDynamicFormAssignment sets a form's dynamicFormAssignment (its
// filter: the or of the criteria lists given) as DataHub's
// createDynamicFormAssignment; the form must exist. DataHub then assigns
// the form to the entities the filter matches in the background; the mock
// does not.
func (c *Core) CreateDynamicFormAssignment(ctx context.Context, form string, filter any) error {
	if err := checkURNs(form); err != nil {
		return err
	}
	if err := c.mustExist(ctx, form, errorf(Internal, MsgFormDynamicMissing, form)); err != nil {
		return err
	}
	return c.writeAll(ctx, form, map[string]any{"dynamicFormAssignment": map[string]any{"filter": filter}})
}
