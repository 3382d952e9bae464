package patch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/urn"
)

// The operations DataHub's patch builders send.
const (
	// OpAdd adds a value, or replaces the one at a key.
	OpAdd = "add"
	// OpRemove removes the value at a path; removing a missing key is a
	// no-op on DataHub.
	OpRemove = "remove"
	// OpReplace replaces an existing value.
	OpReplace = "replace"
)

// Operation is one RFC 6902 operation of a patch.
type Operation struct {
	// Op is OpAdd, OpRemove or OpReplace.
	Op string
	// Path is a JSON pointer into the aspect, its keys escaped (see
	// [Path]).
	Path string
	// Value is the operation's value as JSON. A remove sends {} (or, for
	// an owner, the owner's URN), as DataHub's Python builders do; the
	// server ignores it.
	Value json.RawMessage
}

// Document is the patch of one aspect: the GenericAspect value of a PATCH
// proposal.
type Document struct {
	// Ops are the operations, applied in order.
	Ops []Operation
	// ArrayPrimaryKeys names, per top-level array field, the fields of its
	// elements that key them in paths (nested fields joined by U+241F). It
	// makes the server use its generic patcher instead of the aspect's
	// template.
	ArrayPrimaryKeys map[string][]string
	// ForceGenericPatch makes the server use its generic patcher even
	// without ArrayPrimaryKeys: the way to patch an aspect the server has
	// no template for.
	ForceGenericPatch bool
}

