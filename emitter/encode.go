package emitter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/hooks"
	"github.com/catalogkit/datahub-go/internal/jsonesc"
	"github.com/catalogkit/datahub-go/urn"
)

// The proposal object is written by hand, in the key order of DataHub's
// Python emitter (the Avro schema's): entityType, entityUrn,
// entityKeyAspect, changeType, aspectName, aspect, systemMetadata, headers.
// Only the aspect values go through encoding/json, once per proposal; a
// retry resends the same bytes.

// appendProposal appends the JSON object of p to dst, its system metadata
// filled with nowMillis as the observation time.
func appendProposal(dst []byte, p *Proposal, nowMillis int64) ([]byte, error) {
	return appendProposalAs(dst, p, nowMillis, false)
}

// appendProposalAs is appendProposal; with inline, the aspect is written as
// DataHub's file sink writes it, {"json": <the aspect's JSON>}.
func appendProposalAs(dst []byte, p *Proposal, nowMillis int64, inline bool) ([]byte, error) {
	return appendProposalURN(dst, p, p.urnString(), nowMillis, inline)
}

// appendProposalURN is appendProposalAs, u being p.urnString(), or ""
// (the text is then asked for where it is written).
func appendProposalURN(dst []byte, p *Proposal, u string, nowMillis int64, inline bool) ([]byte, error) {
	return appendProposalSM(dst, p, u, nowMillis, nil, inline)
}

// appendProposalSM is appendProposalURN; sm, when not nil, is the text
// appendFilledSystemMetadata writes for nil system metadata at nowMillis
// (see defaultSystemMetadata), written as it is for a proposal without
// system metadata.
func appendProposalSM(dst []byte, p *Proposal, u string, nowMillis int64, sm []byte, inline bool) ([]byte, error) {
	return appendProposalOf(dst, p, u, findShape(p, plainDatasetText(p)), nowMillis, sm, inline)
}

// propShape is what appendProposalOf writes of a proposal p, found first.
type propShape struct {
	// plainText is plainDatasetText(p).
	plainText string
	// ct is p.changeType() and name p.aspectName().
	ct   ChangeType
	name string
	// own is hooks.OwnAspect(p.Aspect, name), for an aspect that is not
	// nil: its JSON is appended by aspects.AppendJSONString in its escaped
	// form, and name is plain text (see appendPlainBody; checked by
	// TestOwnAspectNamesPlain).
	own bool
}

// findShape returns p's propShape, plainText being plainDatasetText(p).
func findShape(p *Proposal, plainText string) propShape {
	f := propShape{plainText: plainText, ct: p.changeType(), name: p.aspectName()}
	if p.Aspect != nil && hooks.OwnAspect(p.Aspect, f.name) && !isNil(p.Aspect) {
		f.own = true
	}
	return f
}

// plainDatasetText returns the text of p's URN when it is a dataset's
// whose every byte stands as it is in a JSON string (as urn.Dataset knows
// from when it was made: see hooks.DatasetText) and p's entity type is
// "dataset"; "" otherwise. The head of such a proposal's object is fixed
// text and that text.
func plainDatasetText(p *Proposal) string {
	if text, plain, ok := hooks.DatasetText(p.URN); ok && plain && (p.EntityType == "" || p.EntityType == urn.TypeDataset) {
		return text
	}
	return ""
}

// plainDatasetHead starts the proposal object of a dataset whose URN text
// is plain (see plainDatasetText), up to that text.
const plainDatasetHead = `{"entityType":"dataset","entityUrn":"`

