package datahub

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// envFile is what FromEnv takes from ~/.datahubenv: the "gms" section as
// DataHub's CLI (datahub init) writes it.
type envFile struct {
	server, token string
	timeoutSec    *float64
	retryMaxTimes *int
	headers       map[string]string
}

// yamlNode is a value of the small YAML subset parseEnvFile reads: a
// scalar (null when isNull), a mapping or a list.
type yamlNode struct {
	scalar string
	isNull bool
	m      map[string]*yamlNode
	list   []*yamlNode
}

// parseEnvFile reads the YAML that DataHub's CLI writes to ~/.datahubenv
// (PyYAML's block style: nested mappings indented by spaces, block lists,
// plain, single- and double-quoted scalars, null, comments) and returns its
// gms section. Flow collections and multi-line scalars, which the CLI does
// not write, are refused with an error naming the line.
func parseEnvFile(data []byte) (envFile, error) {
	type line struct {
		no, indent int
		text       string
	}
	var lines []line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for no := 1; sc.Scan(); no++ {
		raw := strings.TrimRight(sc.Text(), " \t\r")
		trimmed := strings.TrimLeft(raw, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") || trimmed == "---" {
			continue
		}
		if strings.HasPrefix(trimmed, "\t") {
			return envFile{}, fmt.Errorf("line %d: a tab in the indentation", no)
		}
		lines = append(lines, line{no: no, indent: len(raw) - len(trimmed), text: trimmed})
	}
	if err := sc.Err(); err != nil {
		return envFile{}, err
	}
	pos := 0
	// block parses the lines at indent from pos into a mapping or a list.
	var block func(indent int) (*yamlNode, error)
	block = func(indent int) (*yamlNode, error) {
		n := &yamlNode{}
		for pos < len(lines) && lines[pos].indent >= indent {
			l := lines[pos]
			if l.indent > indent {
				return nil, fmt.Errorf("line %d: unexpected indentation", l.no)
			}
			if item, ok := strings.CutPrefix(l.text, "-"); ok && (item == "" || item[0] == ' ') {
				if n.m != nil {
					return nil, fmt.Errorf("line %d: a list item in a mapping", l.no)
				}
				pos++
				v, err := scalar(strings.TrimSpace(item), l.no)
				if err != nil {
					return nil, err
				}
				n.list = append(n.list, v)
				continue
			}
			if n.list != nil {
				return nil, fmt.Errorf("line %d: a mapping key in a list", l.no)
			}
			key, rest, ok := cutKey(l.text)
			if !ok {
				return nil, fmt.Errorf("line %d: not a \"key: value\" line", l.no)
			}
			if n.m == nil {
				n.m = map[string]*yamlNode{}
			}
			pos++
			var v *yamlNode
			var err error
			switch {
			case rest != "":
				v, err = scalar(rest, l.no)
			case pos < len(lines) && lines[pos].indent > indent:
				v, err = block(lines[pos].indent)
			case pos < len(lines) && lines[pos].indent == indent && strings.HasPrefix(lines[pos].text, "- "):
				// PyYAML writes a list under a key at the key's indentation.
				v = &yamlNode{list: []*yamlNode{}}
				for err == nil && pos < len(lines) && lines[pos].indent == indent && strings.HasPrefix(lines[pos].text, "- ") {
					var item *yamlNode
					item, err = scalar(strings.TrimSpace(lines[pos].text[2:]), lines[pos].no)
					v.list = append(v.list, item)
					pos++
				}
			default:
				v = &yamlNode{isNull: true}
			}
			if err != nil {
				return nil, err
			}
			n.m[key] = v
		}
		return n, nil
	}
	root, err := block(0)
	if err != nil {
		return envFile{}, err
	}
	if pos < len(lines) {
		return envFile{}, fmt.Errorf("line %d: unexpected indentation", lines[pos].no)
	}
	gms := root.m["gms"]
	if gms == nil || gms.m == nil {
		return envFile{}, fmt.Errorf("no gms section")
	}
	var f envFile
	str := func(name string) (string, error) {
		v := gms.m[name]
		if v == nil || v.isNull {
			return "", nil
		}
		if v.m != nil || v.list != nil {
			return "", fmt.Errorf("gms.%s is not a string", name)
		}
		return v.scalar, nil
	}
	if f.server, err = str("server"); err != nil {
		return f, err
	}
	if f.token, err = str("token"); err != nil {
		return f, err
	}
	if s, err := str("timeout_sec"); err != nil {
		return f, err
	} else if s != "" {
		t, perr := strconv.ParseFloat(s, 64)
		if perr != nil || t < 0 {
			return f, fmt.Errorf("gms.timeout_sec %q is not a number of seconds", s)
		}
		f.timeoutSec = &t
	}
	if s, err := str("retry_max_times"); err != nil {
		return f, err
	} else if s != "" {
		n, perr := strconv.Atoi(s)
		if perr != nil || n < 0 {
			return f, fmt.Errorf("gms.retry_max_times %q is not a count", s)
		}
		f.retryMaxTimes = &n
	}
	if h := gms.m["extra_headers"]; h != nil && !h.isNull {
		if h.m == nil {
			return f, fmt.Errorf("gms.extra_headers is not a mapping")
		}
		f.headers = map[string]string{}
		for k, v := range h.m {
			if v.m != nil || v.list != nil {
				return f, fmt.Errorf("gms.extra_headers.%s is not a string", k)
			}
			f.headers[k] = v.scalar
		}
	}
	// Settings that need an HTTP client of the caller's making.
	for _, name := range []string{"ca_certificate_path", "client_certificate_path", "client_key_path", "auth"} {
		if v := gms.m[name]; v != nil && !v.isNull && (v.scalar != "" || v.m != nil) {
			return f, fmt.Errorf("gms.%s is set, which FromEnv does not support: build the http.Client and pass it with WithHTTPClient", name)
		}
	}
	if v := gms.m["disable_ssl_verification"]; v != nil && !v.isNull && v.scalar != "false" {
		return f, fmt.Errorf("gms.disable_ssl_verification is %q, which FromEnv does not support: build the http.Client and pass it with WithHTTPClient", v.scalar)
	}
	return f, nil
}

