package mockserver

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/jsonx"
)

// Proposal is a metadata change proposal as the mock received and decoded
// it, kept for inspection by [Server.Proposals].
type Proposal struct {
	// EntityType, ChangeType and AspectName are the proposal's fields as sent.
	EntityType string `json:"entityType"`
	ChangeType string `json:"changeType"`
	AspectName string `json:"aspectName,omitempty"`
	// EntityURN is the proposal's entityUrn, or the URN built from its
	// entityKeyAspect when it had none.
	EntityURN string `json:"entityUrn,omitempty"`
	// EntityKeyAspect is the decoded JSON of entityKeyAspect.value, nil if absent.
	EntityKeyAspect json.RawMessage `json:"entityKeyAspect,omitempty"`
	// Aspect is the decoded JSON text of aspect.value (the aspect itself), nil
	// if absent.
	Aspect json.RawMessage `json:"aspect,omitempty"`
	// ContentType is aspect.contentType.
	ContentType string `json:"contentType,omitempty"`
	// SystemMetadata is the proposal's systemMetadata object, nil if absent.
	SystemMetadata json.RawMessage `json:"systemMetadata,omitempty"`
	// Headers is the proposal's headers map, nil if absent.
	Headers map[string]string `json:"headers,omitempty"`
	// Async is the request's async flag as GMS resolves it ("true" → true;
	// anything else, "unset" or absent → false).
	Async bool `json:"async"`
	// Batch reports whether the proposal came in an ingestProposalBatch.
	Batch bool `json:"batch"`
	// Index is the proposal's position in its batch (0 for a single one).
	Index int `json:"index"`
	// Err is why the mock refused the proposal (or its batch), "" if accepted.
	Err string `json:"error,omitempty"`
}

// MarshalJSON encodes p with its JSON fields inline; a field holding text
// that is not valid JSON (a refused proposal's aspect) is encoded as a
// string.
func (p Proposal) MarshalJSON() ([]byte, error) {
	type plain Proposal
	q := plain(p)
	for _, f := range []*json.RawMessage{&q.EntityKeyAspect, &q.Aspect, &q.SystemMetadata} {
		if len(*f) > 0 && !json.Valid(*f) {
			s, err := json.Marshal(string(*f))
			if err != nil {
				return nil, err
			}
			*f = s
		}
	}
	return json.Marshal(q)
}

// proposalOf returns the proposal the core received as cp, the item index
// of a request with flags async and batch, sharing cp's memory.
func proposalOf(cp *gms.Proposal, async, batch bool, index int) Proposal {
	return Proposal{EntityType: cp.EntityType, EntityURN: cp.EntityURN, ChangeType: cp.ChangeType,
		AspectName: cp.AspectName, EntityKeyAspect: cp.EntityKeyAspect, Aspect: cp.Aspect,
		ContentType: cp.ContentType, SystemMetadata: cp.SystemMetadata, Headers: cp.Headers,
		Async: async, Batch: batch, Index: index}
}

func (p Proposal) clone() Proposal {
	p.EntityKeyAspect = bytes.Clone(p.EntityKeyAspect)
	p.Aspect = bytes.Clone(p.Aspect)
	p.SystemMetadata = bytes.Clone(p.SystemMetadata)
	p.Headers = maps.Clone(p.Headers)
	return p
}

// mcpFields are the fields of com.linkedin.mxe.MetadataChangeProposal.
var mcpFields = mcpFieldsArray[:]

// The fields of com.linkedin.mxe.MetadataChangeProposal by their index
// in mcpFields.
const (
	mcpAuditHeader = iota
	mcpEntityType
	mcpEntityUrn
	mcpEntityKeyAspect
	mcpChangeType
	mcpAspectName
	mcpAspect
	mcpSystemMetadata
	mcpHeaders
)

