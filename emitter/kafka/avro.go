package kafka

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/linkedin/goavro/v2"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
)

// MCPSchema is the Avro schema of DataHub's MetadataChangeProposal record
// (com.linkedin.pegasus2avro.mxe.MetadataChangeProposal), derived from
// DataHub's MetadataChangeProposal.pdl and SystemMetadata.pdl by DataHub's
// Pegasus-to-Avro rules: namespaces under com.linkedin.pegasus2avro, an
// optional field as the union ["null", T] with default null, or [T, "null"]
// with its PDL default, GenericAspect.value as bytes. It is newer than the
// schema of DataHub's Java client (MetadataChangeProposal.avsc): it has the
// headers map, the CREATE_ENTITY change type and SystemMetadata's version,
// schemaVersion, aspectCreated and aspectModified.
//
//go:embed MetadataChangeProposal.avsc
var MCPSchema string

// Union branch names of the schema.
const (
	avroGenericAspect  = "com.linkedin.pegasus2avro.mxe.GenericAspect"
	avroSystemMetadata = "com.linkedin.pegasus2avro.mxe.SystemMetadata"
	avroAuditStamp     = "com.linkedin.pegasus2avro.common.AuditStamp"
)

// magic is the first byte of a message in Confluent's wire format.
const magic = 0

// frame returns the Confluent wire format of an Avro value: the magic byte
// 0, the schema id as 4 bytes big-endian, then the Avro binary encoding.
func frame(codec *goavro.Codec, id int, native map[string]any) ([]byte, error) {
	buf := make([]byte, 5, 512)
	buf[0] = magic
	binary.BigEndian.PutUint32(buf[1:], uint32(id))
	return codec.BinaryFromNative(buf, native)
}

// unframe splits a message in Confluent's wire format into its schema id
// and Avro payload.
func unframe(b []byte) (id int, payload []byte, err error) {
	if len(b) < 5 || b[0] != magic {
		return 0, nil, errors.New("kafka: message is not in Confluent's wire format (magic byte 0 and a 4-byte schema id)")
	}
	return int(binary.BigEndian.Uint32(b[1:5])), b[5:], nil
}

// mcpCanonical is the canonical form of MCPSchema, whose messages
// appendMCP encodes without goavro.
var mcpCanonical = sync.OnceValue(func() string {
	codec, err := goavro.NewCodec(MCPSchema)
	if err != nil { // the embedded schema is tested
		return ""
	}
	return codec.CanonicalSchema()
})

// changeTypeSymbols are the symbols of MCPSchema's ChangeType enum, in order.
var changeTypeSymbols = []string{string(emitter.Upsert), string(emitter.Create), string(emitter.Update), string(emitter.Delete),
	string(emitter.Patch), string(emitter.Restate), string(emitter.CreateEntity)}

// encode returns the Confluent wire format of w for the schema codec
// registered under id: MCPSchema is encoded by appendMCP, deterministically
// (map entries in key order); any other version of the record by goavro.
func encode(codec *goavro.Codec, id int, w *mcpwire.Proposal) ([]byte, error) {
	if codec.CanonicalSchema() != mcpCanonical() {
		return frame(codec, id, nativeProposal(w))
	}
	buf := make([]byte, 5, 512)
	buf[0] = magic
	binary.BigEndian.PutUint32(buf[1:], uint32(id))
	return appendMCP(buf, w)
}

