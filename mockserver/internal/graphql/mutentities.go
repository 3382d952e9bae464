package graphql

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The mutations that create, change and delete entities the UI manages:
// glossary terms and nodes, tags, structured properties, data products,
// incidents, assertions; and entity versioning, which a fresh DataHub has
// off. Each resolver only decodes its arguments and calls the core.

// aspectObject is the latest value of aspect of u decoded (nil when
// absent or unreadable).
func aspectObject(ctx context.Context, core *gms.Core, u, aspect string) map[string]any {
	v, err := core.GetAspect(ctx, u, aspect, 0)
	if err != nil {
		return nil
	}
	var obj map[string]any
	if json.Unmarshal(v.Value, &obj) != nil {
		return nil
	}
	return obj
}

// created is a create mutation's answer: the new URN, or err as DataHub
// answers it.
func created(u string, err error) (any, error) {
	if err != nil {
		return nil, fromCore(err)
	}
	return u, nil
}

// idOf is the id of a one-part URN (urn:li:dataType:datahub.string:
// datahub.string).
func idOf(u string) string {
	if i := strings.LastIndexByte(u, ':'); i >= 0 {
		return u[i+1:]
	}
	return u
}

// propertyValue is a PrimitivePropertyValue as the PropertyValue union.
func propertyValue(v any) map[string]any {
	m, _ := v.(map[string]any)
	if s, ok := m["string"].(string); ok {
		return map[string]any{"__typename": "StringValue", "stringValue": s}
	}
	switch f := m["double"].(type) {
	case float64:
		return map[string]any{"__typename": "NumberValue", "numberValue": f}
	case json.Number: // as the generic reads decode it
		if n, err := f.Float64(); err == nil {
			return map[string]any{"__typename": "NumberValue", "numberValue": n}
		}
	}
	return nil
}

// stdDataTypes are the StdDataType of DataHub's data types.
var stdDataTypes = map[string]string{"datahub.string": "STRING", "datahub.number": "NUMBER", "datahub.urn": "URN",
	"datahub.rich_text": "RICH_TEXT", "datahub.date": "DATE"}

// entityTypeEntity is an EntityTypeEntity of its URN
// (urn:li:entityType:datahub.dataset).
func entityTypeEntity(u string) map[string]any {
	id := idOf(u)
	return map[string]any{"urn": u, "type": "ENTITY_TYPE",
		"info": map[string]any{"type": entityTypes[strings.TrimPrefix(id, "datahub.")], "qualifiedName": id}}
}

// structuredPropertyEntity is the StructuredPropertyEntity u as its
// propertyDefinition and settings hold it.
func structuredPropertyEntity(ctx context.Context, core *gms.Core, u string) map[string]any {
	e := map[string]any{"urn": u, "type": "STRUCTURED_PROPERTY"}
	def := aspectObject(ctx, core, u, "propertyDefinition")
	e["exists"] = def != nil
	if def == nil {
		return e
	}
	vt, _ := def["valueType"].(string)
	std := stdDataTypes[idOf(vt)]
	if std == "" {
		std = "OTHER"
	}
	d := map[string]any{"qualifiedName": def["qualifiedName"], "displayName": def["displayName"], "description": def["description"],
		"cardinality": def["cardinality"], "immutable": def["immutable"] == true,
		"valueType": map[string]any{"urn": vt, "type": "DATA_TYPE", "info": map[string]any{"type": std, "qualifiedName": idOf(vt)}}}
	if d["cardinality"] == nil {
		d["cardinality"] = "SINGLE"
	}
	var ets []any
	for _, t := range anyList(def["entityTypes"]) {
		s, _ := t.(string)
		ets = append(ets, entityTypeEntity(s))
	}
	d["entityTypes"] = nonNilList(ets)
	if avs := anyList(def["allowedValues"]); avs != nil {
		out := []any{}
		for _, av := range avs {
			m, _ := av.(map[string]any)
			out = append(out, map[string]any{"value": propertyValue(m["value"]), "description": m["description"]})
		}
		d["allowedValues"] = out
	}
	if q, ok := def["typeQualifier"].(map[string]any); ok {
		var ts []any
		for _, t := range anyList(q["allowedTypes"]) {
			s, _ := t.(string)
			ts = append(ts, entityTypeEntity(s))
		}
		d["typeQualifier"] = map[string]any{"allowedTypes": nonNilList(ts)}
	}
	if ps := anyList(def["allowedPlatforms"]); ps != nil {
		out := []any{}
		for _, p := range ps {
			s, _ := p.(string)
			out = append(out, map[string]any{"urn": s, "type": "DATA_PLATFORM", "name": idOf(s)})
		}
		d["allowedPlatforms"] = out
	}
	e["definition"] = d
	e["settings"] = aspectObject(ctx, core, u, "structuredPropertySettings")
	return e
}