// MarshalJSON returns the bare array of operations, or, when
// ArrayPrimaryKeys or ForceGenericPatch is set, the envelope
// {"arrayPrimaryKeys":{...},"patch":[...]} with "forceGenericPatch":true
// after the operations when it is set: the member order of DataHub's
// Python and Java builders.
func (d *Document) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	generic := len(d.ArrayPrimaryKeys) > 0 || d.ForceGenericPatch
	if generic {
		b.WriteString(`{"arrayPrimaryKeys":{`)
		fields := make([]string, 0, len(d.ArrayPrimaryKeys))
		for f := range d.ArrayPrimaryKeys {
			fields = append(fields, f)
		}
		slices.Sort(fields)
		for i, f := range fields {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(&b, f)
			b.WriteString(":[")
			for j, k := range d.ArrayPrimaryKeys[f] {
				if j > 0 {
					b.WriteByte(',')
				}
				writeString(&b, k)
			}
			b.WriteByte(']')
		}
		b.WriteString(`},"patch":`)
	}
	b.WriteByte('[')
	for i, op := range d.Ops {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"op":`)
		writeString(&b, op.Op)
		b.WriteString(`,"path":`)
		writeString(&b, op.Path)
		if op.Value != nil {
			b.WriteString(`,"value":`)
			if err := json.Compact(&b, op.Value); err != nil {
				return nil, fmt.Errorf("patch: value of %s %s: %w", op.Op, op.Path, err)
			}
		}
		b.WriteByte('}')
	}
	b.WriteByte(']')
	if generic {
		if d.ForceGenericPatch {
			b.WriteString(`,"forceGenericPatch":true`)
		}
		b.WriteByte('}')
	}
	return b.Bytes(), nil
}

// Path returns the JSON pointer of the given keys: each escaped (~ as ~0,
// / as ~1) and prefixed with "/". Path("tags", "urn:li:tag:a/b") is
// "/tags/urn:li:tag:a~1b".
func Path(keys ...string) string {
	var b strings.Builder
	for _, k := range keys {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// Builder collects the patches of one entity, one Document per aspect, and
// turns them into PATCH proposals. Its methods record the first error,
// which Proposals returns; a Builder is not safe for concurrent use.
// The entity builders (NewDataset, NewMLModel, ...) embed it.
type Builder struct {
	urn     urn.URN
	props   string // the aspect holding customProperties, "" if unknown
	order   []string
	docs    map[string][]*keyedDoc // per aspect, in first-use order
	err     error
	sysMeta *aspects.SystemMetadata
	headers map[string]string
}

// keyedDoc is one document of an aspect: the plain one (key "") or one
// whose operations address an array by keys of their own (key names the
// array and its key fields). DataHub's builders send each as its own
// proposal, since one document has one set of arrayPrimaryKeys.
type keyedDoc struct {
	key string
	doc *Document
}

// New returns a Builder for entity u. The custom-property methods write
// the entity type's properties aspect (datasetProperties, chartInfo,
// mlModelProperties, ...); for a type without one they fail.
func New(u urn.URN) *Builder {
	b := &Builder{urn: u, docs: map[string][]*keyedDoc{}}
	if u == nil || u.String() == "" {
		b.fail(fmt.Errorf("patch: builder without a URN: %w", datahub.ErrValidation))
		return b
	}
	b.props = propertiesAspect[u.EntityType()]
	return b
}

// propertiesAspect is the aspect holding each entity type's
// customProperties map.
var propertiesAspect = map[string]string{
	"dataset":        "datasetProperties",
	"chart":          "chartInfo",
	"dashboard":      "dashboardInfo",
	"dataFlow":       "dataFlowInfo",
	"dataJob":        "dataJobInfo",
	"container":      "containerProperties",
	"dataProduct":    "dataProductProperties",
	"mlModel":        "mlModelProperties",
	"mlModelGroup":   "mlModelGroupProperties",
	"mlFeature":      "mlFeatureProperties",
	"mlFeatureTable": "mlFeatureTableProperties",
	"mlPrimaryKey":   "mlPrimaryKeyProperties",
}

// untemplated are aspects DataHub GMS has no patch template for, whose
// patches this package sends with forceGenericPatch so the server merges
// them instead of failing (see the package doc).
var untemplated = map[string]bool{
	"mlModelProperties":        true,
	"mlModelGroupProperties":   true,
	"mlFeatureProperties":      true,
	"mlFeatureTableProperties": true,
	"mlPrimaryKeyProperties":   true,
	"containerProperties":      true,
	"institutionalMemory":      true,
}

// URN returns the entity the builder patches.
func (b *Builder) URN() urn.URN { return b.urn }

// SetSystemMetadata sets the system metadata sent with every proposal.
func (b *Builder) SetSystemMetadata(sm *aspects.SystemMetadata) { b.sysMeta = sm }

// SetHeader sets a proposal header sent with every proposal.
func (b *Builder) SetHeader(name, value string) {
	if b.headers == nil {
		b.headers = map[string]string{}
	}
	b.headers[name] = value
}

func (b *Builder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// doc returns the plain document of aspect, creating it in first-use
// order.
func (b *Builder) doc(aspect string) *Document {
	return b.docFor(aspect, "", func() *Document { return &Document{ForceGenericPatch: untemplated[aspect]} })
}

// keyed returns the document of aspect whose arrayPrimaryKeys are
// {field: keys}, creating it in first-use order: the document DataHub's
// builders send for operations on array elements keyed by those fields.
func (b *Builder) keyed(aspect, field string, keys ...string) *Document {
	return b.docFor(aspect, field+"\x00"+strings.Join(keys, "\x00"), func() *Document {
		return &Document{ArrayPrimaryKeys: map[string][]string{field: append([]string{}, keys...)}}
	})
}

func (b *Builder) docFor(aspect, key string, create func() *Document) *Document {
	docs, ok := b.docs[aspect]
	if !ok {
		b.order = append(b.order, aspect)
	}
	for _, d := range docs {
		if d.key == key {
			return d.doc
		}
	}
	d := create()
	b.docs[aspect] = append(docs, &keyedDoc{key: key, doc: d})
	return d
}

// Add appends an add of value (encoded with encoding/json) at path to the
// patch of aspect.
func (b *Builder) Add(aspect, path string, value any) { b.op(aspect, OpAdd, path, value) }

// Replace appends a replace of the value at path.
func (b *Builder) Replace(aspect, path string, value any) { b.op(aspect, OpReplace, path, value) }

// Remove appends a remove of path (sent with the value {}).
func (b *Builder) Remove(aspect, path string) { b.op(aspect, OpRemove, path, struct{}{}) }

func (b *Builder) op(aspect, op, path string, value any) {
	if aspect == "" {
		b.fail(fmt.Errorf("patch: %s %s without an aspect name: %w", op, path, datahub.ErrValidation))
		return
	}
	b.opOn(b.doc(aspect), aspect, op, path, value)
}

// keyedOp appends an operation to aspect's document keyed by field and
// keys (see keyed).
func (b *Builder) keyedOp(aspect, field string, keys []string, op, path string, value any) {
	b.opOn(b.keyed(aspect, field, keys...), aspect, op, path, value)
}

func (b *Builder) opOn(d *Document, aspect, op, path string, value any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		b.fail(fmt.Errorf("patch: %s %s of %s: %w: %w", op, path, aspect, datahub.ErrValidation, err))
		return
	}
	d.Ops = append(d.Ops, Operation{Op: op, Path: path, Value: bytes.TrimSuffix(buf.Bytes(), []byte("\n"))})
}

// SetArrayPrimaryKeys makes aspect's plain patch (the one Add, Replace
// and Remove write) address the elements of array field by the given key
// fields, and so sends it to the server's generic patcher.
func (b *Builder) SetArrayPrimaryKeys(aspect, field string, keys ...string) {
	d := b.doc(aspect)
	if d.ArrayPrimaryKeys == nil {
		d.ArrayPrimaryKeys = map[string][]string{}
	}
	d.ArrayPrimaryKeys[field] = append([]string{}, keys...)
}

// SetForceGenericPatch sets forceGenericPatch on aspect's plain patch.
func (b *Builder) SetForceGenericPatch(aspect string, force bool) {
	b.doc(aspect).ForceGenericPatch = force
}

// Document returns the plain patch collected for aspect (the one Add,
// Replace and Remove write), nil when there is none.
func (b *Builder) Document(aspect string) *Document {
	for _, d := range b.docs[aspect] {
		if d.key == "" {
			return d.doc
		}
	}
	return nil
}

// Documents returns every patch collected for aspect in first-use order:
// the plain one and those of the methods that address keyed array
// elements with arrayPrimaryKeys of their own (tags, terms, owners,
// domains, structured properties, documentation, links). Each becomes one
// proposal.
func (b *Builder) Documents(aspect string) []*Document {
	out := make([]*Document, 0, len(b.docs[aspect]))
	for _, d := range b.docs[aspect] {
		out = append(out, d.doc)
	}
	return out
}

// Proposals returns the PATCH proposals: per patched aspect, in the order
// the aspects were first patched, one per document (see [Builder.Documents]),
// as DataHub's Python builder groups them; or the first error a method
// met.
func (b *Builder) Proposals() ([]emitter.Proposal, error) {
	if b.err != nil {
		return nil, b.err
	}
	if len(b.order) == 0 {
		return nil, fmt.Errorf("patch: nothing to patch on %s: %w", b.urn, datahub.ErrValidation)
	}
	var out []emitter.Proposal
	for _, aspect := range b.order {
		for _, d := range b.docs[aspect] {
			value, err := d.doc.MarshalJSON()
			if err != nil {
				return nil, errors.Join(datahub.ErrValidation, err)
			}
			p := emitter.Proposal{
				EntityType:     b.urn.EntityType(),
				URN:            b.urn,
				ChangeType:     emitter.Patch,
				AspectName:     aspect,
				Aspect:         emitter.RawAspect{Name: aspect, JSON: value},
				ContentType:    emitter.ContentTypeJSONPatch,
				SystemMetadata: b.sysMeta,
			}
			if len(b.headers) > 0 {
				p.Headers = make(map[string]string, len(b.headers))
				for k, v := range b.headers {
					p.Headers[k] = v
				}
			}
			out = append(out, p)
		}
	}
	return out, nil
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Truncate(b.Len() - 1)
}
