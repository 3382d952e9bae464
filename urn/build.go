package urn

import (
	"fmt"
	"strings"
)

// platformArg returns the dataPlatform URN for a platform given bare ("hive")
// or in full ("urn:li:dataPlatform:hive"), and why it is unusable, if it is.
// A full URN is checked later by the parser, like any nested URN.
func platformArg(platform string) (urnForm, reason string) {
	full := prefix + TypeDataPlatform + ":"
	switch {
	case platform == "":
		return "", "empty platform"
	case strings.HasPrefix(platform, full):
		return platform, ""
	case strings.HasPrefix(platform, prefix):
		return platform, fmt.Sprintf("platform %q is not a dataPlatform urn", platform)
	}
	return full + Escape(platform), ""
}

// envArg returns env as a URN holds it: "" means PROD, and any FabricType
// symbol is accepted in any case and upper-cased, as DataHub's Python SDK does.
func envArg(env string) (upper, reason string) {
	if env == "" {
		return "PROD", ""
	}
	if f, ok := fabricType(env, true); ok {
		return f, ""
	}
	up := strings.ToUpper(env)
	if !isFabricType(up) {
		return env, envReason(env)
	}
	return up, ""
}

// envReason says that env is not a FabricType symbol.
func envReason(env string) string {
	return fmt.Sprintf("env %q is not a FabricType value (one of %s)", env, strings.Join(fabricTypes, ", "))
}

// buildPlatformNameEnv is the body of the builders of (platform,name,env)
// URNs: dataset, mlModel and mlModelGroup.
func buildPlatformNameEnv[T any](kind, platform, name, env string, from func(raw) (T, *ParseError)) (T, error) {
	var zero T
	p, preason := platformArg(platform)
	e, ereason := envArg(env)
	input := prefix + kind + ":(" + p + "," + Escape(name) + "," + e + ")"
	switch {
	case preason != "":
		return zero, newError(kind, input, "%s", preason)
	case name == "":
		return zero, newError(kind, input, "empty name")
	case ereason != "":
		return zero, newError(kind, input, "%s", ereason)
	}
	return parseTyped(input, kind, from)
}

// buildSingle is the body of the builders of single-id URNs (corpuser, tag,
// ...): v is the bare id, which is escaped, or the whole URN, which is parsed.
func buildSingle[T any](kind, field, v string, from func(raw) (T, *ParseError)) (T, error) {
	if fastSingle(kind, v) {
		// The parser's checks hold for the URN v makes, so the value is
		// from's: r.s, which only errors read, is not written.
		r := raw{entityType: kind, id: v, n: 1}
		r.parts[0] = v
		if u, err := from(r); err == nil {
			return u, nil
		}
	}
	return generalSingle(kind, field, v, from)
}

// generalSingle is buildSingle without the fast path: it writes the URN and
// parses it.
func generalSingle[T any](kind, field, v string, from func(raw) (T, *ParseError)) (T, error) {
	var zero T
	full := prefix + kind + ":"
	var input string
	switch {
	case v == "":
		return zero, newError(kind, full, "empty %s", field)
	case strings.HasPrefix(v, full):
		input = v
	case strings.HasPrefix(v, prefix):
		return zero, newError(kind, v, "not a %s urn", kind)
	default:
		input = full + Escape(v)
	}
	return parseTyped(input, kind, from)
}

// platformFrom reads the platform part of a parsed URN r of type kind.
func platformFrom(r raw, kind, part string) (DataPlatform, *ParseError) {
	if !strings.HasPrefix(part, platformPrefix) {
		return DataPlatform{}, newError(kind, r.s, "platform %q is not a dataPlatform urn", part)
	}
	// A name that simple accepts passes the checks of split and
	// dataPlatformFrom as it stands, unless the platform is nested too deep.
	if _, ok := simple(part[len(platformPrefix):]); ok && r.depth+1 <= maxDepth {
		return DataPlatform{name: part[len(platformPrefix):]}, nil
	}
	pr, err := split(part, TypeDataPlatform, false, r.depth+1)
	if err != nil {
		return DataPlatform{}, newError(kind, r.s, "platform: %s", err.Reason)
	}
	p, err := dataPlatformFrom(pr)
	if err != nil {
		return DataPlatform{}, newError(kind, r.s, "platform: %s", err.Reason)
	}
	return p, nil
}

// platformNameEnvFrom reads the parts of a parsed (platform,name,env) URN.
func platformNameEnvFrom(r raw, kind string) (p DataPlatform, name, env string, err *ParseError) {
	if err := wantParts(r, kind, 3); err != nil {
		return DataPlatform{}, "", "", err
	}
	if p, err = platformFrom(r, kind, r.parts[0]); err != nil {
		return DataPlatform{}, "", "", err
	}
	if reason := plain("name", r.parts[1]); reason != "" {
		return DataPlatform{}, "", "", newError(kind, r.s, "%s", reason)
	}
	if !isFabricType(r.parts[2]) {
		return DataPlatform{}, "", "", newError(kind, r.s, "%s", envReason(r.parts[2]))
	}
	return p, r.parts[1], r.parts[2], nil
}