// appendProposalOf is appendProposalSM, given p's propShape f.
func appendProposalOf(dst []byte, p *Proposal, u string, f propShape, nowMillis int64, sm []byte, inline bool) ([]byte, error) {
	var err error
	if plainText := f.plainText; plainText != "" {
		// The usual proposal: a dataset's, its head fixed text.
		dst = append(dst, plainDatasetHead...)
		dst = append(dst, plainText...)
		dst = append(dst, '"')
	} else {
		if u == "" {
			u = p.urnString()
		}
		dst = append(dst, `{"entityType":`...)
		dst = appendString(dst, p.entityType())
		if u != "" {
			dst = append(dst, `,"entityUrn":`...)
			dst = appendString(dst, u)
		}
	}
	if p.KeyAspect != nil && !isNil(p.KeyAspect) {
		dst = append(dst, `,"entityKeyAspect":`...)
		if dst, err = appendGenericAspect(dst, p.KeyAspect, ContentTypeJSON, false); err != nil {
			return dst, err
		}
	}
	dst = appendChangeType(dst, f.ct)
	if f.name != "" {
		dst = append(dst, `,"aspectName":"`...)
		if f.own {
			dst = append(dst, f.name...)
		} else {
			dst = appendPlainBody(dst, f.name)
		}
		dst = append(dst, '"')
	}
	if f.own || (p.Aspect != nil && !isNil(p.Aspect)) {
		dst = append(dst, `,"aspect":`...)
		if f.own && !inline {
			dst, err = appendAspectValue(dst, p.Aspect, p.contentType())
		} else {
			dst, err = appendGenericAspect(dst, p.Aspect, p.contentType(), inline)
		}
		if err != nil {
			return dst, err
		}
	}
	dst = append(dst, `,"systemMetadata":`...)
	if sm != nil && p.SystemMetadata == nil {
		dst = append(dst, sm...)
	} else {
		dst = appendFilledSystemMetadata(dst, p.SystemMetadata, nowMillis)
	}
	if len(p.Headers) > 0 {
		dst = append(dst, `,"headers":`...)
		dst = appendStringMap(dst, p.Headers)
	}
	return append(dst, '}'), nil
}

// appendChangeType appends the changeType member: ,"changeType":"UPSERT".
func appendChangeType(dst []byte, ct ChangeType) []byte {
	switch ct { // one constant for each of DataHub's change types
	case Upsert:
		return append(dst, `,"changeType":"UPSERT"`...)
	case Patch:
		return append(dst, `,"changeType":"PATCH"`...)
	case Create:
		return append(dst, `,"changeType":"CREATE"`...)
	case CreateEntity:
		return append(dst, `,"changeType":"CREATE_ENTITY"`...)
	case Update:
		return append(dst, `,"changeType":"UPDATE"`...)
	case Delete:
		return append(dst, `,"changeType":"DELETE"`...)
	case Restate:
		return append(dst, `,"changeType":"RESTATE"`...)
	}
	dst = append(dst, `,"changeType":`...)
	return appendString(dst, string(ct))
}

// appendGenericAspect appends DataHub's GenericAspect for a:
// {"value":"<a's JSON as a string>","contentType":"..."}, or with inline
// {"json":<a's JSON>}.
func appendGenericAspect(dst []byte, a aspects.Aspect, contentType string, inline bool) ([]byte, error) {
	if !inline && isAspectsType(a) {
		return appendAspectValue(dst, a, contentType)
	}
	buf := bufPool.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 1<<20 { // keep only ordinary buffers
			bufPool.Put(buf)
		}
	}()
	js, err := aspectJSON(a, buf)
	if err != nil {
		return dst, err
	}
	if inline {
		dst = append(dst, `{"json":`...)
		dst = append(dst, js...)
		return append(dst, '}'), nil
	}
	dst = append(dst, `{"value":`...)
	dst = jsonesc.AppendASCIIString(dst, js) // appendString of escapeNonASCII's text, in one pass
	return appendContentType(dst, contentType), nil
}

// appendContentType appends the end of a GenericAspect after its value:
// ,"contentType":"..."}.
func appendContentType(dst []byte, contentType string) []byte {
	switch contentType { // plain ASCII
	case ContentTypeJSON:
		return append(dst, `,"contentType":"application/json"}`...)
	case ContentTypeJSONPatch:
		return append(dst, `,"contentType":"application/json-patch+json"}`...)
	}
	dst = append(dst, `,"contentType":`...)
	dst = appendString(dst, contentType)
	return append(dst, '}')
}

