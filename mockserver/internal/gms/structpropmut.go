package gms

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"slices"
)

// DataHub's texts of the structured property mutations
// (CreateStructuredPropertyResolver, StructuredPropertyUtils,
// UpsertStructuredPropertiesResolver, RemoveStructuredPropertiesResolver);
// the mock's for a missing definition.
const (
	MsgPropExists      = "A structured property already exists with this urn"
	MsgPropIDMismatch  = "Qualified name and the ID of a structured property must match"
	MsgPropAssetAbsent = "Asset with provided urn %s does not exist"
	MsgPropUndefined   = "Structured property %s does not exist (datahub-mock)"
)

// PropertyValue is DataHub's PropertyValueInput: a string or a number.
type PropertyValue struct {
	String *string
	Number *float64
}

func (v PropertyValue) primitive() propValue { return propValue{Str: v.String, Double: v.Number} }

// AllowedValue is DataHub's AllowedValueInput.
type AllowedValue struct {
	PropertyValue
	Description *string
}

// StructuredPropertyInput is DataHub's CreateStructuredPropertyInput.
type StructuredPropertyInput struct {
	ID, QualifiedName        *string
	DisplayName, Description *string
	Immutable                *bool
	ValueType                string
	AllowedTypes             []string
	AllowedValues            []AllowedValue
	Cardinality              string
	EntityTypes              []string
	AllowedPlatforms         []string
	// Settings is the structuredPropertySettings aspect to write with it
	// (its members as DataHub's input names them; nil: none).
	Settings map[string]any
}

// allowedValues is the definition's allowedValues.
func allowedValues(in []AllowedValue) []any {
	out := make([]any, 0, len(in))
	for _, a := range in {
		v := map[string]any{"value": a.primitive()}
		if a.Description != nil {
			v["description"] = *a.Description
		}
		out = append(out, v)
	}
	return out
}

