package graphql

import (
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The document (knowledge article) mutations, page template and module
// mutations and step states. Each resolver decodes its arguments and calls
// the core, which holds DataHub's rules and texts.

// documentOwners maps OwnerInputs to the ownership's owners as DataHub's
// createDocument does: the ownership type's URN when given, else the type,
// else NONE.
func documentOwners(in []ownerInput) []map[string]any {
	out := make([]map[string]any, 0, len(in))
	for _, o := range in {
		m := map[string]any{"owner": o.OwnerUrn}
		switch {
		case o.OwnershipTypeUrn != nil:
			m["typeUrn"] = *o.OwnershipTypeUrn
		case o.Type != nil:
			m["type"] = *o.Type
		default:
			m["type"] = "NONE"
		}
		out = append(out, m)
	}
	return out
}

func init() {
	mutation("createDocument", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID, SubType, Title, State       *string
				Contents                        struct{ Text string }
				Owners                          []ownerInput
				ParentDocument                  *string
				RelatedAssets, RelatedDocuments []string
				Settings                        *struct{ ShowInGlobalContext *bool }
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		d := gms.DocumentInput{ID: i.ID, SubType: i.SubType, Title: i.Title, State: i.State, Text: i.Contents.Text,
			Owners: documentOwners(i.Owners), ParentDocument: i.ParentDocument, RelatedAssets: i.RelatedAssets, RelatedDocuments: i.RelatedDocuments}
		if i.Settings != nil {
			d.ShowInGlobalContext = i.Settings.ShowInGlobalContext
		}
		return created(c.Core().CreateDocument(c, d))
	})
	mutation("updateDocumentContents", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN            string
				Title, SubType *string
				Contents       *struct{ Text string }
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		var text *string
		if in.Input.Contents != nil {
			text = &in.Input.Contents.Text
		}
		return done(c.Core().UpdateDocumentContents(c, in.Input.URN, text, in.Input.Title, in.Input.SubType))
	})
	mutation("updateDocumentRelatedEntities", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN                             string
				RelatedAssets, RelatedDocuments []string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateDocumentRelatedEntities(c, in.Input.URN, in.Input.RelatedAssets, in.Input.RelatedDocuments))
	})
	mutation("moveDocument", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN            string
				ParentDocument *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().MoveDocument(c, in.Input.URN, in.Input.ParentDocument))
	})
	mutation("deleteDocument", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteDocument(c, a.String("urn")))
	})
	mutation("updateDocumentStatus", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ URN, State string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateDocumentStatus(c, in.Input.URN, in.Input.State))
	})
	mutation("updateDocumentSubType", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN     string
				SubType *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateDocumentSubType(c, in.Input.URN, in.Input.SubType))
	})
	mutation("updateDocumentSettings", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN                 string
				ShowInGlobalContext bool
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateDocumentSettings(c, in.Input.URN, in.Input.ShowInGlobalContext))
	})

	mutation("upsertPageModule", func(c *Ctx, a Args) (any, error) {
		in, _ := a["input"].(map[string]any)
		var u *string
		if s, ok := in["urn"].(string); ok {
			u = &s
		}
		name, _ := in["name"].(string)
		typ, _ := in["type"].(string)
		scope, _ := in["scope"].(string)
		params, _ := in["params"].(map[string]any)
		mu, err := c.Core().UpsertPageModule(c, u, name, typ, scope, moduleParams(params))
		return entityAnswer(c, mu, err)
	})
	mutation("deletePageModule", func(c *Ctx, a Args) (any, error) {
		in, _ := a["input"].(map[string]any)
		u, _ := in["urn"].(string)
		return done(c.Core().DeletePageModule(c, u))
	})
	mutation("upsertPageTemplate", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN          *string
				Rows         []struct{ Modules []string }
				AssetSummary *struct {
					SummaryElements []struct {
						ElementType           string
						StructuredPropertyUrn *string
					}
				}
				Scope, SurfaceType string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		rows := make([][]string, 0, len(in.Input.Rows))
		for _, r := range in.Input.Rows {
			rows = append(rows, r.Modules)
		}
		var summary []gms.TemplateSummaryElement
		if s := in.Input.AssetSummary; s != nil {
			summary = []gms.TemplateSummaryElement{}
			for _, e := range s.SummaryElements {
				summary = append(summary, gms.TemplateSummaryElement{ElementType: e.ElementType, StructuredProperty: e.StructuredPropertyUrn})
			}
		}
		u, err := c.Core().UpsertPageTemplate(c, in.Input.URN, rows, summary, in.Input.Scope, in.Input.SurfaceType,
			javaInput(c, "upsertPageTemplate", "input", a["input"]))
		return entityAnswer(c, u, err)
	})
	mutation("deletePageTemplate", func(c *Ctx, a Args) (any, error) {
		in, _ := a["input"].(map[string]any)
		u, _ := in["urn"].(string)
		return done(c.Core().DeletePageTemplate(c, u))
	})
	mutation("batchUpdateStepStates", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				States []struct {
					ID         string
					Properties []*struct{ Key, Value string }
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		states := make([]gms.StepState, 0, len(in.Input.States))
		for _, s := range in.Input.States {
			props := map[string]string{}
			for _, p := range s.Properties {
				if p != nil {
					props[p.Key] = p.Value
				}
			}
			states = append(states, gms.StepState{ID: s.ID, Properties: props})
		}
		ok := c.Core().UpdateStepStates(c, states)
		results := make([]any, 0, len(states))
		for i, s := range states {
			results = append(results, map[string]any{"id": s.ID, "succeeded": ok[i]})
		}
		return map[string]any{"results": results}, nil
	})
}