func anyList(v any) []any {
	l, _ := v.([]any)
	return l
}

func nonNilList(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// structuredProperties is the StructuredProperties answer of a
// structuredProperties value of asset.
func structuredProperties(ctx context.Context, core *gms.Core, asset string, value json.RawMessage) map[string]any {
	var v map[string]any
	_ = json.Unmarshal(value, &v)
	entries := []any{}
	for _, it := range anyList(v["properties"]) {
		a, _ := it.(map[string]any)
		p, _ := a["propertyUrn"].(string)
		values := []any{}
		for _, pv := range anyList(a["values"]) {
			values = append(values, propertyValue(pv))
		}
		entries = append(entries, map[string]any{"structuredProperty": structuredPropertyEntity(ctx, core, p),
			"values": values, "associatedUrn": asset})
	}
	return map[string]any{"properties": entries}
}

// dataProduct is the DataProduct u as its properties hold it.
func dataProduct(ctx context.Context, core *gms.Core, u string) map[string]any {
	e := map[string]any{"urn": u, "type": "DATA_PRODUCT"}
	if p := aspectObject(ctx, core, u, "dataProductProperties"); p != nil {
		e["properties"] = map[string]any{"name": p["name"], "description": p["description"], "externalUrl": p["externalUrl"],
			"numAssets": len(anyList(p["assets"]))}
	}
	return e
}

// propertyValueInput is PropertyValueInput and AllowedValueInput.
type propertyValueInput struct {
	StringValue *string
	NumberValue *float64
	Description *string
}

func (v propertyValueInput) core() gms.PropertyValue {
	return gms.PropertyValue{String: v.StringValue, Number: v.NumberValue}
}

func allowedValuesOf(in []propertyValueInput) []gms.AllowedValue {
	if in == nil {
		return nil
	}
	out := make([]gms.AllowedValue, 0, len(in))
	for _, v := range in {
		out = append(out, gms.AllowedValue{PropertyValue: v.core(), Description: v.Description})
	}
	return out
}

// settingsOf is a StructuredPropertySettingsInput's given members.
func settingsOf(s map[string]any) map[string]any {
	if s == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range s {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

func init() {
	glossary := func(create func(*gms.Core, context.Context, gms.GlossaryInput) (string, error)) FieldFunc {
		return func(c *Ctx, a Args) (any, error) {
			var in struct {
				Input struct {
					ID, Name    string
					Description *string
					ParentNode  *string
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			i := in.Input
			return created(create(c.Core(), c, gms.GlossaryInput{ID: i.ID, Name: i.Name, Description: i.Description, ParentNode: i.ParentNode}))
		}
	}
	mutation("createGlossaryTerm", glossary((*gms.Core).CreateGlossaryTerm))
	mutation("createGlossaryNode", glossary((*gms.Core).CreateGlossaryNode))
	mutation("updateParentNode", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ResourceUrn string
				ParentNode  *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateParentNode(c, in.Input.ResourceUrn, in.Input.ParentNode))
	})
	for name, remove := range map[string]bool{"addRelatedTerms": false, "removeRelatedTerms": true} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			var in struct {
				Input struct {
					URN              string
					TermUrns         []string
					RelationshipType string
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			return done(c.Core().ChangeRelatedTerms(c, gms.RelatedTermsChange{URN: in.Input.URN, Terms: in.Input.TermUrns,
				IsA: in.Input.RelationshipType == "isA", Remove: remove}))
		})
	}
	mutation("deleteGlossaryEntity", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteGlossaryEntity(c, a.String("urn")))
	})

	mutation("createTag", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID, Name    string
				Description *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().CreateTag(c, gms.TagInput{ID: in.Input.ID, Name: in.Input.Name, Description: in.Input.Description}))
	})
	mutation("updateTag", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct {
				Name        string
				Description *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		if err := c.Core().UpdateTag(c, in.URN, in.Input.Name, in.Input.Description); err != nil {
			return nil, fromCore(err)
		}
		props := aspectObject(c, c.Core(), in.URN, "tagProperties")
		return map[string]any{"urn": in.URN, "type": "TAG", "name": props["name"], "description": props["description"],
			"properties": map[string]any{"name": props["name"], "description": props["description"], "colorHex": props["colorHex"]}}, nil
	})
	mutation("setTagColor", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().SetTagColor(c, a.String("urn"), a.String("colorHex")))
	})
	mutation("deleteTag", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteTag(c, a.String("urn")))
	})

	mutation("createStructuredProperty", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID, QualifiedName, DisplayName, Description *string
				Immutable                                   *bool
				ValueType                                   string
				TypeQualifier                               *struct{ AllowedTypes []string }
				AllowedValues                               []propertyValueInput
				Cardinality                                 string
				EntityTypes, AllowedPlatforms               []string
				Settings                                    map[string]any
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		sp := gms.StructuredPropertyInput{ID: i.ID, QualifiedName: i.QualifiedName, DisplayName: i.DisplayName, Description: i.Description,
			Immutable: i.Immutable, ValueType: i.ValueType, AllowedValues: allowedValuesOf(i.AllowedValues), Cardinality: i.Cardinality,
			EntityTypes: i.EntityTypes, AllowedPlatforms: i.AllowedPlatforms, Settings: settingsOf(i.Settings)}
		if i.TypeQualifier != nil {
			sp.AllowedTypes = i.TypeQualifier.AllowedTypes
		}
		u, err := c.Core().CreateStructuredProperty(c, sp)
		if err != nil {
			return nil, fromCore(err)
		}
		return structuredPropertyEntity(c, c.Core(), u), nil
	})
	mutation("updateStructuredProperty", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN                                 string
				DisplayName, Description            *string
				Immutable                           *bool
				TypeQualifier                       *struct{ NewAllowedTypes []string }
				NewAllowedValues                    []propertyValueInput
				SetCardinalityAsMultiple            *bool
				NewEntityTypes, NewAllowedPlatforms []string
				Settings                            map[string]any
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		up := gms.StructuredPropertyUpdate{DisplayName: i.DisplayName, Description: i.Description, Immutable: i.Immutable,
			NewAllowedValues: allowedValuesOf(i.NewAllowedValues), SetCardinalityAsMultiple: i.SetCardinalityAsMultiple != nil && *i.SetCardinalityAsMultiple,
			NewEntityTypes: i.NewEntityTypes, NewAllowedPlatforms: i.NewAllowedPlatforms, Settings: settingsOf(i.Settings)}
		if i.TypeQualifier != nil {
			up.NewAllowedTypes = i.TypeQualifier.NewAllowedTypes
		}
		if err := c.Core().UpdateStructuredProperty(c, i.URN, up); err != nil {
			return nil, fromCore(err)
		}
		return structuredPropertyEntity(c, c.Core(), i.URN), nil
	})
	mutation("deleteStructuredProperty", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ URN string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().DeleteStructuredProperty(c, in.Input.URN))
	})
	mutation("upsertStructuredProperties", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				AssetUrn                      string
				StructuredPropertyInputParams []struct {
					StructuredPropertyUrn string
					Values                []propertyValueInput
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		values := map[string][]gms.PropertyValue{}
		var order []string
		for _, p := range in.Input.StructuredPropertyInputParams {
			vs := make([]gms.PropertyValue, 0, len(p.Values))
			for _, v := range p.Values {
				vs = append(vs, v.core())
			}
			if _, dup := values[p.StructuredPropertyUrn]; !dup {
				order = append(order, p.StructuredPropertyUrn)
			}
			values[p.StructuredPropertyUrn] = vs
		}
		v, err := c.Core().UpsertStructuredProperties(c, in.Input.AssetUrn, values, order)
		if err != nil {
			return nil, fromCore(err)
		}
		return structuredProperties(c, c.Core(), in.Input.AssetUrn, v), nil
	})
	mutation("removeStructuredProperties", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				AssetUrn               string
				StructuredPropertyUrns []string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		v, err := c.Core().RemoveStructuredProperties(c, in.Input.AssetUrn, in.Input.StructuredPropertyUrns)
		if err != nil {
			return nil, fromCore(err)
		}
		return structuredProperties(c, c.Core(), in.Input.AssetUrn, v), nil
	})

	mutation("createDataProduct", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID         string
				DomainUrn  string
				Properties struct {
					Name        string
					Description *string
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		u, err := c.Core().CreateDataProduct(c, gms.DataProductInput{ID: i.ID, Name: i.Properties.Name, Description: i.Properties.Description, DomainURN: i.DomainUrn})
		if err != nil {
			return nil, fromCore(err)
		}
		return dataProduct(c, c.Core(), u), nil
	})
	mutation("updateDataProduct", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct{ Name, Description *string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		if err := c.Core().UpdateDataProduct(c, in.URN, in.Input.Name, in.Input.Description); err != nil {
			return nil, fromCore(err)
		}
		return dataProduct(c, c.Core(), in.URN), nil
	})
	mutation("deleteDataProduct", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteDataProduct(c, a.String("urn")))
	})
	mutation("batchSetDataProduct", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				DataProductUrn *string
				ResourceUrns   []string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().BatchSetDataProduct(c, in.Input.DataProductUrn, in.Input.ResourceUrns))
	})

	mutation("raiseIncident", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Type                           string
				CustomType, Title, Description *string
				ResourceUrn                    *string
				ResourceUrns                   []string
				StartedAt                      *int64
				Priority                       *string
				AssigneeUrns                   []string
				Status                         *struct {
					State          string
					Stage, Message *string
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		inc := gms.IncidentInput{Type: i.Type, CustomType: i.CustomType, Title: i.Title, Description: i.Description,
			ResourceURN: i.ResourceUrn, ResourceURNs: i.ResourceUrns, StartedAt: i.StartedAt, Priority: i.Priority, AssigneeURNs: i.AssigneeUrns}
		if i.Status != nil {
			inc.Status = &gms.IncidentStatus{State: i.Status.State, Stage: i.Status.Stage, Message: i.Status.Message}
		}
		return created(c.Core().RaiseIncident(c, inc))
	})
	mutation("updateIncidentStatus", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct {
				State          string
				Stage, Message *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return done(c.Core().UpdateIncidentStatus(c, in.URN, gms.IncidentStatus{State: in.Input.State, Stage: in.Input.Stage, Message: in.Input.Message}))
	})

	mutation("upsertCustomAssertion", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   *string
			Input struct {
				EntityUrn, Type, Description  string
				FieldPath, ExternalUrl, Logic *string
				Platform                      struct{ URN, Name *string }
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		u, err := c.Core().UpsertCustomAssertion(c, strOr(in.URN), gms.CustomAssertionInput{EntityURN: i.EntityUrn, Type: i.Type,
			Description: i.Description, ExternalURL: i.ExternalUrl, Logic: i.Logic, FieldPath: i.FieldPath,
			PlatformURN: i.Platform.URN, PlatformName: i.Platform.Name})
		if err != nil {
			return nil, fromCore(err)
		}
		p, _ := aspectObject(c, c.Core(), u, "dataPlatformInstance")["platform"].(string)
		return map[string]any{"urn": u, "type": "ASSERTION", "platform": map[string]any{"urn": p, "type": "DATA_PLATFORM", "name": idOf(p)}}, nil
	})
	mutation("reportAssertionResult", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN    string
			Result struct {
				TimestampMillis *int64
				Type            string
				ExternalUrl     *string
				Properties      []struct {
					Key   string
					Value *string
				}
				Error *struct {
					Type, Message string
				}
				Severity *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		r := in.Result
		res := gms.AssertionResult{TimestampMillis: r.TimestampMillis, Type: r.Type, ExternalURL: r.ExternalUrl, Severity: strOr(r.Severity)}
		for _, kv := range r.Properties {
			res.Properties = append(res.Properties, [2]string{kv.Key, strOr(kv.Value)})
		}
		if r.Error != nil {
			res.ErrorType, res.ErrorMessage = r.Error.Type, r.Error.Message
		}
		return done(c.Core().ReportAssertionResult(c, in.URN, res))
	})
	mutation("deleteAssertion", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteAssertion(c, a.String("urn")))
	})
}
