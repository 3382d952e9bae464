package gms

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
)

// DataHub's texts of the lifecycle and logical model mutations
// (SetLifecycleStageResolver, the logical resolvers, SchemaMetadataUtils).
const (
	MsgLogicalNoName        = "Logical model name must not be empty."
	MsgLogicalNoColumns     = "A logical model must have at least one column."
	MsgLogicalDupColumn     = "Duplicate column field path: %s"
	MsgLogicalExists        = "A logical model already exists at %s."
	MsgLogicalNotLogical    = "Cannot create a logical model on platform %s: it is not a logical platform."
	MsgLogicalPlatformLong  = "Platform name '%s' exceeds the maximum length of %d characters."
	MsgLogicalNoSchema      = "Logical model %s has no schema to update."
	MsgLogicalColumnType    = "Unrecognized SchemaFieldDataType provided %s"
	MsgLogicalCreateFailed  = "Failed to create logical model %s"
	MsgLogicalLinkFailed    = "Failed to link physical child %s"
	MsgLogicalUnlinkFailed  = "Failed to unlink physical child %s"
	MsgLogicalUpdateFailed  = "Failed to update logical model schema %s"
	MsgLogicalParentFailed  = "Failed to set Logical Parent on entity %s to %s"
	MsgLifecycleStageFailed = "Failed to set lifecycle stage on entity %s"
)

// logicalPlatform is the platform of a logical model created without one;
// logicalPlatformMaxName is the longest name of a platform one creates.
const (
	logicalPlatform        = "logical"
	logicalPlatformMaxName = 15
)

// columnTypes are the schema types of a logical model's columns, by
// DataHub's SchemaFieldDataType enum value.
var columnTypes = map[string]string{
	"BYTES": "BytesType", "FIXED": "FixedType", "BOOLEAN": "BooleanType", "STRING": "StringType",
	"NUMBER": "NumberType", "DATE": "DateType", "TIME": "TimeType", "ENUM": "EnumType", "NULL": "NullType",
	"ARRAY": "ArrayType", "MAP": "MapType", "STRUCT": "RecordType", "UNION": "UnionType",
}

// Column is DataHub's EditableSchemaFieldInput: a logical model's column.
type Column struct {
	FieldPath string
	// Type is a SchemaFieldDataType enum value (STRING, NUMBER, ...).
	Type string
}

// SetLifecycleStage sets (or, stage "" or blank, clears) the lifecycle
// stage of u's status as DataHub's setLifecycleStage, stamping
// lifecycleLastUpdated; the status's other members are kept.
func (c *Core) SetLifecycleStage(ctx context.Context, u, stage string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	stage = strings.TrimSpace(stage)
	if stage != "" {
		if err := checkURNs(stage); err != nil {
			return errorf(Internal, MsgLifecycleStageFailed, u)
		}
	}
	err := c.Update(ctx, u, "status", editObject(u, "status", func(obj map[string]any) error {
		delete(obj, "lifecycleStage")
		if stage != "" {
			obj["lifecycleStage"] = stage
		}
		obj["lifecycleLastUpdated"] = c.stamp(ctx)
		return nil
	}), UpdateOptions{SystemMetadata: uiSystemMetadata})
	if e := AsError(err); e != nil && e.Kind != Internal {
		return errorf(Internal, MsgLifecycleStageFailed, u)
	}
	return err
}

// logicalParent is the logicalParent aspect naming parent ("": none).
func (c *Core) logicalParent(ctx context.Context, parent string) map[string]any {
	if parent == "" {
		return map[string]any{}
	}
	return map[string]any{"parent": map[string]any{"destinationUrn": parent, "created": c.stamp(ctx), "lastModified": c.stamp(ctx)}}
}

// SetLogicalParent sets (parent "": removes) the logical parent of u as
// DataHub's setLogicalParent.
func (c *Core) SetLogicalParent(ctx context.Context, u, parent string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if parent != "" {
		if err := checkURNs(parent); err != nil {
			return err
		}
	}
	err := c.writeAll(ctx, u, map[string]any{"logicalParent": c.logicalParent(ctx, parent)})
	if e := AsError(err); e != nil && e.Kind != Internal {
		shown := parent
		if shown == "" {
			shown = "null"
		}
		return errorf(e.Kind, MsgLogicalParentFailed, u, shown)
	}
	return err
}

