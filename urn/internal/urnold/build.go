package urnold

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
	if !strings.HasPrefix(part, prefix+TypeDataPlatform+":") {
		return DataPlatform{}, newError(kind, r.s, "platform %q is not a dataPlatform urn", part)
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
