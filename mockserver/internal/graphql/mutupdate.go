package graphql

import (
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The update<Entity> mutations (updateDataset, updateDatasets, updateChart,
// ...): each decodes its <Entity>UpdateInput and calls
// gms.Core.UpdateEntities, then answers the entities as the reads do.

// tagsUpdate is GlobalTagsUpdate.
type tagsUpdate struct {
	Tags []struct{ Tag struct{ URN string } }
}

func (t *tagsUpdate) urns() *[]string {
	if t == nil {
		return nil
	}
	out := []string{}
	for _, a := range t.Tags {
		out = append(out, a.Tag.URN)
	}
	return &out
}

// entityUpdateInput is the union of the <Entity>UpdateInput types.
type entityUpdateInput struct {
	Ownership *struct {
		Owners []struct {
			Owner                  string
			Type, OwnershipTypeUrn *string
		}
	}
	GlobalTags, Tags    *tagsUpdate
	InstitutionalMemory *struct {
		Elements []struct {
			URL, Author string
			Description *string
			CreatedAt   *int64
		}
	}
	Deprecation *struct {
		Deprecated       bool
		Note             string
		DecommissionTime *int64
	}
	EditableSchemaMetadata *struct {
		EditableSchemaFieldInfo []struct {
			FieldPath   string
			Description *string
			GlobalTags  *tagsUpdate
		}
	}
	EditableProperties *struct{ Description, Name *string }
}

func (in entityUpdateInput) core(u string) gms.EntityUpdate {
	up := gms.EntityUpdate{URN: u}
	if in.Ownership != nil {
		os := []gms.OwnerUpdate{}
		for _, o := range in.Ownership.Owners {
			os = append(os, gms.OwnerUpdate{Owner: o.Owner, Type: strOr(o.Type), TypeURN: strOr(o.OwnershipTypeUrn)})
		}
		up.Owners = &os
	}
	// globalTags, deprecated, wins over tags, as DataHub's mappers read them.
	if in.GlobalTags != nil {
		up.Tags = in.GlobalTags.urns()
	} else if in.Tags != nil {
		up.Tags = in.Tags.urns()
	}
	if in.InstitutionalMemory != nil {
		ls := []gms.LinkUpdate{}
		for _, l := range in.InstitutionalMemory.Elements {
			ls = append(ls, gms.LinkUpdate{URL: l.URL, Author: l.Author, Description: l.Description, CreatedAt: l.CreatedAt})
		}
		up.Links = &ls
	}
	if d := in.Deprecation; d != nil {
		up.Deprecation = &gms.DatasetDeprecationUpdate{Deprecated: d.Deprecated, Note: d.Note, DecommissionTime: d.DecommissionTime}
	}
	if in.EditableSchemaMetadata != nil {
		fs := []gms.FieldInfoUpdate{}
		for _, f := range in.EditableSchemaMetadata.EditableSchemaFieldInfo {
			fs = append(fs, gms.FieldInfoUpdate{FieldPath: f.FieldPath, Description: f.Description, Tags: f.GlobalTags.urns()})
		}
		up.FieldInfos = &fs
	}
	if p := in.EditableProperties; p != nil {
		up.EditableSet, up.Description, up.Name = true, p.Description, p.Name
	}
	return up
}

func init() {
	for field, entityType := range map[string]string{
		"updateDataset": "dataset", "updateChart": "chart", "updateDashboard": "dashboard",
		"updateNotebook": "notebook", "updateDataFlow": "dataFlow", "updateDataJob": "dataJob",
	} {
		mutation(field, func(c *Ctx, a Args) (any, error) {
			var in struct {
				URN   string
				Input entityUpdateInput
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			err := c.Core().UpdateEntities(c, entityType, []gms.EntityUpdate{in.Input.core(in.URN)})
			return entityAnswer(c, in.URN, err)
		})
	}
	mutation("updateDatasets", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input []struct {
				URN    string
				Update entityUpdateInput
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		ups := make([]gms.EntityUpdate, 0, len(in.Input))
		for _, i := range in.Input {
			ups = append(ups, i.Update.core(i.URN))
		}
		if err := c.Core().UpdateEntities(c, "dataset", ups); err != nil {
			return nil, fromCore(err)
		}
		out := make([]any, 0, len(ups))
		for _, up := range ups {
			e, err := entityAnswer(c, up.URN, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	})
}
