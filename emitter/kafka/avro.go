package kafka

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"

	"github.com/linkedin/goavro/v2"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/emitter"
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

// nativeProposal returns w in goavro's native form for MCPSchema.
func nativeProposal(w *emitter.WireProposal) map[string]any {
	str := func(s string) any {
		if s == "" {
			return nil
		}
		return goavro.Union("string", s)
	}
	aspect := func(a *emitter.WireAspect) any {
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
	return map[string]any{
		"auditHeader":     nil,
		"entityType":      w.EntityType,
		"entityUrn":       str(w.EntityURN),
		"entityKeyAspect": aspect(w.EntityKeyAspect),
		"changeType":      string(w.ChangeType),
		"aspectName":      str(w.AspectName),
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
			"schemaVersion":   nil,
			"aspectCreated":   nil,
			"aspectModified":  nil,
		}),
		"headers": strMap(w.Headers),
	}
}

// wireProposal turns a decoded MetadataChangeProposal (goavro's native
// form, of MCPSchema or an older or newer version of it) back into a
// WireProposal. Fields the WireProposal does not model are dropped.
func wireProposal(native any) (emitter.WireProposal, error) {
	rec, ok := native.(map[string]any)
	if !ok {
		return emitter.WireProposal{}, fmt.Errorf("kafka: decoded proposal is %T, not a record: %w", native, datahub.ErrValidation)
	}
	var w emitter.WireProposal
	w.EntityType, _ = rec["entityType"].(string)
	w.EntityURN = unionString(rec["entityUrn"])
	ct, _ := rec["changeType"].(string)
	w.ChangeType = emitter.ChangeType(ct)
	w.AspectName = unionString(rec["aspectName"])
	w.EntityKeyAspect = unionAspect(rec["entityKeyAspect"])
	w.Aspect = unionAspect(rec["aspect"])
	w.Headers = unionMap(rec["headers"])
	if sm, ok := unionValue(rec["systemMetadata"]).(map[string]any); ok {
		if n, ok := unionValue(sm["lastObserved"]).(int64); ok {
			w.SystemMetadata.LastObserved = n
		}
		w.SystemMetadata.RunID = unionString(sm["runId"])
		w.SystemMetadata.LastRunID = unionString(sm["lastRunId"])
		w.SystemMetadata.PipelineName = unionString(sm["pipelineName"])
		w.SystemMetadata.RegistryName = unionString(sm["registryName"])
		w.SystemMetadata.RegistryVersion = unionString(sm["registryVersion"])
		w.SystemMetadata.Properties = unionMap(sm["properties"])
		w.SystemMetadata.Version = unionString(sm["version"])
	}
	if w.EntityType == "" || w.ChangeType == "" {
		return emitter.WireProposal{}, fmt.Errorf("kafka: decoded proposal without entityType or changeType: %w", datahub.ErrValidation)
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

func unionAspect(v any) *emitter.WireAspect {
	m, ok := unionValue(v).(map[string]any)
	if !ok {
		return nil
	}
	value, _ := m["value"].([]byte)
	ct, _ := m["contentType"].(string)
	return &emitter.WireAspect{Value: value, ContentType: ct}
}