// aspectJSON returns the JSON encodeAspect writes for a, and its error. A
// type of package aspects appends its JSON into buf's memory (reset first;
// grown memory is kept in buf); RawAspect's MarshalJSON output is returned
// as it is; another aspect is encoded into buf. The result is valid until
// buf is next used.
func aspectJSON(a aspects.Aspect, buf *bytes.Buffer) ([]byte, error) {
	buf.Reset()
	if isAspectsType(a) {
		// Appended straight into buf's memory: no buffer per aspect.
		b, err := aspects.AppendJSON(buf.AvailableBuffer(), a)
		if cap(b) > buf.Cap() { // keep the grown memory for the next aspect
			*buf = *bytes.NewBuffer(b[:0])
		}
		if err = checkAspectJSON(a, b, err); err != nil {
			return nil, err
		}
		return b, nil
	}
	if m, ok := a.(json.Marshaler); ok && compactMarshaler(a) {
		b, err := m.MarshalJSON()
		if err != nil {
			err = &json.MarshalerError{Type: reflect.TypeOf(a), Err: err}
		}
		if err = checkAspectJSON(a, b, err); err != nil {
			return nil, err
		}
		return b, nil
	}
	if err := encodeAspect(buf, a); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// escapeNonASCII returns the JSON text in buf with every non-ASCII character
// written as a \uXXXX escape (a surrogate pair above U+FFFF), as Python's
// json.dumps writes it by default. GenericAspect.value is Pegasus bytes: GMS
// reads the string one character per byte, so raw UTF-8 there is refused or
// garbled, while escapes arrive intact. Non-ASCII can only stand inside JSON
// strings, where an escape means the same character. The result may share
// buf's memory: it is valid until buf is next used.
func escapeNonASCII(buf *bytes.Buffer) []byte {
	src := buf.Bytes()
	i := 0
	for i < len(src) && src[i] < utf8.RuneSelf {
		i++
	}
	if i == len(src) {
		return src
	}
	n := len(src)
	out := append(src, src[:i]...) // the escaped copy is built after the original
	for i < n {
		c := src[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:n])
		i += size
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			out = appendUnicodeEscape(out, r1)
			r = r2
		}
		out = appendUnicodeEscape(out, r)
	}
	return out[n:]
}

// appendUnicodeEscape appends the JSON escape \uXXXX of the UTF-16 code unit r.
func appendUnicodeEscape(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
}

// bufPool holds the buffers aspects are encoded into.
var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// encodeAspect writes the compact JSON of a to buf without HTML escaping,
// as DataHub's Python SDK writes aspects. It fails, wrapping
// datahub.ErrValidation, if a does not encode to a JSON object or array.
func encodeAspect(buf *bytes.Buffer, a aspects.Aspect) error {
	err := encodeJSON(buf, a)
	return checkAspectJSON(a, buf.Bytes(), err)
}

// checkAspectJSON returns the error of an aspect a whose encoding gave b
// and err: err wrapped, or an error when b is not a JSON object or array.
func checkAspectJSON(a aspects.Aspect, b []byte, err error) error {
	if err != nil {
		return fmt.Errorf("emitter: encode aspect %s: %w: %w", a.AspectName(), datahub.ErrValidation, err)
	}
	if len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return fmt.Errorf("emitter: aspect %s encodes to %.20s, not a JSON object: %w", a.AspectName(), b, datahub.ErrValidation)
	}
	return nil
}

// encodeJSON writes to buf the compact JSON of a (not nil) as a
// json.Encoder without HTML escaping writes it, without the newline, and
// fails with the encoder's error. An aspect with its own MarshalJSON (all
// this SDK's aspects that have PDL defaults, RawAspect) takes the encoder's
// path for a json.Marshaler without its reflection: MarshalJSON called, its
// output compacted (HTML left as is) and checked, a failure reported as a
// *json.MarshalerError of a's type. The compaction is skipped for the types
// whose MarshalJSON already returns compact, checked JSON (see
// compactMarshaler). Other aspects go through the encoder.
// TestEncodeJSONMatchesEncoder and FuzzEncodeJSON hold the paths together.
func encodeJSON(buf *bytes.Buffer, a aspects.Aspect) error {
	m, ok := a.(json.Marshaler)
	if !ok {
		return encodeJSONSlow(buf, a)
	}
	b, err := m.MarshalJSON()
	if err == nil {
		if compactMarshaler(a) {
			buf.Write(b)
		} else {
			err = json.Compact(buf, b)
		}
	}
	if err != nil {
		return &json.MarshalerError{Type: reflect.TypeOf(a), Err: err}
	}
	return nil
}