// mcpFieldIndex returns the index of name in mcpFields, -1 if it is none.
func mcpFieldIndex(name string) int {
	switch name {
	case "auditHeader":
		return mcpAuditHeader
	case "entityType":
		return mcpEntityType
	case "entityUrn":
		return mcpEntityUrn
	case "entityKeyAspect":
		return mcpEntityKeyAspect
	case "changeType":
		return mcpChangeType
	case "aspectName":
		return mcpAspectName
	case "aspect":
		return mcpAspect
	case "systemMetadata":
		return mcpSystemMetadata
	case "headers":
		return mcpHeaders
	}
	return -1
}

// mcpIndex holds, for each field of mcpFields, 1 + the position of its
// member in a proposal's members (the last, as rawMap.get finds it), 0 if
// it has none.
type mcpIndex [len(mcpFieldsArray)]int

// mcpFieldsArray is mcpFields as an array, for its length.
var mcpFieldsArray = [...]string{"auditHeader", "entityType", "entityUrn", "entityKeyAspect", "changeType",
	"aspectName", "aspect", "systemMetadata", "headers"}

// index fills x from the members ms and reports whether all their keys
// are fields (as hasKeyOutside(ms, mcpFields) reports false).
func (x *mcpIndex) index(ms rawMap) bool {
	known := true
	for i, mb := range ms {
		if f := mcpFieldIndex(mb.Key); f >= 0 {
			x[f] = i + 1
		} else {
			known = false
		}
	}
	return known
}

// genericAspectFields are the fields of com.linkedin.mxe.GenericAspect.
var genericAspectFields = []string{"value", "contentType"}

// hasKeyOutside reports whether m has a key that is not in names.
func hasKeyOutside(m rawMap, names []string) bool {
	for _, mb := range m {
		if !slices.Contains(names, mb.Key) {
			return true
		}
	}
	return false
}

// changeTypes are the symbols of com.linkedin.events.metadata.ChangeType.
var changeTypes = []string{"UPSERT", "CREATE", "UPDATE", "DELETE", "PATCH", "RESTATE", "CREATE_ENTITY"}

// paramErrors collects Rest.li parameter validation messages.
type paramErrors []string

// add appends a message; string arguments (paths with member names, values)
// are shortened, so that echoed input cannot make a huge answer.
func (pe *paramErrors) add(format string, args ...any) {
	for i, a := range args {
		if s, ok := a.(string); ok {
			args[i] = abbreviate(s)
		}
	}
	*pe = append(*pe, fmt.Sprintf(format, args...))
}

// itemPath is the JSON path of one proposal of a request, for messages
// ("/proposal", "/proposals/3"); it is built only for a message.
type itemPath struct {
	list  string // "/proposal"; or the list, e.g. "/proposals", of an item
	index int    // the item's index in list; -1: list is the path
}

// at returns the path of rel ("" or "/member...") within the proposal.
func (ip itemPath) at(rel string) string {
	if ip.index < 0 {
		return ip.list + rel
	}
	return ip.list + "/" + strconv.Itoa(ip.index) + rel
}