// appendMCP appends the Avro binary encoding of w by MCPSchema: fields in
// the schema's order, a union as its branch index then the value, map
// entries in key order.
func appendMCP(dst []byte, w *mcpwire.Proposal) ([]byte, error) {
	ct := slices.Index(changeTypeSymbols, w.ChangeType)
	if ct < 0 {
		return dst, fmt.Errorf("kafka: change type %q is not in the schema: %w", w.ChangeType, datahub.ErrValidation)
	}
	dst = append(dst, 0) // auditHeader: null
	dst = appendString(dst, w.EntityType)
	dst = appendOptString(dst, w.EntityURN)
	dst = appendOptAspect(dst, w.EntityKeyAspect)
	dst = binary.AppendVarint(dst, int64(ct))
	dst = appendOptString(dst, w.AspectName)
	dst = appendOptAspect(dst, w.Aspect)
	sm := &w.SystemMetadata
	dst = binary.AppendVarint(dst, 1) // systemMetadata: the record
	if sm.LastObserved != 0 {         // ["long", "null"]
		dst = binary.AppendVarint(binary.AppendVarint(dst, 0), sm.LastObserved)
	} else {
		dst = binary.AppendVarint(dst, 1)
	}
	for _, s := range []*string{sm.RunID, sm.LastRunID} { // ["string", "null"]
		if s != nil && *s != "" {
			dst = appendString(binary.AppendVarint(dst, 0), *s)
		} else {
			dst = binary.AppendVarint(dst, 1)
		}
	}
	dst = appendOptString(dst, deref(sm.PipelineName))
	dst = appendOptString(dst, deref(sm.RegistryName))
	dst = appendOptString(dst, deref(sm.RegistryVersion))
	dst = appendOptMap(dst, sm.Properties)
	dst = appendOptString(dst, deref(sm.Version))
	if sm.SchemaVersion != nil { // ["null", "long"]
		dst = binary.AppendVarint(binary.AppendVarint(dst, 1), *sm.SchemaVersion)
	} else {
		dst = append(dst, 0)
	}
	dst = appendOptStamp(dst, sm.AspectCreated)
	dst = appendOptStamp(dst, sm.AspectModified)
	return appendOptMap(dst, w.Headers), nil
}

// appendOptStamp appends the union ["null", AuditStamp]: the record's
// time, actor, and optional impersonator and message.
func appendOptStamp(dst []byte, a *aspects.AuditStamp) []byte {
	if a == nil {
		return append(dst, 0)
	}
	dst = binary.AppendVarint(binary.AppendVarint(dst, 1), a.Time)
	dst = appendString(dst, a.Actor)
	dst = appendOptString(dst, deref(a.Impersonator))
	return appendOptString(dst, deref(a.Message))
}

// deref returns *s, "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// appendString appends an Avro string (or bytes): its length, then it.
func appendString[T string | []byte](dst []byte, s T) []byte {
	return append(binary.AppendVarint(dst, int64(len(s))), s...)
}

// appendOptString appends the union ["null", "string"], null for "".
func appendOptString(dst []byte, s string) []byte {
	if s == "" {
		return append(dst, 0)
	}
	return appendString(binary.AppendVarint(dst, 1), s)
}

// appendOptAspect appends the union ["null", GenericAspect].
func appendOptAspect(dst []byte, a *mcpwire.Aspect) []byte {
	if a == nil {
		return append(dst, 0)
	}
	return appendString(appendString(binary.AppendVarint(dst, 1), a.Value), a.ContentType)
}

// appendOptMap appends the union ["null", map<string>], null for an empty
// map: one block with the entries in key order, then the end block.
func appendOptMap(dst []byte, m map[string]string) []byte {
	if len(m) == 0 {
		return append(dst, 0)
	}
	dst = binary.AppendVarint(binary.AppendVarint(dst, 1), int64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		dst = appendString(appendString(dst, k), m[k])
	}
	return append(dst, 0)
}

// nativeProposal returns w in goavro's native form for MCPSchema.
func nativeProposal(w *mcpwire.Proposal) map[string]any {
	str := func(p *string) any {
		if p == nil || *p == "" {
			return nil
		}
		return goavro.Union("string", *p)
	}
	stamp := func(a *aspects.AuditStamp) any {
		if a == nil {
			return nil
		}
		return goavro.Union(avroAuditStamp, map[string]any{"time": a.Time, "actor": a.Actor,
			"impersonator": str(a.Impersonator), "message": str(a.Message)})
	}
	aspect := func(a *mcpwire.Aspect) any {
		if a == nil {
			return nil
		}
		return goavro.Union(avroGenericAspect, map[string]any{"value": a.Value, "contentType": a.ContentType})
	}
	strMap := func(m map[string]string) any {
		if len(m) == 0 {
			return nil
		}
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k] = v
		}
		return goavro.Union("map", out)
	}
	sm := &w.SystemMetadata
	lastObserved := any(nil)
	if sm.LastObserved != 0 {
		lastObserved = goavro.Union("long", sm.LastObserved)
	}
	schemaVersion := any(nil)
	if sm.SchemaVersion != nil {
		schemaVersion = goavro.Union("long", *sm.SchemaVersion)
	}
	return map[string]any{
		"auditHeader":     nil,
		"entityType":      w.EntityType,
		"entityUrn":       str(&w.EntityURN),
		"entityKeyAspect": aspect(w.EntityKeyAspect),
		"changeType":      string(w.ChangeType),
		"aspectName":      str(&w.AspectName),
		"aspect":          aspect(w.Aspect),
		"systemMetadata": goavro.Union(avroSystemMetadata, map[string]any{
			"lastObserved":    lastObserved,
			"runId":           str(sm.RunID),
			"lastRunId":       str(sm.LastRunID),
			"pipelineName":    str(sm.PipelineName),
			"registryName":    str(sm.RegistryName),
			"registryVersion": str(sm.RegistryVersion),
			"properties":      strMap(sm.Properties),
			"version":         str(sm.Version),
			"schemaVersion":   schemaVersion,
			"aspectCreated":   stamp(sm.AspectCreated),
			"aspectModified":  stamp(sm.AspectModified),
		}),
		"headers": strMap(w.Headers),
	}
}