// cutKey splits "key: rest" (a plain or quoted key).
func cutKey(s string) (key, rest string, ok bool) {
	if s != "" && (s[0] == '\'' || s[0] == '"') {
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", "", false
		}
		key, s = s[1:end+1], s[end+2:]
		if !strings.HasPrefix(s, ":") {
			return "", "", false
		}
		return key, strings.TrimSpace(s[1:]), true
	}
	i := strings.Index(s, ": ")
	if i < 0 {
		if k, ok := strings.CutSuffix(s, ":"); ok {
			return k, "", true
		}
		return "", "", false
	}
	return s[:i], strings.TrimSpace(s[i+2:]), true
}

// scalar parses a one-line scalar.
func scalar(s string, no int) (*yamlNode, error) {
	switch {
	case s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL":
		return &yamlNode{isNull: true}, nil
	case s == "{}":
		return &yamlNode{m: map[string]*yamlNode{}}, nil
	case s == "[]":
		return &yamlNode{list: []*yamlNode{}}, nil
	case s[0] == '\'':
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch {
			case s[i] != '\'':
				b.WriteByte(s[i])
			case i+1 < len(s) && s[i+1] == '\'':
				b.WriteByte('\'')
				i++
			default:
				if rest := strings.TrimSpace(s[i+1:]); rest != "" && !strings.HasPrefix(rest, "#") {
					return nil, fmt.Errorf("line %d: text after a quoted value: %s", no, rest)
				}
				return &yamlNode{scalar: b.String()}, nil
			}
		}
		return nil, fmt.Errorf("line %d: unterminated quoted value", no)
	case s[0] == '"':
		if i := strings.LastIndex(s, "\" #"); i > 0 {
			s = s[:i+1]
		}
		v, err := strconv.Unquote(s)
		if err != nil {
			return nil, fmt.Errorf("line %d: a double-quoted value this reader does not handle: %s", no, s)
		}
		return &yamlNode{scalar: v}, nil
	case s[0] == '{' || s[0] == '[' || s[0] == '|' || s[0] == '>' || s[0] == '&' || s[0] == '*' || s[0] == '!':
		return nil, fmt.Errorf("line %d: a YAML form this reader does not handle (flow collections, block scalars, anchors, tags): %s", no, s)
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return &yamlNode{scalar: s}, nil
}
