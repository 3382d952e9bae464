package urnold

// This file holds the helpers of the generated URN types (entities_gen.go).

// partFrom reads a string part of a parsed tuple URN: it must hold no raw
// reserved character.
func partFrom(r raw, kind, label, part string) (string, *ParseError) {
	if reason := plain(label, part); reason != "" {
		return "", newError(kind, r.s, "%s", reason)
	}
	return part, nil
}

// nestedFrom reads a part of a parsed tuple URN that is a whole URN of any
// entity type.
func nestedFrom(r raw, kind, label, part string) (URN, *ParseError) {
	if len(part) < len(prefix) || part[:len(prefix)] != prefix {
		return nil, newError(kind, r.s, "%s %q is not a urn", label, part)
	}
	u, err := parse(part, false, r.depth+1)
	if err != nil {
		return nil, newError(kind, r.s, "%s: %s", label, err.Reason)
	}
	return u, nil
}

// envFrom reads the env part of a parsed tuple URN: an upper-case
// FabricType symbol.
func envFrom(r raw, kind, part string) (string, *ParseError) {
	if !isFabricType(part) {
		return "", newError(kind, r.s, "%s", envReason(part))
	}
	return part, nil
}

// urnString returns u.String(), or "" for a nil u.
func urnString(u URN) string {
	if u == nil {
		return ""
	}
	return u.String()
}