// moduleParams is PageModuleParamsInput as dataHubPageModuleProperties
// stores it (UpsertPageModuleResolver.mapParamsInput): the members given,
// the hierarchy view's showRelatedEntities false unless given.
func moduleParams(in map[string]any) map[string]any {
	out := map[string]any{}
	keep := func(m map[string]any, keys ...string) map[string]any {
		o := map[string]any{}
		for _, k := range keys {
			if v, ok := m[k]; ok && v != nil {
				o[k] = v
			}
		}
		return o
	}
	if m, ok := in["linkParams"].(map[string]any); ok {
		out["linkParams"] = keep(m, "linkUrl", "imageUrl", "description")
	}
	if m, ok := in["richTextParams"].(map[string]any); ok {
		out["richTextParams"] = keep(m, "content")
	}
	if m, ok := in["assetCollectionParams"].(map[string]any); ok {
		p := keep(m, "assetUrns", "dynamicFilterJson")
		if p["assetUrns"] == nil {
			p["assetUrns"] = []any{}
		}
		out["assetCollectionParams"] = p
	}
	if m, ok := in["hierarchyViewParams"].(map[string]any); ok {
		p := keep(m, "assetUrns", "showRelatedEntities", "relatedEntitiesFilterJson")
		if p["showRelatedEntities"] == nil {
			p["showRelatedEntities"] = false
		}
		out["hierarchyViewParams"] = p
	}
	return out
}

func init() {
	mutation("importDocumentsFromFiles", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Documents           []gms.ImportFile
				ShowInGlobalContext *bool
				UseCase             *string
				ParentDocumentUrn   *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		show := in.Input.ShowInGlobalContext == nil || *in.Input.ShowInGlobalContext
		res, err := c.Core().ImportDocuments(c, in.Input.Documents, strOr(in.Input.UseCase), show, in.Input.ParentDocumentUrn)
		if err != nil {
			return nil, fromCore(err)
		}
		return map[string]any{"createdCount": res.CreatedCount, "updatedCount": res.UpdatedCount, "failedCount": res.FailedCount,
			"errors": res.Errors, "documentUrns": res.DocumentURNs}, nil
	})
	mutation("createDataHubFile", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID, StorageKey, OriginalFileName, MimeType  string
				SizeInBytes                                 Long
				Scenario                                    string
				ReferencedByAsset, SchemaField, ContentHash *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		u, err := c.Core().CreateDataHubFile(c, gms.DataHubFile{ID: i.ID, StorageKey: i.StorageKey, OriginalFileName: i.OriginalFileName,
			MimeType: i.MimeType, SizeInBytes: int64(i.SizeInBytes), Scenario: i.Scenario, ReferencedByAsset: i.ReferencedByAsset,
			SchemaField: i.SchemaField, ContentHash: i.ContentHash})
		f, err := entityAnswer(c, u, err)
		if err != nil {
			return nil, err
		}
		return map[string]any{"file": f}, nil
	})
}