// decodeProposal decodes one MetadataChangeProposal, raw (a value of the
// decoded document d) at JSON path path, the way Rest.li's data validation
// does, into p. It checks only the wire shape; semantics are checked by
// prepare.
func decodeProposal(d wireDoc, raw json.RawMessage, path itemPath, p *gms.Proposal, pe *paramErrors) {
	var buf [12]pdl.Member
	fields, err := d.object(buf[:0], raw)
	if err != nil || fields == nil {
		pe.add(msgParamType, path.at(""), compact(raw), "DataMap")
		return
	}
	var at mcpIndex // where each field is, found in one pass
	if !at.index(fields) {
		for _, name := range fields.sortedKeys() {
			if !slices.Contains(mcpFields, name) {
				pe.add(msgParamUnknown, path.at("/"+name))
			}
		}
	}
	get := func(f int) (json.RawMessage, bool) {
		if i := at[f]; i > 0 {
			return fields[i-1].Value, true
		}
		return nil, false
	}
	str := func(f int, name string, required bool) string {
		v, ok := get(f)
		if !ok || isNull(v) {
			if required {
				pe.add(msgParamRequired, path.at("/"+name))
			}
			return ""
		}
		s, err := d.string(v)
		if err != nil {
			pe.add(msgParamType, path.at("/"+name), compact(v), "String")
		}
		return s
	}
	p.EntityType = str(mcpEntityType, "entityType", true)
	p.EntityURN = str(mcpEntityUrn, "entityUrn", false)
	p.ChangeType = str(mcpChangeType, "changeType", true)
	if p.ChangeType != "" && !slices.Contains(changeTypes, p.ChangeType) {
		pe.add(msgParamEnum, path.at("/changeType"), p.ChangeType)
	}
	p.AspectName = str(mcpAspectName, "aspectName", false)
	if v, ok := get(mcpEntityKeyAspect); ok && !isNull(v) {
		p.EntityKeyAspect, _ = decodeGenericAspect(d, v, path, "/entityKeyAspect", pe)
	}
	if v, ok := get(mcpAspect); ok && !isNull(v) {
		p.Aspect, p.ContentType = decodeGenericAspect(d, v, path, "/aspect", pe)
	}
	if v, ok := get(mcpSystemMetadata); ok && !isNull(v) {
		if !isObjectText(v) {
			pe.add(msgParamType, path.at("/systemMetadata"), compact(v), "DataMap")
		} else {
			var err error
			p.SystemMetadata, err = d.checkSystemMetadata(v)
			if err != nil {
				*pe = append(*pe, gms.PegasusMessageAt(path.at("/systemMetadata"), err))
			}
		}
	}
	if v, ok := get(mcpAuditHeader); ok && !isNull(v) && !isObjectText(v) {
		pe.add(msgParamType, path.at("/auditHeader"), compact(v), "DataMap")
	}
	if v, ok := get(mcpHeaders); ok && !isNull(v) {
		var buf [8]pdl.Member
		m, err := d.object(buf[:0], v)
		if err != nil || m == nil {
			pe.add(msgParamType, path.at("/headers"), compact(v), "DataMap")
		} else {
			p.Headers = make(map[string]string, len(m))
			last := make(map[string]json.RawMessage, len(m)) // a repeated member's last value
			for _, mb := range m {
				last[mb.Key] = mb.Value
			}
			for _, k := range m.sortedKeys() {
				hv := last[k]
				s, err := d.string(hv)
				if err != nil {
					pe.add(msgParamType, path.at("/headers/"+k), compact(hv), "String")
				}
				p.Headers[k] = s
			}
		}
	}
}

// decodeGenericAspect decodes a com.linkedin.mxe.GenericAspect, raw (a
// value of d), the member field of the proposal at path: value is Pegasus
// bytes (a string of one char per byte) holding the aspect JSON text.
func decodeGenericAspect(d wireDoc, raw json.RawMessage, path itemPath, field string, pe *paramErrors) (value json.RawMessage, contentType string) {
	var buf [4]pdl.Member
	ga, err := d.object(buf[:0], raw)
	if err != nil || ga == nil {
		pe.add(msgParamType, path.at(field), compact(raw), "DataMap")
		return nil, ""
	}
	if hasKeyOutside(ga, genericAspectFields) {
		for _, name := range ga.sortedKeys() {
			if name != "value" && name != "contentType" {
				pe.add(msgParamUnknown, path.at(field+"/"+name))
			}
		}
	}
	if v, ok := ga.get("contentType"); !ok || isNull(v) {
		pe.add(msgParamRequired, path.at(field+"/contentType"))
	} else if contentType, err = d.string(v); err != nil {
		pe.add(msgParamType, path.at(field+"/contentType"), compact(v), "String")
	}
	v, ok := ga.get("value")
	if !ok || isNull(v) {
		pe.add(msgParamRequired, path.at(field+"/value"))
		return nil, contentType
	}
	text, ok := d.unquoteBytes(bytes.TrimSpace(v))
	if !ok {
		s, err := unmarshalString(v)
		if err != nil {
			pe.add(msgParamType, path.at(field+"/value"), compact(v), "ByteString")
			return nil, contentType
		}
		text = []byte(s)
	}
	b, ok := pegasusBytesOf(text)
	if !ok {
		pe.add(msgParamBytes, path.at(field+"/value"), abbreviate(string(text)))
		return nil, contentType
	}
	return b, contentType
}

