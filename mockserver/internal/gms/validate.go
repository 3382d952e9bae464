package gms

import (
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// validated reports whether the mock checks an aspect field by field
// against its PDL record: every aspect of the registry has one. An aspect
// without a schema would get the structural check only.
func validated(info pdl.AspectInfo) bool {
	_, ok := pdl.Record(info.RecordName)
	return ok
}

var (
	reUnknownField = regexp.MustCompile(`^unrecognized field "((?:[^"\\]|\\.)*)"`)
	reMissingField = regexp.MustCompile(`^missing required field "((?:[^"\\]|\\.)*)"`)
)

// pegasusMessage renders a schema validation failure the way Rest.li's data
// validation prints it ("ERROR :: /path :: reason"), in Pegasus's wording
// (DataHub's Python emitter looks for "unrecognized field found but not
// allowed"); the validator's own wording stands only where it is stricter
// than Rest.li.
func pegasusMessage(err error) string { return PegasusMessageAt("", err) }

// PegasusMessageAt is pegasusMessage for a value found at JSON path prefix
// (such as "/proposal/systemMetadata") of a larger document. The path and
// the reason are abbreviated (see [Abbreviate]), as they may echo input.
func PegasusMessageAt(prefix string, err error) string {
	var ve *pdl.ValidationError
	if !errors.As(err, &ve) {
		return "ERROR :: " + Abbreviate(prefix) + " :: " + Abbreviate(err.Error())
	}
	path := strings.TrimSuffix(prefix+pegasusPath(ve.Path), "/")
	if path == "" {
		path = "/"
	}
	if m := reUnknownField.FindStringSubmatch(ve.Reason); m != nil {
		return "ERROR :: " + Abbreviate(strings.TrimSuffix(path, "/")+"/"+m[1]) + " :: unrecognized field found but not allowed"
	}
	if m := reMissingField.FindStringSubmatch(ve.Reason); m != nil {
		return "ERROR :: " + Abbreviate(strings.TrimSuffix(path, "/")+"/"+m[1]) + " :: field is required but not found and has no default value"
	}
	if ve.URN { // the reason quotes the URN, at most twice, and otherwise only texts of bounded length
		return "ERROR :: " + Abbreviate(path) + " :: " + strings.ReplaceAll(ve.Pegasus, ve.Value, Abbreviate(ve.Value))
	}
	reason := ve.Reason
	if ve.Pegasus != "" {
		reason = ve.Pegasus
	}
	return "ERROR :: " + Abbreviate(path) + " :: " + Abbreviate(reason)
}

// pegasusPath turns a validator path such as `fields[2].type` or
// `customProperties["k"]` into Pegasus's "/fields/2/type" form.
func pegasusPath(p string) string {
	var b strings.Builder
	sep := func() {
		if b.Len() > 1 {
			b.WriteByte('/')
		}
	}
	b.WriteByte('/')
	for i := 0; i < len(p); {
		switch {
		case p[i] == '.':
			sep()
			i++
		case p[i] == '[' && i+1 < len(p) && p[i+1] == '"':
			j := i + 2
			for j < len(p) && p[j] != '"' {
				if p[j] == '\\' {
					j++
				}
				j++
			}
			key, err := strconv.Unquote(p[i+1 : min(j+1, len(p))])
			if err != nil {
				key = p[i+2 : min(j, len(p))]
			}
			sep()
			b.WriteString(key)
			i = j + 2
		case p[i] == '[':
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				j = len(p) - i
			}
			sep()
			b.WriteString(p[i+1 : i+j])
			i += j + 1
		default:
			b.WriteByte(p[i])
			i++
		}
	}
	return b.String()
}

// CheckURN validates a URN as GMS's UrnValidationUtil does (BadArgument on
// failure): GMS's own checks and messages first, then the syntax.
func CheckURN(u string) (urn.URN, *Error) {
	parsed, _, err := checkURN(u)
	return parsed, err
}