// wireProposal turns a decoded MetadataChangeProposal (goavro's native
// form, of MCPSchema or an older or newer version of it) back into a
// wire proposal (package mcpwire). Fields it does not model are dropped.
func wireProposal(native any) (mcpwire.Proposal, error) {
	rec, ok := native.(map[string]any)
	if !ok {
		return mcpwire.Proposal{}, fmt.Errorf("kafka: decoded proposal is %T, not a record: %w", native, datahub.ErrValidation)
	}
	var w mcpwire.Proposal
	w.EntityType, _ = rec["entityType"].(string)
	w.EntityURN = unionString(rec["entityUrn"])
	w.ChangeType, _ = rec["changeType"].(string)
	w.AspectName = unionString(rec["aspectName"])
	w.EntityKeyAspect = unionAspect(rec["entityKeyAspect"])
	w.Aspect = unionAspect(rec["aspect"])
	w.Headers = unionMap(rec["headers"])
	if sm, ok := unionValue(rec["systemMetadata"]).(map[string]any); ok {
		if n, ok := unionValue(sm["lastObserved"]).(int64); ok {
			w.SystemMetadata.LastObserved = n
		}
		w.SystemMetadata.RunID = unionOptString(sm["runId"])
		w.SystemMetadata.LastRunID = unionOptString(sm["lastRunId"])
		w.SystemMetadata.PipelineName = unionOptString(sm["pipelineName"])
		w.SystemMetadata.RegistryName = unionOptString(sm["registryName"])
		w.SystemMetadata.RegistryVersion = unionOptString(sm["registryVersion"])
		w.SystemMetadata.Properties = unionMap(sm["properties"])
		w.SystemMetadata.Version = unionOptString(sm["version"])
		if n, ok := unionValue(sm["schemaVersion"]).(int64); ok {
			w.SystemMetadata.SchemaVersion = &n
		}
		w.SystemMetadata.AspectCreated = unionStamp(sm["aspectCreated"])
		w.SystemMetadata.AspectModified = unionStamp(sm["aspectModified"])
	}
	if w.EntityType == "" || w.ChangeType == "" {
		return mcpwire.Proposal{}, fmt.Errorf("kafka: decoded proposal without entityType or changeType: %w", datahub.ErrValidation)
	}
	return w, nil
}

// unionValue returns the value of a decoded union (goavro decodes a
// non-null branch as a one-entry map from the branch name), or v itself.
func unionValue(v any) any {
	if m, ok := v.(map[string]any); ok && len(m) == 1 {
		for _, x := range m {
			return x
		}
	}
	return v
}

func unionString(v any) string {
	s, _ := unionValue(v).(string)
	return s
}

// unionOptString returns a decoded ["null", "string"] union, nil for null.
func unionOptString(v any) *string {
	s, ok := unionValue(v).(string)
	if !ok {
		return nil
	}
	return &s
}

// unionStamp returns a decoded ["null", AuditStamp] union, nil for null.
func unionStamp(v any) *aspects.AuditStamp {
	m, ok := unionValue(v).(map[string]any)
	if !ok {
		return nil
	}
	a := &aspects.AuditStamp{Impersonator: unionOptString(m["impersonator"]), Message: unionOptString(m["message"])}
	a.Time, _ = m["time"].(int64)
	a.Actor, _ = m["actor"].(string)
	return a
}

func unionMap(v any) map[string]string {
	m, ok := unionValue(v).(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, x := range maps.All(m) {
		out[k], _ = x.(string)
	}
	return out
}

func unionAspect(v any) *mcpwire.Aspect {
	m, ok := unionValue(v).(map[string]any)
	if !ok {
		return nil
	}
	value, _ := m["value"].([]byte)
	ct, _ := m["contentType"].(string)
	return &mcpwire.Aspect{Value: value, ContentType: ct}
}
