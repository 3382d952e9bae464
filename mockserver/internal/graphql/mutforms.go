package graphql

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The form mutations. Each resolver decodes its arguments and calls the
// core ([gms.Core.CreateForm] and the others hold DataHub's rules); a
// failure that is not an argument's is answered as DataHub's form
// resolvers wrap it: the input as Java prints it, then the cause.

// promptInput is CreatePromptInput.
type promptInput struct {
	ID                       *string
	Title                    string
	Description              *string
	Type                     string
	StructuredPropertyParams *struct{ URN string }
	Required                 *bool
}

func promptsOf(in []promptInput) []gms.FormPrompt {
	if in == nil {
		return nil
	}
	out := make([]gms.FormPrompt, 0, len(in))
	for _, p := range in {
		fp := gms.FormPrompt{ID: p.ID, Title: p.Title, Description: p.Description, Type: p.Type, Required: p.Required}
		if p.StructuredPropertyParams != nil {
			fp.StructuredProperty = &p.StructuredPropertyParams.URN
		}
		out = append(out, fp)
	}
	return out
}

// formFailure is err as DataHub's form resolvers answer it: an argument's
// refusal with its own text, any other failure wrapped with the mutation's
// input (argument arg of Mutation.field) as Java prints it.
func formFailure(c *Ctx, field, arg string, a Args, err error) error {
	if e := gms.AsError(err); e != nil && e.Kind == gms.Internal {
		return serverError(fmt.Sprintf(gms.MsgFormFailed, javaInput(c, field, arg, a[arg]), e.Message))
	}
	return fromCore(err)
}

// javaInput is the argument arg of Mutation.field as the toString of
// DataHub's generated input classes prints it: Type{field=value, ...} in
// the schema's order, lists as [a, b], null as null.
func javaInput(c *Ctx, field, arg string, v any) string {
	var t *ast.Type
	if f := c.x.schema.Mutation.Fields.ForName(field); f != nil {
		if a := f.Arguments.ForName(arg); a != nil {
			t = a.Type
		}
	}
	var b strings.Builder
	writeJava(&b, c.x.schema, t, v)
	return b.String()
}

func writeJava(b *strings.Builder, s *ast.Schema, t *ast.Type, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case []any:
		b.WriteByte('[')
		for i, it := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			var et *ast.Type
			if t != nil {
				et = t.Elem
			}
			writeJava(b, s, et, it)
		}
		b.WriteByte(']')
	case map[string]any:
		var def *ast.Definition
		if t != nil {
			def = s.Types[t.Name()]
		}
		if def == nil {
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			fmt.Fprintf(b, "%v", keys)
			return
		}
		b.WriteString(def.Name + "{")
		for i, f := range def.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(f.Name + "=")
			writeJava(b, s, f.Type, v[f.Name])
		}
		b.WriteByte('}')
	default:
		fmt.Fprint(b, v)
	}
}

// orFilter is a Filter of the or of AndFilterInputs (DataHub's
// ResolverUtils.buildConjunctiveCriterionArrayWithOr): each criterion's
// field, values, condition (EQUAL unless given) and negated.
func orFilter(ors []any) map[string]any {
	or := []any{}
	for _, o := range ors {
		m, _ := o.(map[string]any)
		and := []any{}
		for _, f := range anyList(m["and"]) {
			fm, _ := f.(map[string]any)
			values := nonNilList(anyList(fm["values"]))
			cr := map[string]any{"field": fm["field"], "values": values, "condition": "EQUAL", "negated": fm["negated"] == true}
			if cond, ok := fm["condition"].(string); ok {
				cr["condition"] = cond
			}
			and = append(and, cr)
		}
		or = append(or, map[string]any{"and": and})
	}
	return map[string]any{"or": or}
}