// CreateStructuredProperty creates a structured property definition as
// DataHub's createStructuredProperty and returns its URN: its id is the
// qualified name, else the id, else a random UUID (the two must match when
// both are given); the property must be new. The propertyDefinition gets
// the qualified name (the id), the value type, entity types and the other
// members given, created and lastModified stamps; settings are written
// with it.
func (c *Core) CreateStructuredProperty(ctx context.Context, in StructuredPropertyInput) (string, error) {
	if in.ID != nil && in.QualifiedName != nil && *in.ID != *in.QualifiedName {
		return "", errorf(BadArgument, "%s", MsgPropIDMismatch)
	}
	id := randomUUID()
	switch {
	case in.QualifiedName != nil:
		id = *in.QualifiedName
	case in.ID != nil:
		id = *in.ID
	}
	u := "urn:li:structuredProperty:" + id
	if err := checkURNs(append([]string{u, in.ValueType}, slices.Concat(in.EntityTypes, in.AllowedPlatforms)...)...); err != nil {
		return "", err
	}
	exists := errorf(BadArgument, "%s", MsgPropExists)
	if err := c.mustNotExist(ctx, u, exists); err != nil {
		return "", err
	}
	stamp := c.stamp(ctx)
	def := map[string]any{"qualifiedName": id, "valueType": in.ValueType, "entityTypes": nonNil(in.EntityTypes),
		"created": stamp, "lastModified": stamp}
	if in.DisplayName != nil {
		def["displayName"] = *in.DisplayName
	}
	if in.Description != nil {
		def["description"] = *in.Description
	}
	if in.Immutable != nil {
		def["immutable"] = *in.Immutable
	}
	if in.AllowedTypes != nil {
		def["typeQualifier"] = map[string]any{"allowedTypes": in.AllowedTypes}
	}
	if in.AllowedValues != nil {
		def["allowedValues"] = allowedValues(in.AllowedValues)
	}
	if in.Cardinality != "" {
		def["cardinality"] = in.Cardinality
	}
	if in.AllowedPlatforms != nil {
		def["allowedPlatforms"] = in.AllowedPlatforms
	}
	aspects := map[string]any{aspectPropertyDefinition: def}
	if in.Settings != nil {
		settings := map[string]any{"lastModified": stamp}
		for k, v := range in.Settings {
			settings[k] = v
		}
		if v, ok := settings["showInAssetSummary"].(bool); ok && !v {
			settings["hideInAssetSummaryWhenEmpty"] = false
		}
		aspects["structuredPropertySettings"] = settings
	}
	if err := c.create(ctx, u, aspects, exists); err != nil {
		return "", err
	}
	return u, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// StructuredPropertyUpdate is DataHub's UpdateStructuredPropertyInput.
type StructuredPropertyUpdate struct {
	DisplayName, Description *string
	Immutable                *bool
	NewAllowedTypes          []string
	NewAllowedValues         []AllowedValue
	SetCardinalityAsMultiple bool
	NewEntityTypes           []string
	NewAllowedPlatforms      []string
	// Settings are settings members to change (nil: none).
	Settings map[string]any
}

// UpdateStructuredProperty changes a structured property's definition as
// DataHub's updateStructuredProperty: the members given are set, the lists
// given are appended to (each value once), the cardinality can only widen
// to MULTIPLE; lastModified is stamped when anything changed; settings are
// merged.
func (c *Core) UpdateStructuredProperty(ctx context.Context, u string, up StructuredPropertyUpdate) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	missing := func(u string) *Error { return errorf(BadArgument, MsgPropUndefined, u) }
	if err := c.mustExist(ctx, u, missing(u)); err != nil {
		return err
	}
	stamp := c.stamp(ctx)
	err := c.Update(ctx, u, aspectPropertyDefinition, func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, missing(u)
		}
		return editObject(u, aspectPropertyDefinition, func(def map[string]any) error {
			changed := false
			set := func(k string, v any) { def[k], changed = v, true }
			if up.DisplayName != nil {
				set("displayName", *up.DisplayName)
			}
			if up.Description != nil {
				set("description", *up.Description)
			}
			if up.Immutable != nil {
				set("immutable", *up.Immutable)
			}
			if up.NewAllowedTypes != nil {
				q := object(def, "typeQualifier")
				q["allowedTypes"] = appendNew(list(q, "allowedTypes"), up.NewAllowedTypes)
				changed = true
			}
			if up.NewAllowedValues != nil {
				set("allowedValues", append(list(def, "allowedValues"), allowedValues(up.NewAllowedValues)...))
			}
			if up.SetCardinalityAsMultiple {
				set("cardinality", "MULTIPLE")
			}
			if up.NewEntityTypes != nil {
				set("entityTypes", appendNew(list(def, "entityTypes"), up.NewEntityTypes))
			}
			if up.NewAllowedPlatforms != nil {
				set("allowedPlatforms", appendNew(list(def, "allowedPlatforms"), up.NewAllowedPlatforms))
			}
			if changed {
				def["lastModified"] = stamp
			}
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missing})
	if err != nil || up.Settings == nil {
		return err
	}
	return c.edit(ctx, u, "structuredPropertySettings", missing, func(obj map[string]any) error {
		for k, v := range up.Settings {
			obj[k] = v
		}
		if v, ok := up.Settings["showInAssetSummary"].(bool); ok && !v {
			obj["hideInAssetSummaryWhenEmpty"] = false
		}
		obj["lastModified"] = stamp
		return nil
	})
}

// appendNew appends the strings of add not in list.
func appendNew(list []any, add []string) []any {
	for _, s := range add {
		if !slices.Contains(list, any(s)) {
			list = append(list, s)
		}
	}
	if list == nil {
		list = []any{}
	}
	return list
}

// DeleteStructuredProperty hard-deletes a structured property as DataHub's
// deleteStructuredProperty. DataHub then removes its values from the
// entities that have them, asynchronously; the mock leaves them.
func (c *Core) DeleteStructuredProperty(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	_, err := c.DeleteEntity(ctx, u, "")
	return err
}

