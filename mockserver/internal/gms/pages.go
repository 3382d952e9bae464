package gms

import (
	"context"
	"fmt"
	"slices"
)

// DataHub's texts of the page template and module mutations
// (PageTemplateService, PageModuleService, UpsertPageModuleResolver).
const (
	MsgModuleNoParams          = "Did not provide %s params for %s module"
	MsgModuleUnsupported       = "Attempted to create an unsupported module type."
	MsgModuleDefault           = "Cannot delete default page module with urn %s"
	MsgModuleDeleteMissing     = "Attempted to delete a page module that does not exist with urn %s"
	MsgTemplateDeleteMissing   = "Attempted to delete a page template that does not exist with urn %s"
	MsgTemplateDefault         = "Failed to delete PageTemplate with urn %s. Root cause: Attempted to delete the default page template"
	MsgTemplateModuleMissing   = "Failed validating template rows. Module with urn %s does not exist"
	MsgTemplateUpsertFailed    = "Failed to perform upsert page template update against input %s. Root cause: %s"
	DefaultHomePageTemplateURN = "urn:li:dataHubPageTemplate:home_default_1"
)

// defaultModules are the page modules a fresh DataHub holds, which cannot
// be deleted.
var defaultModules = []string{
	"your_assets", "your_subscriptions", "top_domains", "assets", "output_ports", "child_hierarchy",
	"data_products", "related_terms", "platforms", "lineage", "columns", "semantic_model_datasets",
	"semantic_model_metrics", "semantic_model_relationships", "semantic_model_dimensions", "ai_context",
	"sql", "related_metrics",
}

// moduleParams names the params member each module type needs, with the
// words of DataHub's refusal.
var moduleParams = map[string][2]string{
	"RICH_TEXT":        {"richTextParams", "rich text"},
	"LINK":             {"linkParams", "link"},
	"ASSET_COLLECTION": {"assetCollectionParams", "asset collection"},
	"HIERARCHY":        {"hierarchyViewParams", "hierarchy view"},
}

// upsertURN is the URN an upsert writes: u, or a new one of entityType.
func upsertURN(u *string, entityType string) (string, error) {
	if u == nil {
		return "urn:li:" + entityType + ":" + randomUUID(), nil
	}
	return *u, checkURNs(*u)
}

// UpsertPageModule writes a page module as DataHub's upsertPageModule: the
// type's params must be given (params holds the members the input gives,
// as dataHubPageModuleProperties stores them); the properties keep their
// created stamp and get the name, type, scope, params and a lastModified
// stamp. It returns the module's URN (new when u is nil).
func (c *Core) UpsertPageModule(ctx context.Context, u *string, name, moduleType, scope string, params map[string]any) (string, error) {
	need, ok := moduleParams[moduleType]
	if !ok {
		return "", errorf(BadArgument, "%s", MsgModuleUnsupported)
	}
	if params[need[0]] == nil {
		return "", errorf(BadArgument, MsgModuleNoParams, need[1], need[1])
	}
	urn, err := upsertURN(u, "dataHubPageModule")
	if err != nil {
		return "", err
	}
	s := c.stamp(ctx)
	return urn, c.Update(ctx, urn, "dataHubPageModuleProperties", editObject(urn, "dataHubPageModuleProperties", func(obj map[string]any) error {
		if _, ok := obj["created"]; !ok {
			obj["created"] = s
		}
		obj["name"], obj["type"], obj["params"], obj["lastModified"] = name, moduleType, params, s
		obj["visibility"] = map[string]any{"scope": scope}
		return nil
	}), UpdateOptions{SystemMetadata: uiSystemMetadata})
}

// DeletePageModule hard-deletes a page module as DataHub's
// deletePageModule: not one of DataHub's default modules, and it must have
// its properties.
func (c *Core) DeletePageModule(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	for _, id := range defaultModules {
		if u == "urn:li:dataHubPageModule:"+id {
			return errorf(BadArgument, MsgModuleDefault, u)
		}
	}
	return c.deleteWithProperties(ctx, u, "dataHubPageModuleProperties", errorf(BadArgument, MsgModuleDeleteMissing, u))
}