func init() {
	mutation("createForm", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID                *string
				Name              string
				Description, Type *string
				Prompts           []promptInput
				Actors            *struct {
					Owners        *bool
					Users, Groups []string
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		fi := gms.FormInput{ID: in.Input.ID, Name: in.Input.Name, Description: in.Input.Description, Type: in.Input.Type,
			Prompts: promptsOf(in.Input.Prompts)}
		if ac := in.Input.Actors; ac != nil {
			fi.Actors = &gms.FormActors{Owners: ac.Owners, Users: ac.Users, Groups: ac.Groups}
		}
		u, err := c.Core().CreateForm(c, fi)
		if err != nil {
			return nil, formFailure(c, "createForm", "input", a, err)
		}
		return entityAnswer(c, u, nil)
	})
	mutation("updateForm", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN                     string
				Name, Description, Type *string
				PromptsToAdd            []promptInput
				PromptsToRemove         []string
				Actors                  *struct {
					Owners                                                 *bool
					UsersToAdd, UsersToRemove, GroupsToAdd, GroupsToRemove []string
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		up := gms.FormUpdate{Name: in.Input.Name, Description: in.Input.Description, Type: in.Input.Type,
			PromptsToAdd: promptsOf(in.Input.PromptsToAdd), PromptsToRemove: in.Input.PromptsToRemove}
		if ac := in.Input.Actors; ac != nil {
			up.Owners, up.UsersToAdd, up.UsersToRemove, up.GroupsToAdd, up.GroupsToRemove =
				ac.Owners, ac.UsersToAdd, ac.UsersToRemove, ac.GroupsToAdd, ac.GroupsToRemove
		}
		if err := c.Core().UpdateForm(c, in.Input.URN, up); err != nil {
			return nil, formFailure(c, "updateForm", "input", a, err)
		}
		return entityAnswer(c, in.Input.URN, nil)
	})
	mutation("deleteForm", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ URN string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		if err := c.Core().DeleteForm(c, in.Input.URN); err != nil {
			return nil, formFailure(c, "deleteForm", "input", a, err)
		}
		return true, nil
	})
	for name, remove := range map[string]bool{"batchAssignForm": false, "batchRemoveForm": true} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			var in struct {
				Input struct {
					FormUrn    string
					EntityUrns []string
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			change := c.Core().AssignForm
			if remove {
				change = c.Core().UnassignForm
			}
			if err := change(c, in.Input.FormUrn, in.Input.EntityUrns); err != nil {
				return nil, formFailure(c, name, "input", a, err)
			}
			return true, nil
		})
	}
	mutation("createDynamicFormAssignment", func(c *Ctx, a Args) (any, error) {
		in, _ := a["input"].(map[string]any)
		form, _ := in["formUrn"].(string)
		if err := c.Core().CreateDynamicFormAssignment(c, form, orFilter(anyList(in["orFilters"]))); err != nil {
			return nil, formFailure(c, "createDynamicFormAssignment", "input", a, err)
		}
		return true, nil
	})
	mutation("submitFormPrompt", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct {
				PromptID, FormUrn, Type  string
				FieldPath                *string
				StructuredPropertyParams *struct {
					StructuredPropertyUrn string
					Values                []propertyValueInput
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		r := gms.FormResponse{Form: in.Input.FormUrn, PromptID: in.Input.PromptID, Type: in.Input.Type, FieldPath: in.Input.FieldPath}
		if p := in.Input.StructuredPropertyParams; p != nil {
			r.StructuredProperty = &p.StructuredPropertyUrn
			for _, v := range p.Values {
				r.Values = append(r.Values, v.core())
			}
		}
		ok, err := c.Core().SubmitFormPrompt(c, in.URN, r)
		if err != nil {
			return nil, formFailure(c, "submitFormPrompt", "input", a, err)
		}
		return ok, nil
	})
	mutation("verifyForm", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct{ FormUrn, EntityUrn string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		if err := c.Core().VerifyForm(c, in.Input.FormUrn, in.Input.EntityUrn); err != nil {
			return nil, formFailure(c, "verifyForm", "input", a, err)
		}
		return true, nil
	})
}
