package graphql

import (
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The UI's mutations of an entity's metadata: tags, terms, owners, links,
// domains, deprecation, names, soft deletion. Each resolver only decodes its
// arguments and calls the core, which holds DataHub's rules.

// resourceRef is ResourceRefInput.
type resourceRef struct {
	ResourceUrn     string
	SubResourceType *string
	SubResource     *string
}

func (r resourceRef) core() gms.ResourceRef {
	return gms.ResourceRef{URN: r.ResourceUrn, SubResourceType: r.SubResourceType, SubResource: r.SubResource}
}

func refs(rs []*resourceRef) []gms.ResourceRef {
	out := make([]gms.ResourceRef, 0, len(rs))
	for _, r := range rs {
		if r != nil {
			out = append(out, r.core())
		}
	}
	return out
}

// ownerInput is OwnerInput.
type ownerInput struct {
	OwnerUrn         string
	OwnerEntityType  string
	Type             *string
	OwnershipTypeUrn *string
}

func (o ownerInput) core() gms.Owner {
	return gms.Owner{URN: o.OwnerUrn, EntityType: o.OwnerEntityType, Type: strOr(o.Type), TypeURN: strOr(o.OwnershipTypeUrn)}
}

func owners(os []ownerInput) []gms.Owner {
	out := make([]gms.Owner, 0, len(os))
	for _, o := range os {
		out = append(out, o.core())
	}
	return out
}

func strOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// decodeInput decodes the arguments into v (a struct with the argument
// fields), refusing what does not decode.
func decodeInput(a Args, v any) error {
	if err := a.Decode(v); err != nil {
		return badRequest(err.Error())
	}
	return nil
}

// done is a mutation's answer: true, or err as DataHub answers it.
func done(err error) (any, error) {
	if err != nil {
		return nil, fromCore(err)
	}
	return true, nil
}

// labelMutation registers a mutation that changes labels: decode reads
// its arguments into a change.
func labelMutation(name string, decode func(a Args) (gms.LabelChange, error)) {
	mutation(name, func(c *Ctx, a Args) (any, error) {
		ch, err := decode(a)
		if err != nil {
			return nil, err
		}
		return done(c.Core().ChangeLabels(c, ch))
	})
}

func init() {
	// one label on one resource
	for _, m := range []struct {
		name   string
		label  gms.Label
		remove bool
	}{{"addTag", gms.Tags, false}, {"removeTag", gms.Tags, true}, {"addTerm", gms.Terms, false}, {"removeTerm", gms.Terms, true}} {
		labelMutation(m.name, func(a Args) (gms.LabelChange, error) {
			var in struct {
				Input struct {
					TagUrn, TermUrn string
					resourceRef
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return gms.LabelChange{}, err
			}
			u := in.Input.TagUrn
			if m.label == gms.Terms {
				u = in.Input.TermUrn
			}
			return gms.LabelChange{Label: m.label, URNs: []string{u}, Resources: []gms.ResourceRef{in.Input.core()}, Remove: m.remove}, nil
		})
	}
	// labels on one resource
	for _, m := range []struct {
		name  string
		label gms.Label
	}{{"addTags", gms.Tags}, {"addTerms", gms.Terms}} {
		labelMutation(m.name, func(a Args) (gms.LabelChange, error) {
			var in struct {
				Input struct {
					TagUrns, TermUrns []string
					resourceRef
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return gms.LabelChange{}, err
			}
			urns := in.Input.TagUrns
			if m.label == gms.Terms {
				urns = in.Input.TermUrns
			}
			return gms.LabelChange{Label: m.label, URNs: urns, Resources: []gms.ResourceRef{in.Input.core()}}, nil
		})
	}
	// labels on many resources
	for _, m := range []struct {
		name   string
		label  gms.Label
		remove bool
	}{{"batchAddTags", gms.Tags, false}, {"batchRemoveTags", gms.Tags, true}, {"batchAddTerms", gms.Terms, false}, {"batchRemoveTerms", gms.Terms, true}} {
		labelMutation(m.name, func(a Args) (gms.LabelChange, error) {
			var in struct {
				Input struct {
					TagUrns, TermUrns []string
					Resources         []*resourceRef
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return gms.LabelChange{}, err
			}
			urns := in.Input.TagUrns
			if m.label == gms.Terms {
				urns = in.Input.TermUrns
			}
			return gms.LabelChange{Label: m.label, URNs: urns, Resources: refs(in.Input.Resources), Remove: m.remove}, nil
		})
	}

	mutation("addOwner", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ownerInput
				ResourceUrn string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().AddOwners(c, []gms.Owner{in.Input.core()}, []gms.ResourceRef{{URN: in.Input.ResourceUrn}}))
	})
	mutation("addOwners", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Owners      []ownerInput
				ResourceUrn string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().AddOwners(c, owners(in.Input.Owners), []gms.ResourceRef{{URN: in.Input.ResourceUrn}}))
	})
	mutation("batchAddOwners", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Owners           []ownerInput
				OwnershipTypeUrn *string
				Resources        []*resourceRef
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().AddOwners(c, owners(in.Input.Owners), refs(in.Input.Resources)))
	})
	mutation("removeOwner", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				OwnerUrn, ResourceUrn string
				OwnershipTypeUrn      *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().RemoveOwners(c, []string{in.Input.OwnerUrn}, strOr(in.Input.OwnershipTypeUrn),
			[]gms.ResourceRef{{URN: in.Input.ResourceUrn}}))
	})
	mutation("batchRemoveOwners", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				OwnerUrns        []string
				OwnershipTypeUrn *string
				Resources        []*resourceRef
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().RemoveOwners(c, in.Input.OwnerUrns, strOr(in.Input.OwnershipTypeUrn), refs(in.Input.Resources)))
	})

	for name, op := range map[string]gms.LinkOp{"addLink": gms.AddLink, "removeLink": gms.RemoveLink, "updateLink": gms.UpdateLink, "upsertLink": gms.UpsertLink} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			var in struct {
				Input struct {
					LinkUrl, ResourceUrn     string
					Label                    *string
					CurrentUrl, CurrentLabel string
					Settings                 *struct{ ShowInAssetPreview *bool }
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			i := in.Input
			ch := gms.LinkChange{Op: op, ResourceURN: i.ResourceUrn, URL: i.LinkUrl, Label: i.Label,
				CurrentURL: i.CurrentUrl, CurrentLabel: i.CurrentLabel}
			if i.Settings != nil {
				ch.ShowInAssetPreview = i.Settings.ShowInAssetPreview
			}
			return done(c.Core().ChangeLink(c, ch))
		})
	}

	mutation("setDomain", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().SetDomain(c, a.String("entityUrn"), a.String("domainUrn")))
	})
	mutation("unsetDomain", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().UnsetDomain(c, a.String("entityUrn")))
	})
	mutation("batchSetDomain", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				DomainUrn *string
				Resources []*resourceRef
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().BatchSetDomain(c, in.Input.DomainUrn, refs(in.Input.Resources)))
	})
	mutation("createDomain", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID, Name     string
				Description  *string
				ParentDomain *string
				Owners       []ownerInput
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		u, err := c.Core().CreateDomain(c, gms.DomainInput{ID: i.ID, Name: i.Name, Description: i.Description,
			ParentDomain: i.ParentDomain, Owners: owners(i.Owners)})
		if err != nil {
			return nil, fromCore(err)
		}
		return u, nil
	})
	mutation("moveDomain", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ResourceUrn  string
				ParentDomain *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().MoveDomain(c, in.Input.ResourceUrn, in.Input.ParentDomain))
	})
	mutation("deleteDomain", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteDomain(c, a.String("urn")))
	})

	type deprecationInput struct {
		URN              string
		Deprecated       bool
		DecommissionTime *int64
		Note             *string
		Replacement      *string
		Resources        []*resourceRef
	}
	deprecation := func(i deprecationInput) gms.Deprecation {
		return gms.Deprecation{Deprecated: i.Deprecated, Note: i.Note, DecommissionTime: i.DecommissionTime, Replacement: i.Replacement}
	}
	mutation("updateDeprecation", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input deprecationInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateDeprecation(c, in.Input.URN, deprecation(in.Input)))
	})
	mutation("batchUpdateDeprecation", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input deprecationInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().BatchUpdateDeprecation(c, deprecation(in.Input), refs(in.Input.Resources)))
	})
	mutation("batchUpdateSoftDeleted", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Urns    []string
				Deleted bool
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().BatchUpdateSoftDeleted(c, in.Input.Urns, in.Input.Deleted))
	})
	mutation("updateName", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ Name, URN string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateName(c, in.Input.URN, in.Input.Name))
	})
}
