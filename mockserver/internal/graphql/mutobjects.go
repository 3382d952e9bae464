package graphql

import (
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The mutations of the UI's own objects (ownership types, posts, views,
// queries), of embeds and display properties, of users and groups, and of
// data product assets and incidents. Each resolver only decodes its
// arguments and calls the core.

// entityAnswer is the entity u as the reads answer it (the answer of a
// mutation that returns the entity it wrote).
func entityAnswer(c *Ctx, u string, err error) (any, error) {
	if err != nil {
		return nil, fromCore(err)
	}
	e, gerr := c.x.h.res.load(c, u, "")
	if gerr != nil {
		return nil, gerr
	}
	return newEntityR(e), nil
}

// postContentInput is UpdatePostContentInput.
type postContentInput struct {
	ContentType, Title string
	Description, Link  *string
	Media              *struct{ Type, Location string }
}

func (p postContentInput) core() gms.PostContent {
	pc := gms.PostContent{ContentType: p.ContentType, Title: p.Title, Description: p.Description, Link: p.Link}
	if p.Media != nil {
		pc.MediaType, pc.Location = p.Media.Type, p.Media.Location
	}
	return pc
}

// viewDefinition is DataHubViewDefinitionInput as the dataHubViewInfo
// aspect stores it (entity types as entity names, filters as criteria).
func viewDefinition(d map[string]any) any {
	if d == nil {
		return nil
	}
	types := []any{}
	for _, t := range anyList(d["entityTypes"]) {
		s, _ := t.(string)
		types = append(types, entityNameOf(s))
	}
	filter, _ := d["filter"].(map[string]any)
	var criteria []any
	for _, f := range anyList(filter["filters"]) {
		m, _ := f.(map[string]any)
		cr := map[string]any{"field": m["field"], "values": nonNilList(anyList(m["values"])), "condition": "EQUAL", "negated": m["negated"] == true}
		if cond, ok := m["condition"].(string); ok {
			cr["condition"] = cond
		}
		criteria = append(criteria, cr)
	}
	return map[string]any{"entityTypes": types,
		"filter": map[string]any{"or": []any{map[string]any{"and": nonNilList(criteria)}}}}
}

// entityNameOf is the registry's entity name of an EntityType value
// (DATASET: dataset).
func entityNameOf(t string) string {
	for name, et := range entityTypes {
		if et == t {
			return name
		}
	}
	return t
}

func init() {
	mutation("createOwnershipType", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct{ Name, Description string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().CreateOwnershipType(c, in.Input.Name, in.Input.Description)
		return entityAnswer(c, u, err)
	})
	mutation("updateOwnershipType", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct{ Name, Description *string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return entityAnswer(c, in.URN, c.Core().UpdateOwnershipType(c, in.URN, in.Input.Name, in.Input.Description))
	})
	mutation("deleteOwnershipType", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteOwnershipType(c, a.String("urn")))
	})

	mutation("createPost", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				PostType    string
				Content     postContentInput
				ResourceUrn *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		_, err := c.Core().CreatePost(c, in.Input.PostType, in.Input.Content.core(), strOr(in.Input.ResourceUrn))
		return done(err)
	})
	mutation("updatePost", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN, PostType string
				Content       postContentInput
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdatePost(c, in.Input.URN, in.Input.PostType, in.Input.Content.core()))
	})
	mutation("deletePost", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteUIEntity(c, a.String("urn"), nil))
	})

	mutation("createView", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ViewType, Name string
				Description    *string
				Definition     map[string]any
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().CreateView(c, in.Input.ViewType, in.Input.Name, in.Input.Description, viewDefinition(in.Input.Definition))
		return entityAnswer(c, u, err)
	})
	mutation("updateView", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct {
				Name, Description *string
				Definition        map[string]any
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return entityAnswer(c, in.URN, c.Core().UpdateView(c, in.URN, in.Input.Name, in.Input.Description, viewDefinition(in.Input.Definition)))
	})
	mutation("deleteView", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteUIEntity(c, a.String("urn"), nil))
	})

	type queryInput struct {
		Properties *struct {
			Name, Description *string
			Statement         *gms.QueryStatement
		}
		Subjects []struct{ DatasetUrn string }
	}
	datasets := func(in queryInput) []string {
		if in.Subjects == nil {
			return nil
		}
		out := []string{}
		for _, s := range in.Subjects {
			out = append(out, s.DatasetUrn)
		}
		return out
	}
	mutation("createQuery", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input queryInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		p := in.Input.Properties
		if p == nil || p.Statement == nil {
			return nil, badRequest("Failed to create Query: a statement is required (datahub-mock)")
		}
		u, err := c.Core().CreateQuery(c, p.Name, p.Description, *p.Statement, datasets(in.Input))
		return entityAnswer(c, u, err)
	})
	mutation("updateQuery", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input queryInput
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		var name, desc *string
		var st *gms.QueryStatement
		if p := in.Input.Properties; p != nil {
			name, desc, st = p.Name, p.Description, p.Statement
		}
		return entityAnswer(c, in.URN, c.Core().UpdateQuery(c, in.URN, name, desc, st, datasets(in.Input)))
	})
	mutation("deleteQuery", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteUIEntity(c, a.String("urn"), nil))
	})

	mutation("updateEmbed", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN       string
				RenderUrl *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateEmbed(c, in.Input.URN, in.Input.RenderUrl))
	})
	mutation("updateDisplayProperties", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct {
				ColorHex *string
				Icon     map[string]any
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateDisplayProperties(c, in.URN, in.Input.ColorHex, in.Input.Icon))
	})

	mutation("createGroup", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID, Name    string
				Description *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().CreateGroup(c, in.Input.ID, in.Input.Name, in.Input.Description))
	})
	for name, remove := range map[string]bool{"addGroupMembers": false, "removeGroupMembers": true} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			var in struct {
				Input struct {
					GroupUrn string
					UserUrns []string
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			return done(c.Core().ChangeGroupMembers(c, in.Input.GroupUrn, in.Input.UserUrns, remove))
		})
	}
	for _, name := range []string{"removeUser", "removeGroup"} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			return done(c.Core().DeleteUIEntity(c, a.String("urn"), nil))
		})
	}
	mutation("updateUserStatus", func(c *Ctx, a Args) (any, error) {
		if err := c.Core().UpdateUserStatus(c, a.String("urn"), a.String("status")); err != nil {
			return nil, fromCore(err)
		}
		return a.String("urn"), nil
	})
	for _, name := range []string{"updateCorpUserProperties", "updateCorpGroupProperties"} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			var in struct {
				URN   string
				Input map[string]any
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			return entityAnswer(c, in.URN, c.Core().UpdateEditableInfo(c, in.URN, in.Input))
		})
	}

	for name, remove := range map[string]bool{"batchAddToDataProducts": false, "batchRemoveFromDataProducts": true} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			var in struct {
				Input struct{ DataProductUrns, ResourceUrns []string }
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			return done(c.Core().ChangeDataProductAssets(c, in.Input.DataProductUrns, in.Input.ResourceUrns, remove))
		})
	}
}