// UpsertStructuredProperties sets structured property values of an asset
// as DataHub's upsertStructuredProperties and returns the asset's
// structuredProperties value after the write: the asset must exist (a
// schema field need not); an assignment present gets the new values and a
// lastModified stamp (its attribution dropped), a new one is appended with
// created and lastModified stamps. The result is checked as every write of
// the aspect is (value type, cardinality, allowed values, platforms,
// immutability; Invalid with DataHub's texts), inside the same
// read-modify-write.
func (c *Core) UpsertStructuredProperties(ctx context.Context, asset string, values map[string][]PropertyValue, order []string) (json.RawMessage, error) {
	if err := checkURNs(asset); err != nil {
		return nil, err
	}
	if err := checkURNs(order...); err != nil {
		return nil, err
	}
	if EntityTypeOf(asset) != "schemaField" {
		if err := c.mustExist(ctx, asset, errorf(Internal, MsgPropAssetAbsent, asset)); err != nil {
			return nil, err
		}
	}
	stamp := c.stamp(ctx)
	prims := func(vs []PropertyValue) []any {
		out := make([]any, 0, len(vs))
		for _, v := range vs {
			out = append(out, v.primitive())
		}
		return out
	}
	return c.updateProperties(ctx, asset, UpdateOptions{SystemMetadata: uiSystemMetadata}, func(obj map[string]any) {
		props := list(obj, "properties")
		done := map[string]bool{}
		for _, it := range props {
			a, _ := it.(map[string]any)
			p := strMember(a, "propertyUrn")
			if vs, ok := values[p]; ok {
				a["values"], a["lastModified"] = prims(vs), stamp
				delete(a, "attribution")
				done[p] = true
			}
		}
		for _, p := range order {
			if !done[p] {
				done[p] = true
				props = append(props, map[string]any{"propertyUrn": p, "values": prims(values[p]),
					"created": stamp, "lastModified": stamp})
			}
		}
		if props == nil {
			props = []any{}
		}
		obj["properties"] = props
	})
}

// RemoveStructuredProperties removes structured property values from an
// asset as DataHub's removeStructuredProperties (the asset must exist;
// removing an immutable property's value is refused) and returns the
// asset's structuredProperties value after the write.
func (c *Core) RemoveStructuredProperties(ctx context.Context, asset string, props []string) (json.RawMessage, error) {
	if err := checkURNs(asset); err != nil {
		return nil, err
	}
	if err := checkURNs(props...); err != nil {
		return nil, err
	}
	if err := c.mustExist(ctx, asset, errorf(Internal, MsgPropAssetAbsent, asset)); err != nil {
		return nil, err
	}
	o := UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: func(u string) *Error { return errorf(Internal, MsgPropAssetAbsent, u) }}
	return c.updateProperties(ctx, asset, o, func(obj map[string]any) {
		kept := []any{}
		for _, it := range list(obj, "properties") {
			a, _ := it.(map[string]any)
			if !slices.Contains(props, strMember(a, "propertyUrn")) {
				kept = append(kept, it)
			}
		}
		obj["properties"] = kept
	})
}

// errStaleFacts is the refusal of an update whose current value names a
// property whose definition was not read before the write: it is read
// again and the update retried.
var errStaleFacts = errors.New("structured property definitions changed")

// updateProperties is a read-modify-write of asset's structuredProperties
// by change, its result checked as every write of the aspect is (the
// values against their definitions, immutable properties against the
// current value; Invalid with DataHub's texts). The definitions are read
// before the write, outside the store's lock; when the value found under
// the lock names a property not read, they are read again and the write
// retried, so that no concurrent change is lost or unchecked. It returns
// the value written.
func (c *Core) updateProperties(ctx context.Context, asset string, o UpdateOptions, change func(obj map[string]any)) (json.RawMessage, error) {
	for {
		var prev json.RawMessage
		if a, err := c.GetAspect(ctx, asset, aspectStructuredProperties, 0); err == nil {
			prev = a.Value
		} else if e := AsError(err); e.Kind != NotFound {
			return nil, err
		}
		next, _ := editObject(asset, aspectStructuredProperties, func(obj map[string]any) error {
			change(obj)
			return nil
		})(prev)
		f := c.propFactsOf(asset, prev, next)
		var written json.RawMessage
		err := c.Update(ctx, asset, aspectStructuredProperties, func(cur json.RawMessage) (json.RawMessage, error) {
			next, err := editObject(asset, aspectStructuredProperties, func(obj map[string]any) error {
				change(obj)
				return nil
			})(cur)
			if err != nil {
				return nil, err
			}
			if !f.has(cur, next) {
				return nil, errStaleFacts
			}
			if msgs := append(checkAssignments(asset, next, f), immutableChanges(cur, next, f)...); len(msgs) > 0 {
				return nil, errorf(Invalid, MsgPropInvalid, asset, JoinMessages(msgs, ", "))
			}
			written = next
			return next, nil
		}, o)
		if errors.Is(err, errStaleFacts) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		// Answer the value as stored: the store keeps it after GMS's
		// serialisation hooks (doubles as Java writes them).
		if info, ok := pdl.LookupAspect(aspectStructuredProperties); ok {
			written, _ = mutate(info, written)
		}
		return written, nil
	}
}