// checkURN is CheckURN that also returns the URN's key parts, found by its
// check against the key schema of its entity type (nil when not checked).
func checkURN(u string) (urn.URN, []string, *Error) {
	if strings.TrimSpace(u) != u {
		return nil, nil, errorf(BadArgument, MsgURNWhitespace)
	}
	if EntityTypeOf(u) != "schemaField" && javaURLEncodedLen(u) > 512 {
		return nil, nil, errorf(BadArgument, MsgURNTooLong)
	}
	if strings.Contains(u, "␟") {
		return nil, nil, errorf(BadArgument, MsgURNDelimiter)
	}
	parts, err := keyPartsError(u)
	if err != nil {
		return nil, nil, errorf(BadArgument, MsgInvalidURN, Abbreviate(u), Abbreviate(err.Error()))
	}
	parsed, err := urn.Parse(u)
	if err != nil {
		if g, ok := parseWarnOnly(u); ok {
			return g, parts, nil
		}
		return nil, nil, errorf(BadArgument, MsgInvalidURN, Abbreviate(u), Abbreviate(parseReason(err)))
	}
	return parsed, parts, nil
}

func parseReason(err error) string {
	var pe *urn.ParseError
	if errors.As(err, &pe) && pe.Reason != "" {
		return pe.Reason
	}
	return err.Error()
}

// EntityTypeOf returns the entity type of a URN string ("" if malformed).
func EntityTypeOf(u string) string {
	for i, n := 0, 0; i < len(u); i++ {
		if u[i] != ':' {
			continue
		}
		n++
		if n == 2 {
			rest := u[i+1:]
			for j := 0; j < len(rest); j++ {
				if rest[j] == ':' {
					return rest[:j]
				}
			}
			return rest
		}
	}
	return ""
}

// checkKey builds the entity's key aspect from the URN and validates it, as
// GMS does for every write (an invalid key, e.g. an unknown FabricType, is a
// BadArgument "Invalid urn"). parts are u's key parts when checkURN found
// them for entity e (nil: split u again).
func checkKey(e pdl.Entity, u string, parts []string) (json.RawMessage, *Error) {
	key, err := keyFromParts(e, u, parts)
	if err != nil {
		return nil, errorf(BadArgument, MsgInvalidURN, Abbreviate(u), Abbreviate(err.Error()))
	}
	if key == nil {
		return nil, nil
	}
	info, ok := pdl.LookupAspect(e.KeyAspect)
	if !ok {
		return key, nil
	}
	if _, ok := pdl.Record(info.RecordName); !ok {
		return key, nil
	}
	if pdl.ConformsIn(e.Name, info.RecordName, key) { // ValidateIn would pass
		return key, nil
	}
	v, err := decodeUseNumber(key)
	if err == nil {
		err = pdl.ValidateIn(e.Name, info.RecordName, v)
	}
	if err != nil {
		return nil, keyInvalid(u, err)
	}
	return key, nil
}

// keyInvalid is GMS's answer to an entity URN whose key aspect its check
// refuses; a URN-typed key field that DataHub's URN check refuses is
// reported in Rest.li's form, as GMS does.
func keyInvalid(u string, err error) *Error {
	var ve *pdl.ValidationError
	if errors.As(err, &ve) && ve.URN {
		return errorf(BadArgument, MsgInvalidURN, Abbreviate(u), "["+pegasusMessage(err)+"]")
	}
	return errorf(BadArgument, MsgInvalidURN, Abbreviate(u), Abbreviate(err.Error()))
}

// checkAspect checks an aspect's JSON: an object in valid UTF-8
// (BadArgument), that matches its PDL record field by field, and has a
// timestampMillis if it is a timeseries aspect (Invalid). It returns the
// compact JSON to store. With lax (the aspects of [Options.AcceptUnknown])
// the aspect gets the structural check only (a JSON object), so that
// members unknown to the PDL are stored.
func checkAspect(info pdl.AspectInfo, entityType string, raw json.RawMessage, lax bool) (json.RawMessage, *Error) {
	value, _, err := checkValue(info, entityType, raw, !lax && validated(info), nil)
	return value, err
}