// checkColumns is DataHub's SchemaMetadataUtils.validateColumns.
func checkColumns(cols []Column) error {
	if len(cols) == 0 {
		return errorf(BadArgument, "%s", MsgLogicalNoColumns)
	}
	seen := map[string]bool{}
	for _, col := range cols {
		if seen[col.FieldPath] {
			return errorf(BadArgument, MsgLogicalDupColumn, col.FieldPath)
		}
		seen[col.FieldPath] = true
		if _, ok := columnTypes[col.Type]; !ok {
			return errorf(BadArgument, MsgLogicalColumnType, col.Type)
		}
	}
	return nil
}

// columnField is the schema field of a column.
func columnField(col Column) map[string]any {
	return map[string]any{"fieldPath": col.FieldPath, "nativeDataType": col.Type, "nullable": false, "recursive": false,
		"type": map[string]any{"type": map[string]any{"com.linkedin.schema." + columnTypes[col.Type]: map[string]any{}}}}
}

// logicalSchema is the schemaMetadata of a logical model.
func logicalSchema(name, platform string, cols []Column) map[string]any {
	fields := make([]any, 0, len(cols))
	for _, col := range cols {
		fields = append(fields, columnField(col))
	}
	return map[string]any{"schemaName": name, "platform": platform, "version": 0, "hash": "",
		"platformSchema": map[string]any{"com.linkedin.schema.Schemaless": map[string]any{}}, "fields": fields}
}

// LogicalModel is DataHub's CreateLogicalModelInput.
type LogicalModel struct {
	Name        string
	DisplayName *string
	// Env is the dataset's fabric ("": PROD); Platform its platform URN
	// ("": urn:li:dataPlatform:logical).
	Env, Platform string
	Columns       []Column
}