// aspectsPkg is the import path of package aspects.
var aspectsPkg = reflect.TypeFor[aspects.DatasetProperties]().PkgPath()

// compactMarshaler reports whether the MarshalJSON of a returns JSON that
// json.Compact (without HTML escaping) leaves as it is, so that the
// compaction can be skipped: RawAspect's (compacted by json.Compact) and
// that of every type of package aspects (each returns the output of a
// json.Encoder, through aspects' marshal, or an error).
func compactMarshaler(a aspects.Aspect) bool {
	switch a.(type) {
	case RawAspect, *RawAspect:
		return true
	}
	return isAspectsType(a)
}

// isAspectsType reports whether a (or what it points to) is a type of
// package aspects. The types that append their own JSON are known without
// reflection (hooks.OwnAspect).
func isAspectsType(a aspects.Aspect) bool {
	if !isNil(a) && hooks.OwnAspect(a, a.AspectName()) {
		return true
	}
	t := reflect.TypeOf(a)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == aspectsPkg
}

// encodeJSONSlow is encodeJSON through a json.Encoder.
func encodeJSONSlow(buf *bytes.Buffer, a aspects.Aspect) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(a); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // the newline Encode ends with
	return nil
}

// appendFilledSystemMetadata appends sm (nil allowed) filled as a
// proposal's is when sent (see Proposal.SystemMetadata), nowMillis as the
// observation time, as appendSystemMetadata writes it, without building
// the filled properties.
func appendFilledSystemMetadata(dst []byte, sm *aspects.SystemMetadata, nowMillis int64) []byte {
	if sm == nil || onlyObserved(sm) {
		// The usual case: everything but lastObserved is a default, the
		// same text for every proposal.
		if sm != nil && sm.LastObserved != 0 {
			nowMillis = sm.LastObserved
		}
		dst = append(dst, `{"lastObserved":`...)
		dst = strconv.AppendInt(dst, nowMillis, 10)
		return append(dst, defaultSystemMetadataTail...)
	}
	out := withRunDefaults(sm, nowMillis)
	return appendSystemMetadataAs(dst, &out, true)
}

// onlyObserved reports whether sm sets no field but LastObserved.
func onlyObserved(sm *aspects.SystemMetadata) bool {
	return deref(sm.RunID) == "" && deref(sm.LastRunID) == "" && deref(sm.PipelineName) == "" &&
		deref(sm.RegistryName) == "" && deref(sm.RegistryVersion) == "" && len(sm.Properties) == 0 &&
		deref(sm.Version) == "" && sm.SchemaVersion == nil && sm.AspectCreated == nil && sm.AspectModified == nil
}

// deref returns *s, "" for nil.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// defaultSystemMetadataTail is what appendFilledSystemMetadata writes after
// lastObserved's value for system metadata that sets nothing else: the
// defaults, written once by appendSystemMetadataAs.
var defaultSystemMetadataTail = func() string {
	const head = `{"lastObserved":1`
	sm := withRunDefaults(nil, 1)
	return string(appendSystemMetadataAs(nil, &sm, true)[len(head):])
}()

// withRunDefaults returns a copy of sm (nil allowed) with nowMillis as
// LastObserved and DefaultRunID as RunID and LastRunID where they are
// unset (nil or "").
func withRunDefaults(sm *aspects.SystemMetadata, nowMillis int64) aspects.SystemMetadata {
	var out aspects.SystemMetadata
	if sm != nil {
		out = *sm
	}
	if out.LastObserved == 0 {
		out.LastObserved = nowMillis
	}
	if deref(out.RunID) == "" {
		out.RunID = &defaultRunID
	}
	if deref(out.LastRunID) == "" {
		out.LastRunID = &defaultRunID
	}
	return out
}

// defaultRunID is DefaultRunID, for the system metadata that points to it.
var defaultRunID = DefaultRunID

