package transport

import (
	"fmt"
	"net/url"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
)

// NormalizeBaseURL checks a server URL and returns it without trailing
// slashes, as DataHub's Python client does. Both a GMS root
// (http://localhost:8080) and a front end's GMS proxy path
// (https://datahub.example.com/api/gms) are accepted: requests go to the
// result followed by the resource path. The URL must be absolute http or
// https, with a host and without query or fragment; errors wrap
// datahub.ErrValidation and show the URL redacted.
func NormalizeBaseURL(raw string) (string, error) {
	s := strings.TrimRight(strings.TrimSpace(raw), "/")
	fail := func(reason string) (string, error) {
		return "", fmt.Errorf("datahub: server URL %q %s: %w", redactRaw(raw), reason, datahub.ErrValidation)
	}
	if s == "" {
		return fail("is empty")
	}
	u, err := url.Parse(s)
	if err != nil {
		return fail("does not parse")
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return fail("has no scheme (want http:// or https://)")
	default:
		return fail("has scheme " + u.Scheme + " (want http or https)")
	}
	if u.Host == "" {
		return fail("has no host")
	}
	if u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return fail("has a query or fragment")
	}
	return s, nil
}

// redactRaw is datahub.RedactURL for a server URL that may not parse, or
// parse as something else than meant (admin:pw@gms:8080 has the scheme
// "admin"): the user info, up to the last '@' before the path, is cut
// first, so that a password never reaches an error.
func redactRaw(raw string) string {
	prefix, rest := "", raw
	if i := strings.Index(raw, "://"); i >= 0 {
		prefix, rest = raw[:i+3], raw[i+3:]
	}
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
		rest = rest[at+1:]
	}
	return datahub.RedactURL(prefix + rest)
}

// URNInPath writes a URN into a URL path as DataHub's Python client does
// for the OpenAPI routes (GMS matches {urn:urn:li:.+} on the raw path): as
// it is, escaping only the bytes a path cannot hold.
func URNInPath(u string) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~:@!$&'()*+,;=/", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}