// singleFrom reads the id of a parsed single-id URN.
func singleFrom(r raw, kind, field string) (string, *ParseError) {
	if reason := plain(field, r.id); reason != "" {
		return "", newError(kind, r.s, "%s", reason)
	}
	return r.id, nil
}

// The builders' fast path: when every argument goes into the URN as it
// stands, a builder makes its value from the arguments without writing the
// URN and parsing it back. The general path, write and parse, stays for
// every other argument, in a function of its own (generalX, generalSingle,
// buildPlatformNameEnv); it gives the same value for the arguments the fast
// path takes (FuzzFastPath compares the two, and corpus_test.go both with
// the answers the package gave before the fast path).

// simple reports whether part goes into a URN as it stands and comes back
// from the parser as the same part: it is not empty, and it is printable
// ASCII other than space, "," "(" and ")", so that [Escape] leaves it alone,
// no white space ends the URN and no parenthesis or comma splits it. It also
// returns the part's URL-encoded length (see encodedLen).
func simple(part string) (encoded int, ok bool) {
	if part == "" {
		return 0, false
	}
	n := len(part)
	for i := 0; i < len(part); i++ {
		c := part[i]
		if c <= ' ' || c >= 0x7f || c == ',' || c == '(' || c == ')' {
			return 0, false
		}
		if !unreserved(c) {
			n += 2
		}
	}
	return n, true
}

// platformPrefix starts every dataPlatform URN.
const platformPrefix = prefix + TypeDataPlatform + ":"

// encodedPrefix and encodedPlatformPrefix are encodedLen(prefix) and
// encodedLen(platformPrefix): each ":" is 3 bytes encoded.
const (
	encodedPrefix         = len(prefix) + 2*2
	encodedPlatformPrefix = len(platformPrefix) + 3*2
)

// fastBuild checks the arguments of a tuple URN's builder, one part at a
// time, for the fast path, and sums the URN's encoded length. Each method
// stores the part as the parser would read it in *dst and reports whether
// the part may take the fast path.
type fastBuild struct {
	kind    string // the entity type
	encoded int    // the URL-encoded length of the parts so far
	parts   int    // how many parts so far
}

// part takes a string part.
func (f *fastBuild) part(dst *string, v string) bool {
	n, ok := simple(v)
	f.encoded += n
	f.parts++
	*dst = v
	return ok
}

// platform takes a platform given bare ("hive") or whole
// ("urn:li:dataPlatform:hive").
func (f *fastBuild) platform(dst *DataPlatform, v string) bool {
	if strings.HasPrefix(v, prefix) {
		if !strings.HasPrefix(v, platformPrefix) {
			return false
		}
		v = v[len(platformPrefix):]
	}
	n, ok := simple(v)
	f.encoded += encodedPlatformPrefix + n
	f.parts++
	*dst = DataPlatform{name: v}
	return ok
}

// env takes an env that envArg accepts.
func (f *fastBuild) env(dst *string, v string) bool {
	e, reason := envArg(v)
	f.encoded += encodedLen(e)
	f.parts++
	*dst = e
	return reason == ""
}

// urn takes a whole URN of one of the types whose text the parser reads back
// as an equal value with no URN nested deeper than a platform: a [Dataset]
// or a [DataFlow], not the zero value.
func (f *fastBuild) urn(dst *URN, v URN) bool {
	n := 0
	switch u := v.(type) {
	case Dataset:
		if u.text == "" {
			return false
		}
		n = encodedLen(u.text)
	case DataFlow:
		if u == (DataFlow{}) {
			return false
		}
		// urn:li:dataFlow:(<orchestrator>,<flowID>,<cluster>)
		n = encodedPrefix + len(TypeDataFlow) + 5*3 +
			encodedLen(u.orchestrator) + encodedLen(u.flowID) + encodedLen(u.cluster)
	default:
		return false
	}
	f.encoded += n
	f.parts++
	*dst = v
	return true
}

// fits reports whether the tuple URN of the parts taken so far,
// urn:li:<kind>:(<part>,...), is within DataHub's length limit: its ":",
// "(", ")" and commas are 3 bytes each when encoded, and an entity type
// (letters and digits) is as long encoded as it is.
func (f *fastBuild) fits() bool {
	return encodedPrefix+len(f.kind)+3*3+3*(f.parts-1)+f.encoded <= MaxEncodedLength
}

// fastSingle reports whether v, the bare id of a single-id URN of kind,
// takes the fast path: urn:li:<kind>:<v> needs no escaping, parses back
// to v and is within the length limit.
func fastSingle(kind, v string) bool {
	n, ok := simple(v)
	return ok && !strings.HasPrefix(v, prefix) && encodedPrefix+len(kind)+3+n <= MaxEncodedLength
}