// checkValue is checkAspect given whether the aspect is checked against
// its PDL record (schema) or gets the structural check only; a compacted
// copy is taken from a (nil: allocated). It also returns the value's
// jsonx.Hash when the check computed it on its way (0: unknown).
func checkValue(info pdl.AspectInfo, entityType string, raw json.RawMessage, schema bool, a *valueArena) (json.RawMessage, uint64, *Error) {
	var held pdl.Held
	if schema {
		held, _ = pdl.HeldRecord(entityType, info.RecordName)
	}
	return checkHeld(info, held, entityType, raw, schema, a)
}

// checkHeld is checkValue given info's record as entityType holds it
// (pdl.HeldRecord; the zero Held when schema is false). Its quick pass
// settles the UTF-8 check too when the value is all ASCII, and a value it
// accepted lately is not walked again (see checkedSeen).
func checkHeld(info pdl.AspectInfo, held pdl.Held, entityType string, raw json.RawMessage, schema bool, a *valueArena) (json.RawMessage, uint64, *Error) {
	c, h, _, err := checkHeldMarks(info, held, entityType, raw, schema, a)
	return c, h, err
}

// checkHeldMarks is checkHeld that also returns the marks its quick pass
// noted in raw when held is marked (pdl.Held.Marking), the compaction is
// raw itself and its hash is not 0, all of them kept; else nil. They are
// kept in a (nil: none are noted) until its next check.
func checkHeldMarks(info pdl.AspectInfo, held pdl.Held, entityType string, raw json.RawMessage, schema bool, a *valueArena) (json.RawMessage, uint64, []pdl.Mark, *Error) {
	if schema && held.Valid() {
		sh := checkedHash(raw)
		if c, h, ok := seenChecked(info, held, raw, sh, a); ok {
			return c, h, nil, nil
		}
		if c, h, marks, ok := aspectPassesHeldMarks(info, held, raw, a); ok {
			keepChecked(info, held, raw, sh, c, h)
			return c, h, marks, nil
		}
	} else if !schema && utf8.Valid(raw) {
		if c, h, ok := aspectPassesHashed(info, raw, false, a); ok {
			return c, h, nil, nil
		}
	}
	if !utf8.Valid(raw) {
		return nil, 0, nil, errorf(BadArgument, MsgValueNotUTF8)
	}
	v, err := decodeUseNumber(raw)
	if err != nil {
		if TooDeep(err) {
			return nil, 0, nil, errorf(BadArgument, MsgAspectTooDeep, info.Name, entityType, MaxJSONDepth)
		}
		return nil, 0, nil, errorf(BadArgument, MsgAspectNotJSON, info.Name, entityType, JSONErrorText(err))
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, 0, nil, errorf(BadArgument, MsgAspectNotJSON, info.Name, entityType, "found "+jsonKind(v))
	}
	if schema {
		if err := pdl.ValidateIn(entityType, info.RecordName, v); err != nil {
			return nil, 0, nil, recordInvalid(info, entityType, err)
		}
	}
	if info.Timeseries {
		n, ok := obj["timestampMillis"].(json.Number)
		if _, err := strconv.ParseInt(string(n), 10, 64); !ok || err != nil {
			return nil, 0, nil, errorf(Invalid, MsgTimestampMissing, info.Name)
		}
	}
	return jsonx.CompactShared(raw), 0, nil, nil // it decoded
}

// recordInvalid is GMS's answer to an aspect of entityType that its PDL
// record refuses: the record check's (Rest.li's data validation), or, for a
// URN-typed value, that of DataHub's URN check, which runs once the record
// passes and names the entity type, not the record.
func recordInvalid(info pdl.AspectInfo, entityType string, err error) *Error {
	var ve *pdl.ValidationError
	if errors.As(err, &ve) && ve.URN {
		return errorf(Invalid, MsgAspectFormat, entityType, "["+pegasusMessage(err)+"]")
	}
	return errorf(Invalid, MsgRecordInvalid, info.RecordName, "["+pegasusMessage(err)+"]")
}

// javaURLEncodedLen is the length of s encoded by Java's URLEncoder (form
// encoding: letters, digits and ".-*_" kept, space as "+", every other UTF-8
// byte as %XX), which GMS uses for its 512-byte URN limit.
func javaURLEncodedLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '.', c == '-', c == '*', c == '_', c == ' ':
			n++
		default:
			n += 3
		}
	}
	return n
}