// CreateLogicalModel creates a logical model (a dataset on a logical
// platform) as DataHub's createLogicalModel and returns its URN: the
// dataset must be new, the platform logical (a platform without
// dataPlatformInfo is created as one); datasetProperties gets the display
// name and schemaMetadata the columns.
func (c *Core) CreateLogicalModel(ctx context.Context, in LogicalModel) (string, error) {
	if strings.TrimSpace(in.Name) == "" {
		return "", errorf(BadArgument, "%s", MsgLogicalNoName)
	}
	if err := checkColumns(in.Columns); err != nil {
		return "", err
	}
	platform := in.Platform
	if platform == "" {
		platform = "urn:li:dataPlatform:" + logicalPlatform
	}
	if err := checkURNs(platform); err != nil || EntityTypeOf(platform) != "dataPlatform" {
		return "", errorf(Internal, MsgLogicalCreateFailed, in.Name)
	}
	env := in.Env
	if env == "" {
		env = "PROD"
	}
	u := fmt.Sprintf("urn:li:dataset:(%s,%s,%s)", platform, in.Name, env)
	if err := checkURNs(u); err != nil {
		return "", errorf(Internal, MsgLogicalCreateFailed, in.Name)
	}
	if err := c.mustNotExist(ctx, u, errorf(BadArgument, MsgLogicalExists, u)); err != nil {
		return "", err
	}
	info, err := c.latestObject(ctx, platform, "dataPlatformInfo")
	if err != nil {
		return "", err
	}
	var ps []Proposal
	if info != nil {
		if info["logical"] != true {
			return "", errorf(BadArgument, MsgLogicalNotLogical, platform)
		}
	} else {
		name := strings.TrimPrefix(platform, "urn:li:dataPlatform:")
		if len(name) > logicalPlatformMaxName {
			return "", errorf(BadArgument, MsgLogicalPlatformLong, name, logicalPlatformMaxName)
		}
		v, _ := json.Marshal(map[string]any{"name": name, "displayName": name, "type": "OTHERS", "datasetNameDelimiter": ".", "logical": true})
		ps = append(ps, Proposal{EntityType: "dataPlatform", EntityURN: platform, ChangeType: "UPSERT", AspectName: "dataPlatformInfo",
			Aspect: v, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
	}
	display := in.Name
	if in.DisplayName != nil {
		display = *in.DisplayName
	}
	props, _ := json.Marshal(map[string]any{"name": display, "customProperties": map[string]any{}, "tags": []any{}})
	schema, _ := json.Marshal(logicalSchema(in.Name, platform, in.Columns))
	ps = append(ps,
		Proposal{EntityType: "dataset", EntityURN: u, ChangeType: "UPSERT", AspectName: "datasetProperties",
			Aspect: props, ContentType: "application/json", SystemMetadata: uiSystemMetadata},
		Proposal{EntityType: "dataset", EntityURN: u, ChangeType: "UPSERT", AspectName: "schemaMetadata",
			Aspect: schema, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
	if err := c.Ingest(ctx, ps, IngestOptions{}); err != nil {
		if e := AsError(err); e != nil && e.Kind != Internal {
			return "", errorf(Internal, MsgLogicalCreateFailed, in.Name)
		}
		return "", err
	}
	return u, nil
}

// fieldURN is the schemaField URN of field fp of dataset u.
func fieldURN(u, fp string) string { return "urn:li:schemaField:(" + u + "," + fp + ")" }

// ColumnMapping maps a logical parent's column to a physical child's.
type ColumnMapping struct{ ParentFieldPath, ChildFieldPath string }

// LinkPhysicalChild makes child a physical instance of the logical model
// parent as DataHub's linkPhysicalChild: child's logicalParent names
// parent, and each mapped child field's names the parent's field.
func (c *Core) LinkPhysicalChild(ctx context.Context, parent, child string, mappings []ColumnMapping) error {
	if err := checkURNs(parent, child); err != nil {
		return err
	}
	aspects := map[string]map[string]any{child: c.logicalParent(ctx, parent)}
	for _, m := range mappings {
		aspects[fieldURN(child, m.ChildFieldPath)] = c.logicalParent(ctx, fieldURN(parent, m.ParentFieldPath))
	}
	if err := c.writeLogicalParents(ctx, aspects); err != nil {
		return wrapLogical(err, MsgLogicalLinkFailed, child)
	}
	return nil
}

// UnlinkPhysicalChild removes the logical parent of child and of each
// field of its schema, as DataHub's unlinkPhysicalChild.
func (c *Core) UnlinkPhysicalChild(ctx context.Context, child string) error {
	if err := checkURNs(child); err != nil {
		return err
	}
	paths, err := c.fieldPaths(ctx, child)
	if err != nil {
		return err
	}
	aspects := map[string]map[string]any{child: {}}
	for _, fp := range paths {
		aspects[fieldURN(child, fp)] = map[string]any{}
	}
	if err := c.writeLogicalParents(ctx, aspects); err != nil {
		return wrapLogical(err, MsgLogicalUnlinkFailed, child)
	}
	return nil
}

// wrapLogical is a refusal of a write of the logical resolvers: DataHub's
// RuntimeException with its text (a failure of the mock stays one).
func wrapLogical(err error, format, u string) error {
	if e := AsError(err); e != nil && e.Kind != Internal {
		return errorf(Internal, format, u)
	}
	return err
}

// writeLogicalParents writes the logicalParent aspects by URN in one batch.
func (c *Core) writeLogicalParents(ctx context.Context, aspects map[string]map[string]any) error {
	ps := make([]Proposal, 0, len(aspects))
	for _, u := range slices.Sorted(maps.Keys(aspects)) {
		v, _ := json.Marshal(aspects[u])
		ps = append(ps, Proposal{EntityType: EntityTypeOf(u), EntityURN: u, ChangeType: "UPSERT", AspectName: "logicalParent",
			Aspect: v, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
	}
	return c.Ingest(ctx, ps, IngestOptions{})
}

// schemaFields are the fields of u's schemaMetadata (nil when it has none).
func (c *Core) schemaFields(ctx context.Context, u string) (map[string]any, []map[string]any, error) {
	schema, err := c.latestObject(ctx, u, "schemaMetadata")
	if err != nil || schema == nil {
		return nil, nil, err
	}
	var fields []map[string]any
	for _, f := range list(schema, "fields") {
		if m, ok := f.(map[string]any); ok {
			fields = append(fields, m)
		}
	}
	return schema, fields, nil
}

// fieldPaths are the field paths of u's schemaMetadata.
func (c *Core) fieldPaths(ctx context.Context, u string) ([]string, error) {
	_, fields, err := c.schemaFields(ctx, u)
	var out []string
	for _, f := range fields {
		out = append(out, strMember(f, "fieldPath"))
	}
	return out, err
}

// UpdateLogicalModelSchema replaces a logical model's columns as DataHub's
// updateLogicalModelSchema: the model must have a schema; a column removed
// or retyped is a breaking change, which first unlinks the child fields
// mapped to it (and a child whose every mapped field is unlinked), all in
// one batch with the new schema.
func (c *Core) UpdateLogicalModelSchema(ctx context.Context, u string, cols []Column) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	if err := checkColumns(cols); err != nil {
		return err
	}
	schema, fields, err := c.schemaFields(ctx, u)
	if err != nil {
		return err
	}
	if schema == nil {
		return errorf(BadArgument, MsgLogicalNoSchema, u)
	}
	updated := logicalSchema(strMember(schema, "schemaName"), strMember(schema, "platform"), cols)
	newTypes := map[string]any{}
	for _, f := range updated["fields"].([]any) {
		m := f.(map[string]any)
		if _, dup := newTypes[m["fieldPath"].(string)]; !dup {
			newTypes[m["fieldPath"].(string)] = normalize(m["type"])
		}
	}
	affected := map[string]bool{}
	for _, f := range fields {
		t, ok := newTypes[strMember(f, "fieldPath")]
		if !ok || !reflect.DeepEqual(t, normalize(f["type"])) {
			affected[strMember(f, "fieldPath")] = true
		}
	}
	parents := map[string]map[string]any{}
	if len(affected) > 0 {
		children, err := c.edges(ctx, u, []string{"PhysicalInstanceOf"}, true)
		if err != nil {
			return err
		}
		for _, e := range children {
			if EntityTypeOf(e.Source) != "dataset" {
				continue
			}
			mapped, toClear, err := c.childMappings(ctx, u, e.Source, affected)
			if err != nil {
				return err
			}
			if len(toClear) == mapped {
				parents[e.Source] = map[string]any{}
			}
			for _, fp := range toClear {
				parents[fieldURN(e.Source, fp)] = map[string]any{}
			}
		}
	}
	ps := make([]Proposal, 0, len(parents)+1)
	for _, p := range slices.Sorted(maps.Keys(parents)) {
		v, _ := json.Marshal(parents[p])
		ps = append(ps, Proposal{EntityType: EntityTypeOf(p), EntityURN: p, ChangeType: "UPSERT", AspectName: "logicalParent",
			Aspect: v, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
	}
	v, _ := json.Marshal(updated)
	ps = append(ps, Proposal{EntityType: EntityTypeOf(u), EntityURN: u, ChangeType: "UPSERT", AspectName: "schemaMetadata",
		Aspect: v, ContentType: "application/json", SystemMetadata: uiSystemMetadata})
	if err := c.Ingest(ctx, ps, IngestOptions{}); err != nil {
		return wrapLogical(err, MsgLogicalUpdateFailed, u)
	}
	return nil
}

// childMappings reads which fields of child are mapped to fields of the
// logical model parent: mapped is how many, toClear those mapped to an
// affected parent field.
func (c *Core) childMappings(ctx context.Context, parent, child string, affected map[string]bool) (mapped int, toClear []string, err error) {
	paths, err := c.fieldPaths(ctx, child)
	if err != nil {
		return 0, nil, err
	}
	prefix := "urn:li:schemaField:(" + parent + ","
	for _, fp := range paths {
		lp, err := c.latestObject(ctx, fieldURN(child, fp), "logicalParent")
		if err != nil {
			return 0, nil, err
		}
		edge, _ := lp["parent"].(map[string]any)
		dest := strMember(edge, "destinationUrn")
		if !strings.HasPrefix(dest, prefix) || !strings.HasSuffix(dest, ")") {
			continue
		}
		mapped++
		if affected[strings.TrimSuffix(strings.TrimPrefix(dest, prefix), ")")] {
			toClear = append(toClear, fp)
		}
	}
	return mapped, toClear, nil
}

// normalize is v through JSON (so that values read and built compare).
func normalize(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}
