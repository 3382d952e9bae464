package mockserver

import (
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/pdl"
)

// validated reports whether the mock checks an aspect field by field
// against its PDL record: the aspects this SDK types (see DECISIONS.md). The
// others get a structural check and are stored as they came, so that the
// payloads of DataHub's own connectors are never refused by a validator bug.
func validated(info pdl.AspectInfo) bool {
	a, ok := aspects.Lookup(info.Name)
	if !ok || !a.Typed {
		return false
	}
	_, ok = pdl.Record(info.RecordName)
	return ok
}

var (
	reUnknownField = regexp.MustCompile(`^unrecognized field "((?:[^"\\]|\\.)*)"`)
	reMissingField = regexp.MustCompile(`^missing required field "((?:[^"\\]|\\.)*)"`)
)

// pegasusMessage renders a schema validation failure the way Rest.li's data
// validation prints it ("ERROR :: /path :: reason"), with Pegasus's wording
// for unknown and missing fields (DataHub's Python emitter looks for
// "unrecognized field found but not allowed").
func pegasusMessage(err error) string { return pegasusMessageAt("", err) }

// pegasusMessageAt is pegasusMessage for a value found at JSON path prefix
// (such as "/proposal/systemMetadata") of a larger document.
func pegasusMessageAt(prefix string, err error) string {
	var ve *pdl.ValidationError
	if !errors.As(err, &ve) {
		return "ERROR :: " + prefix + " :: " + err.Error()
	}
	path := strings.TrimSuffix(prefix+pegasusPath(ve.Path), "/")
	if path == "" {
		path = "/"
	}
	if m := reUnknownField.FindStringSubmatch(ve.Reason); m != nil {
		return "ERROR :: " + strings.TrimSuffix(path, "/") + "/" + m[1] + " :: unrecognized field found but not allowed"
	}
	if m := reMissingField.FindStringSubmatch(ve.Reason); m != nil {
		return "ERROR :: " + strings.TrimSuffix(path, "/") + "/" + m[1] + " :: field is required but not found and has no default value"
	}
	return "ERROR :: " + path + " :: " + ve.Reason
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
