package mockserver

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// param is one typed parameter of a Rest.li action for decodeParams: its
// name, its Rest.li type name (for messages) and where to decode it.
type param struct {
	name     string
	typ      string // "String", "Integer", "Long", "Boolean", "Array"
	dst      any    // a pointer to a pointer (*string, *int64, ...), left nil when absent or null
	required bool
}

// decodeParams reads the body of action method and decodes its parameters
// as Rest.li does: an unknown parameter, a missing required one or a value
// of the wrong type is a 400 listing every problem.
func decodeParams(r *http.Request, method string, ps []param) *restliError {
	body, rerr := readBody(r)
	if rerr != nil {
		return rerr
	}
	if len(body) == 0 {
		body = []byte("{}")
	}
	params, rerr := actionParams(body)
	if rerr != nil {
		return rerr
	}
	var pe paramErrors
	for _, k := range params.SortedKeys() {
		if !slices.ContainsFunc(ps, func(p param) bool { return p.name == k }) {
			pe.add(msgParamUnknown, "/"+k)
		}
	}
	for _, p := range ps {
		v, ok := params.Get(p.name)
		if !ok || wire.IsNull(v) {
			if p.required {
				pe.add(msgParamRequired, "/"+p.name)
			}
			continue
		}
		if err := json.Unmarshal(v, p.dst); err != nil {
			pe.add(msgParamType, "/"+p.name, compact(v), p.typ)
		}
	}
	if len(pe) > 0 {
		return errorf(http.StatusBadRequest, "%s", joinParamErrors(method, pe))
	}
	return nil
}

// writeValue answers Rest.li's {"value": v}.
func writeValue(w http.ResponseWriter, v any) {
	writeJSON(w, map[string]any{"value": v})
}