// deleteWithProperties hard-deletes u, which must have aspect (missing
// otherwise), and removes the references to it.
func (c *Core) deleteWithProperties(ctx context.Context, u, aspect string, missing *Error) error {
	props, err := c.latestObject(ctx, u, aspect)
	if err != nil {
		return err
	}
	if props == nil {
		return missing
	}
	if _, err := c.DeleteEntity(ctx, u, ""); err != nil {
		return err
	}
	_, err = c.DeleteReferences(ctx, u, false)
	return err
}

// TemplateSummaryElement is DataHub's SummaryElementInput.
type TemplateSummaryElement struct {
	ElementType        string
	StructuredProperty *string
}

// UpsertPageTemplate writes a page template as DataHub's
// upsertPageTemplate: every module of the rows must exist (input is the
// input as DataHub prints it, for the refusal); the properties keep their
// created stamp and get the rows, the asset summary (when given), the
// surface, the scope and a lastModified stamp. It returns the template's
// URN (new when u is nil).
func (c *Core) UpsertPageTemplate(ctx context.Context, u *string, rows [][]string, summary []TemplateSummaryElement, scope, surface, input string) (string, error) {
	urn, err := upsertURN(u, "dataHubPageTemplate")
	if err != nil {
		return "", err
	}
	rowList := []any{}
	for _, r := range rows {
		if err := checkURNs(r...); err != nil {
			return "", err
		}
		for _, m := range r {
			if err := c.mustExist(ctx, m, errorf(Internal, MsgTemplateUpsertFailed, input, fmt.Sprintf(MsgTemplateModuleMissing, m))); err != nil {
				return "", err
			}
		}
		rowList = append(rowList, map[string]any{"modules": anyStrings(r)})
	}
	var sum map[string]any
	if summary != nil {
		els := []any{}
		for _, e := range summary {
			el := map[string]any{"elementType": e.ElementType}
			setGiven(el, "structuredPropertyUrn", e.StructuredProperty)
			els = append(els, el)
		}
		sum = map[string]any{"summaryElements": els}
	}
	s := c.stamp(ctx)
	return urn, c.Update(ctx, urn, "dataHubPageTemplateProperties", editObject(urn, "dataHubPageTemplateProperties", func(obj map[string]any) error {
		if _, ok := obj["created"]; !ok {
			obj["created"] = s
		}
		obj["rows"], obj["lastModified"] = rowList, s
		if sum != nil {
			obj["assetSummary"] = sum
		}
		obj["surface"] = map[string]any{"surfaceType": surface}
		obj["visibility"] = map[string]any{"scope": scope}
		return nil
	}), UpdateOptions{SystemMetadata: uiSystemMetadata})
}

// DeletePageTemplate hard-deletes a page template as DataHub's
// deletePageTemplate: not DataHub's default home page template, and it
// must have its properties.
func (c *Core) DeletePageTemplate(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if u == DefaultHomePageTemplateURN {
		return errorf(Internal, MsgTemplateDefault, u)
	}
	return c.deleteWithProperties(ctx, u, "dataHubPageTemplateProperties", errorf(BadArgument, MsgTemplateDeleteMissing, u))
}

// StepState is one state of DataHub's batchUpdateStepStates: a step's id
// and its properties.
type StepState struct {
	ID         string
	Properties map[string]string
}

// UpdateStepStates writes each step state's dataHubStepStateProperties
// (its properties and a lastModified stamp; a state whose write fails is
// reported false, the others still written) as DataHub's
// batchUpdateStepStates, and returns whether each succeeded.
func (c *Core) UpdateStepStates(ctx context.Context, states []StepState) []bool {
	s := c.stamp(ctx)
	out := make([]bool, 0, len(states))
	for _, st := range states {
		props := map[string]any{}
		for k, v := range st.Properties {
			props[k] = v
		}
		u := "urn:li:dataHubStepState:" + st.ID
		err := checkURNs(u)
		if err == nil {
			err = c.writeAll(ctx, u, map[string]any{"dataHubStepStateProperties": map[string]any{"properties": props, "lastModified": s}})
		}
		out = append(out, err == nil)
	}
	return slices.Clip(out)
}
