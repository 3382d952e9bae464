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

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
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
// of a request with flags async and batch, sharing cp's memory (but for an
// aspect value cp has only compacted: the text sent is decoded again, see
// gms.Proposal.AspectLiteral).
func proposalOf(cp *gms.Proposal, async, batch bool, index int) Proposal {
	return Proposal{EntityType: cp.EntityType, EntityURN: cp.EntityURN, ChangeType: cp.ChangeType,
		AspectName: cp.AspectName, EntityKeyAspect: cp.EntityKeyAspect, Aspect: cp.SentAspect(),
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
// member in a proposal's members (the last, as wire.Map.get finds it), 0 if
// it has none.
type mcpIndex [len(mcpFieldsArray)]int

// mcpFieldsArray is mcpFields as an array, for its length.
var mcpFieldsArray = [...]string{"auditHeader", "entityType", "entityUrn", "entityKeyAspect", "changeType",
	"aspectName", "aspect", "systemMetadata", "headers"}

// index fills x from the members ms and reports whether all their keys
// are fields (as hasKeyOutside(ms, mcpFields) reports false).
func (x *mcpIndex) index(ms wire.Map) bool {
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
func hasKeyOutside(m wire.Map, names []string) bool {
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
func decodeProposal(d wire.Doc, raw json.RawMessage, path itemPath, p *gms.Proposal, pe *paramErrors) {
	var buf [12]pdl.Member
	fields, err := d.Object(buf[:0], raw)
	if err != nil || fields == nil {
		pe.add(msgParamType, path.at(""), compact(raw), "DataMap")
		return
	}
	var at mcpIndex // where each field is, found in one pass
	if !at.index(fields) {
		for _, name := range fields.SortedKeys() {
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
		if !ok || wire.IsNull(v) {
			if required {
				pe.add(msgParamRequired, path.at("/"+name))
			}
			return ""
		}
		s, err := d.Text(v)
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
	if v, ok := get(mcpEntityKeyAspect); ok && !wire.IsNull(v) {
		p.EntityKeyAspect, _ = decodeGenericAspect(d, v, path, "/entityKeyAspect", pe)
	}
	if v, ok := get(mcpAspect); ok && !wire.IsNull(v) {
		p.Aspect, p.ContentType = decodeGenericAspect(d, v, path, "/aspect", pe)
	}
	if v, ok := get(mcpSystemMetadata); ok && !wire.IsNull(v) {
		if !wire.IsObjectText(v) {
			pe.add(msgParamType, path.at("/systemMetadata"), compact(v), "DataMap")
		} else {
			var err error
			p.SystemMetadata, err = d.CheckSystemMetadata(v)
			if err != nil {
				*pe = append(*pe, gms.PegasusMessageAt(path.at("/systemMetadata"), err))
			}
		}
	}
	if v, ok := get(mcpAuditHeader); ok && !wire.IsNull(v) && !wire.IsObjectText(v) {
		pe.add(msgParamType, path.at("/auditHeader"), compact(v), "DataMap")
	}
	if v, ok := get(mcpHeaders); ok && !wire.IsNull(v) {
		var buf [8]pdl.Member
		m, err := d.Object(buf[:0], v)
		if err != nil || m == nil {
			pe.add(msgParamType, path.at("/headers"), compact(v), "DataMap")
		} else {
			p.Headers = make(map[string]string, len(m))
			last := make(map[string]json.RawMessage, len(m)) // a repeated member's last value
			for _, mb := range m {
				last[mb.Key] = mb.Value
			}
			for _, k := range m.SortedKeys() {
				hv := last[k]
				s, err := d.Text(hv)
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
func decodeGenericAspect(d wire.Doc, raw json.RawMessage, path itemPath, field string, pe *paramErrors) (value json.RawMessage, contentType string) {
	var buf [4]pdl.Member
	ga, err := d.Object(buf[:0], raw)
	if err != nil || ga == nil {
		pe.add(msgParamType, path.at(field), compact(raw), "DataMap")
		return nil, ""
	}
	if hasKeyOutside(ga, genericAspectFields) {
		for _, name := range ga.SortedKeys() {
			if name != "value" && name != "contentType" {
				pe.add(msgParamUnknown, path.at(field+"/"+name))
			}
		}
	}
	if v, ok := ga.Get("contentType"); !ok || wire.IsNull(v) {
		pe.add(msgParamRequired, path.at(field+"/contentType"))
	} else if contentType, err = d.Text(v); err != nil {
		pe.add(msgParamType, path.at(field+"/contentType"), compact(v), "String")
	}
	v, ok := ga.Get("value")
	if !ok || wire.IsNull(v) {
		pe.add(msgParamRequired, path.at(field+"/value"))
		return nil, contentType
	}
	text, ok := d.UnquoteBytes(bytes.TrimSpace(v))
	if !ok {
		s, err := wire.UnmarshalString(v)
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
