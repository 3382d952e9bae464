package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
)

// Fixture is one fixture file: a list of steps run in order, each a request
// and what its answer must be.
type Fixture struct {
	Name  string // the file's path relative to the fixture root, such as "v3/aspects.json"
	Steps []Step
}

// Step is one request of a fixture and the answer it expects.
type Step struct {
	Request  Request
	Response Response
}

// Request is a step's request as DataHub's runner sends it with Python's
// requests library: Method (default "post") to the server's URL plus URL,
// Params appended as a query string, JSON as an application/json body, Data
// as a raw or form body, Headers added. A step with Wait sends nothing and
// waits for the server's asynchronous writes; a step with Skip is not run.
type Request struct {
	URL         string
	Method      string
	Description string
	Skip        string
	Wait        bool
	Params      []Param
	Headers     map[string]string
	JSON        json.RawMessage // nil when the step sends no JSON body
	Data        json.RawMessage // a JSON string (raw body) or object (form fields); nil when absent
}

// Param is one query parameter, in the fixture's order; a list value in the
// fixture gives one Param per item.
type Param struct{ Name, Value string }

// Response is what a step expects. As in DataHub's runner, an expectation
// that is not a JSON object (some fixtures give a list) checks only that
// the status is 200, 201, 202 or 204.
type Response struct {
	StatusCodes  []int           // nil: 200, 201, 202 or 204
	JSON         json.RawMessage // nil: the body is not compared
	ExcludePaths []string        // exclude_regex_paths
}

// DefaultStatusCodes are the statuses a step without status_codes accepts.
var DefaultStatusCodes = []int{200, 201, 202, 204}

// Load reads every fixture file matching the glob patterns (path.Match
// syntax, such as "v3/*.json") in fsys, sorted by name.
func Load(fsys fs.FS, patterns ...string) ([]Fixture, error) {
	var names []string
	for _, p := range patterns {
		m, err := fs.Glob(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("conformance: pattern %q: %w", p, err)
		}
		names = append(names, m...)
	}
	slices.Sort(names)
	names = slices.Compact(names)
	out := make([]Fixture, 0, len(names))
	for _, n := range names {
		b, err := fs.ReadFile(fsys, n)
		if err != nil {
			return nil, fmt.Errorf("conformance: %w", err)
		}
		f, err := Parse(path.Clean(n), b)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// Parse reads one fixture file in DataHub's format.
func Parse(name string, data []byte) (Fixture, error) {
	var raw []struct {
		Request  map[string]json.RawMessage `json:"request"`
		Response json.RawMessage            `json:"response"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return Fixture{}, fmt.Errorf("conformance: %s: %w", name, err)
	}
	f := Fixture{Name: name, Steps: make([]Step, 0, len(raw))}
	for i, r := range raw {
		s, err := parseStep(r.Request, r.Response)
		if err != nil {
			return Fixture{}, fmt.Errorf("conformance: %s step %d: %w", name, i, err)
		}
		f.Steps = append(f.Steps, s)
	}
	return f, nil
}

func parseStep(req map[string]json.RawMessage, resp json.RawMessage) (Step, error) {
	var s Step
	if req == nil {
		return s, fmt.Errorf("no request")
	}
	str := func(k string, dst *string) error {
		if v, ok := req[k]; ok && string(v) != "null" {
			if err := json.Unmarshal(v, dst); err != nil {
				return fmt.Errorf("request.%s: %w", k, err)
			}
		}
		return nil
	}
	for k, dst := range map[string]*string{"url": &s.Request.URL, "method": &s.Request.Method,
		"description": &s.Request.Description} {
		if err := str(k, dst); err != nil {
			return s, err
		}
	}
	if v, ok := req["skip"]; ok {
		s.Request.Skip = pythonTruthText(v)
	}
	_, s.Request.Wait = req["wait"]
	if s.Request.Method == "" {
		s.Request.Method = "post"
	}
	if s.Request.URL == "" && !s.Request.Wait && s.Request.Skip == "" {
		return s, fmt.Errorf("request has no url")
	}
	if v, ok := req["params"]; ok {
		ps, err := parseParams(v)
		if err != nil {
			return s, err
		}
		s.Request.Params = ps
	}
	if v, ok := req["headers"]; ok && string(v) != "null" {
		if err := json.Unmarshal(v, &s.Request.Headers); err != nil {
			return s, fmt.Errorf("request.headers: %w", err)
		}
	}
	if v, ok := req["json"]; ok && string(v) != "null" {
		s.Request.JSON = v
	}
	if v, ok := req["data"]; ok && string(v) != "null" {
		s.Request.Data = v
	}
	var obj map[string]json.RawMessage
	if len(resp) == 0 || resp[0] != '{' {
		return s, nil
	}
	if err := json.Unmarshal(resp, &obj); err != nil {
		return s, fmt.Errorf("response: %w", err)
	}
	if v, ok := obj["status_codes"]; ok {
		if err := json.Unmarshal(v, &s.Response.StatusCodes); err != nil {
			return s, fmt.Errorf("response.status_codes: %w", err)
		}
	}
	if v, ok := obj["json"]; ok {
		s.Response.JSON = v
	}
	if v, ok := obj["exclude_regex_paths"]; ok {
		if err := json.Unmarshal(v, &s.Response.ExcludePaths); err != nil {
			return s, fmt.Errorf("response.exclude_regex_paths: %w", err)
		}
	}
	return s, nil
}

// pythonTruthText is the skip reason of a "skip" member: its text when it
// is a string, "skip" for any other value Python finds true, "" otherwise.
func pythonTruthText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	switch string(bytes.TrimSpace(v)) {
	case "null", "false", "0", "[]", "{}":
		return ""
	}
	return "skip"
}

// parseParams reads a params object in order, writing each value as
// Python's requests library does (str(value); True and False capitalised;
// a list gives one parameter per item; None is dropped).
func parseParams(v json.RawMessage) ([]Param, error) {
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	t, err := d.Token()
	if err != nil {
		return nil, fmt.Errorf("request.params: %w", err)
	}
	if t == nil {
		return nil, nil
	}
	if t != json.Delim('{') {
		return nil, fmt.Errorf("request.params is not an object")
	}
	var out []Param
	for d.More() {
		kt, err := d.Token()
		if err != nil {
			return nil, fmt.Errorf("request.params: %w", err)
		}
		k := kt.(string)
		var val any
		if err := d.Decode(&val); err != nil {
			return nil, fmt.Errorf("request.params.%s: %w", k, err)
		}
		items := []any{val}
		if l, ok := val.([]any); ok {
			items = l
		}
		for _, it := range items {
			s, ok, err := pythonStr(it)
			if err != nil {
				return nil, fmt.Errorf("request.params.%s: %w", k, err)
			}
			if ok {
				out = append(out, Param{k, s})
			}
		}
	}
	return out, nil
}

func pythonStr(v any) (string, bool, error) {
	switch t := v.(type) {
	case nil:
		return "", false, nil
	case string:
		return t, true, nil
	case bool:
		if t {
			return "True", true, nil
		}
		return "False", true, nil
	case json.Number:
		if f, err := strconv.ParseFloat(string(t), 64); err == nil && bytes.ContainsAny([]byte(t), ".eE") {
			s := strconv.FormatFloat(f, 'g', -1, 64)
			if !bytes.ContainsAny([]byte(s), ".e") {
				s += ".0"
			}
			return s, true, nil
		}
		return string(t), true, nil
	}
	return "", false, fmt.Errorf("a %T is not a query value", v)
}