// filledSystemMetadata returns a copy of sm (nil allowed) filled as a
// proposal's is when sent, nowMillis as the observation time: its
// properties a new map holding the client properties.
func filledSystemMetadata(sm *aspects.SystemMetadata, nowMillis int64) aspects.SystemMetadata {
	out := withRunDefaults(sm, nowMillis)
	props := make(map[string]string, len(out.Properties)+len(clientDefaults))
	maps.Copy(props, out.Properties)
	for _, d := range clientDefaults {
		if _, ok := props[d[0]]; !ok {
			props[d[0]] = d[1]
		}
	}
	out.Properties = props
	return out
}

// appendSystemMetadata appends sm in the field order of DataHub's
// SystemMetadata record, leaving out zero fields.
func appendSystemMetadata(dst []byte, sm *aspects.SystemMetadata) []byte {
	return appendSystemMetadataAs(dst, sm, false)
}

// appendSystemMetadataAs is appendSystemMetadata; with clientProps, the
// properties "clientId" and "clientVersion" are written with their
// defaults when sm.Properties lacks them, as filledSystemMetadata adds
// them.
func appendSystemMetadataAs(dst []byte, sm *aspects.SystemMetadata, clientProps bool) []byte {
	dst = append(dst, '{')
	first := true
	key := func(k string) {
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, '"')
		dst = append(dst, k...)
		dst = append(dst, '"', ':')
	}
	str := func(k string, v *string) {
		if v != nil && *v != "" {
			key(k)
			dst = appendString(dst, *v)
		}
	}
	if sm.LastObserved != 0 {
		key("lastObserved")
		dst = strconv.AppendInt(dst, sm.LastObserved, 10)
	}
	str("runId", sm.RunID)
	str("lastRunId", sm.LastRunID)
	str("pipelineName", sm.PipelineName)
	str("registryName", sm.RegistryName)
	str("registryVersion", sm.RegistryVersion)
	if clientProps {
		key("properties")
		dst = appendStringMapWith(dst, sm.Properties, clientDefaults)
	} else if len(sm.Properties) > 0 {
		key("properties")
		dst = appendStringMap(dst, sm.Properties)
	}
	str("version", sm.Version)
	if sm.SchemaVersion != nil {
		key("schemaVersion")
		dst = strconv.AppendInt(dst, *sm.SchemaVersion, 10)
	}
	if sm.AspectCreated != nil {
		key("aspectCreated")
		dst = sm.AspectCreated.AppendJSON(dst)
	}
	if sm.AspectModified != nil {
		key("aspectModified")
		dst = sm.AspectModified.AppendJSON(dst)
	}
	return append(dst, '}')
}

// appendStringMap appends m as a JSON object with sorted keys.
func appendStringMap(dst []byte, m map[string]string) []byte {
	return appendStringMapWith(dst, m, nil)
}

// clientDefaults are the properties filled adds to system metadata that
// lacks them.
var clientDefaults = [][2]string{{"clientId", datahub.ClientID}, {"clientVersion", datahub.Version}}

// appendStringMapWith appends as a JSON object with sorted keys m and the
// key-value pairs of defaults whose keys m lacks.
func appendStringMapWith(dst []byte, m map[string]string, defaults [][2]string) []byte {
	var arr [16]string // the keys of small maps, on the stack
	keys := arr[:0]
	for k := range m {
		keys = append(keys, k)
	}
	for _, d := range defaults {
		if _, ok := m[d[0]]; !ok {
			keys = append(keys, d[0])
		}
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, k)
		dst = append(dst, ':')
		v, ok := m[k]
		if !ok {
			for _, d := range defaults {
				if d[0] == k {
					v = d[1]
				}
			}
		}
		dst = appendString(dst, v)
	}
	return append(dst, '}')
}

// plainASCII marks the bytes a JSON string holds as they are: ASCII from
// the space up, except the quote and the backslash.
var plainASCII = func() (t [256]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// appendString appends s as a JSON string, as encoding/json writes it with
// HTML escaping off (jsonesc.AppendString): HTML characters and non-ASCII
// as they are.
func appendString[T string | []byte](dst []byte, s T) []byte {
	return jsonesc.AppendString(dst, s)
}

// appendStringBody is appendString without the quotes.
func appendStringBody[T string | []byte](dst []byte, s T) []byte {
	return jsonesc.AppendStringBody(dst, s)
}