// pegasusBytesOf turns the JSON form of Pegasus bytes (every char one byte,
// U+0000..U+00FF), given as the string's UTF-8 text, into the bytes (text
// itself when it is all ASCII). It fails on a char above U+00FF.
func pegasusBytesOf(text []byte) ([]byte, bool) {
	if isASCII(text) {
		return text, true
	}
	b := make([]byte, 0, len(text))
	for len(text) > 0 {
		r, n := utf8.DecodeRune(text)
		if r > 0xFF {
			return nil, false
		}
		b = append(b, byte(r))
		text = text[n:]
	}
	return b, true
}

// isASCII reports whether b is all ASCII, eight bytes at a time.
func isASCII(b []byte) bool {
	var seen uint64
	for ; len(b) >= 8; b = b[8:] {
		seen |= binary.LittleEndian.Uint64(b)
	}
	for _, c := range b {
		seen |= uint64(c)
	}
	return seen&0x8080808080808080 == 0
}

func isNull(v json.RawMessage) bool {
	return string(bytes.TrimSpace(v)) == "null"
}

// isObjectText is isObject for a value taken from a document that already
// decoded as JSON (every member of a decoded body is valid JSON).
func isObjectText(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// unmarshalObject is json.Unmarshal of raw into a map of its members' JSON
// text, without reflection when raw is a valid object (the members then
// share raw's memory); anything else goes to encoding/json for its answer.
func unmarshalObject(raw []byte) (rawMap, error) {
	return unmarshalObjectInto(make(rawMap, 0, 8), raw)
}

// unmarshalObjectInto is unmarshalObject appending to the empty buffer buf
// (which a caller may keep on its stack).
func unmarshalObjectInto(buf rawMap, raw []byte) (rawMap, error) {
	if ms, ok := pdl.AppendMembers(buf, raw); ok {
		return ms, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return nil, err
	}
	out := make(rawMap, 0, len(m))
	for k, v := range m {
		out = append(out, pdl.Member{Key: k, Value: v})
	}
	return out, nil
}

// wireDoc is the document a request's values come from: with its outline
// when it has one (a valid body), whose recorded objects and arrays split
// without another scan; the zero wireDoc splits every value afresh. With a
// memo, what one proposal decodes serves the next.
type wireDoc struct {
	o    *pdl.Outline
	memo *docMemo
}

// docMemo is what the decode of one document keeps from proposal to
// proposal: the last systemMetadata that conformed (a batch's proposals
// often carry the same one), and memory for the aspect values, taken in
// chunks rather than one allocation per value.
type docMemo struct {
	sm, smCompact []byte // the document's text and its compaction
	values        []byte // the current chunk of the values' memory
	chunk         int    // the size of a new chunk
}

// maxValueChunk is the largest chunk a docMemo takes for aspect values.
const maxValueChunk = 32 << 10

// checkSystemMetadata is gms.CheckSystemMetadata for v, a value of d; a
// repeat of the last systemMetadata that conformed gets the same compaction
// (shared: nothing changes a proposal's values in place).
func (d wireDoc) checkSystemMetadata(v []byte) ([]byte, error) {
	m := d.memo
	if m != nil && m.sm != nil && bytes.Equal(v, m.sm) {
		return m.smCompact, nil
	}
	c, err := gms.CheckSystemMetadata(v)
	if err == nil && m != nil {
		c = c[:len(c):len(c)] // shared: an append makes a copy
		m.sm, m.smCompact = v, c
	}
	return c, err
}

// unquoteBytes is pdl.UnquoteJSONBytes for lit, a value of d, in the
// memo's chunk of memory when there is one; the bytes are capped at their
// length, so that an append to them never reaches the next value.
func (d wireDoc) unquoteBytes(lit []byte) ([]byte, bool) {
	m := d.memo
	if m == nil {
		return pdl.UnquoteJSONBytes(lit)
	}
	if cap(m.values)-len(m.values) < len(lit) { // a decoding is as long as lit but for invalid UTF-8
		m.values = make([]byte, 0, max(m.chunk, len(lit)))
	}
	start := len(m.values)
	b, ok := pdl.AppendUnquoted(m.values, lit)
	if !ok {
		return nil, false
	}
	m.values = b
	return b[start:len(b):len(b)], true
}

// object is unmarshalObjectInto for raw, a value of d.
func (d wireDoc) object(buf rawMap, raw []byte) (rawMap, error) {
	if d.o != nil {
		if ms, ok := d.o.AppendMembers(buf, raw); ok {
			if ms == nil {
				ms = rawMap{} // an empty object
			}
			return ms, nil
		}
	}
	return unmarshalObjectInto(buf, raw)
}

// string is unmarshalString for raw, a value of d.
func (d wireDoc) string(raw []byte) (string, error) {
	if d.o != nil {
		if s, ok := d.o.Unquote(raw); ok {
			return s, nil
		}
	}
	return unmarshalString(raw)
}

// array is unmarshalArray for raw, a value of d.
func (d wireDoc) array(raw []byte) ([][]byte, error) {
	if d.o != nil {
		if es, ok := d.o.Elements(raw); ok {
			return es, nil
		}
	}
	raws, err := unmarshalArray(raw)
	es := make([][]byte, len(raws))
	for i, r := range raws {
		es[i] = r
	}
	return es, err
}

// rawMap is a JSON object as its members in order; a repeated key's last
// value counts, as in a decoded map. It serves the small objects of a
// request, where a scan is cheaper than a map.
type rawMap []pdl.Member

// get returns the value of key, as a map index does.
func (m rawMap) get(key string) (json.RawMessage, bool) {
	for i := len(m) - 1; i >= 0; i-- {
		if m[i].Key == key {
			return m[i].Value, true
		}
	}
	return nil, false
}

// sortedKeys returns the distinct keys in order.
func (m rawMap) sortedKeys() []string {
	keys := make([]string, len(m))
	for i, mb := range m {
		keys[i] = mb.Key
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// unmarshalString is json.Unmarshal of raw into a string, without
// reflection for a string literal.
func unmarshalString(raw []byte) (string, error) {
	if s, ok := pdl.UnquoteJSON(bytes.TrimSpace(raw)); ok {
		return s, nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

// unmarshalArray is json.Unmarshal of raw into a list of its elements' JSON
// text, without reflection for a valid array.
func unmarshalArray(raw []byte) ([]json.RawMessage, error) {
	if es, ok := pdl.ArrayElements(raw); ok {
		out := make([]json.RawMessage, len(es))
		for i, e := range es {
			out[i] = e
		}
		return out, nil
	}
	var out []json.RawMessage
	err := json.Unmarshal(raw, &out)
	return out, err
}

// compact returns v as compact JSON text for messages, shortened.
func compact(v json.RawMessage) string {
	return abbreviate(string(jsonx.Compact(v)))
}

func abbreviate(s string) string { return gms.Abbreviate(s) }

// joinParamErrors formats the messages of a failed Rest.li parameter
// validation of method.
func joinParamErrors(method string, pe paramErrors) string {
	return fmt.Sprintf(msgParamsInvalid, method, gms.JoinMessages(pe, "\n"))
}
