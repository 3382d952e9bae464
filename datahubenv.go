package datahub

import (
	"errors"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// envFile is what FromEnv takes from ~/.datahubenv: the "gms" section as
// DataHub's CLI (datahub init) writes it.
type envFile struct {
	server, token string
	timeoutSec    *float64
	retryMaxTimes *int
	headers       map[string]string
}

// parseEnvFile reads the YAML that DataHub's CLI writes to ~/.datahubenv
// (PyYAML's dump of the client config) and returns its gms section. Any
// YAML that PyYAML's safe loader reads is taken; keys other than those
// below are ignored, as the CLI ignores keys it does not know.
func parseEnvFile(data []byte) (envFile, error) {
	var doc struct {
		GMS yaml.Node `yaml:"gms"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return envFile{}, yamlError(err)
	}
	if doc.GMS.Kind == 0 || isYAMLNull(&doc.GMS) {
		return envFile{}, errors.New("no gms section")
	}
	gms, err := yamlMapping(&doc.GMS, "gms")
	if err != nil {
		return envFile{}, err
	}
	var f envFile
	if f.server, err = envString(gms, "server"); err != nil {
		return f, err
	}
	if f.token, err = envString(gms, "token"); err != nil {
		return f, err
	}
	if s, err := envString(gms, "timeout_sec"); err != nil {
		return f, err
	} else if s != "" {
		t, perr := strconv.ParseFloat(s, 64)
		if perr != nil || t < 0 {
			return f, fmt.Errorf("gms.timeout_sec %q is not a number of seconds", s)
		}
		f.timeoutSec = &t
	}
	if s, err := envString(gms, "retry_max_times"); err != nil {
		return f, err
	} else if s != "" {
		n, perr := strconv.Atoi(s)
		if perr != nil || n < 0 {
			return f, fmt.Errorf("gms.retry_max_times %q is not a count", s)
		}
		f.retryMaxTimes = &n
	}
	if h := gms["extra_headers"]; !isYAMLNull(h) {
		m, err := yamlMapping(h, "gms.extra_headers")
		if err != nil {
			return f, err
		}
		f.headers = make(map[string]string, len(m))
		for k, v := range m {
			if v.Kind != yaml.ScalarNode {
				return f, fmt.Errorf("line %d: gms.extra_headers.%s is not a string", v.Line, k)
			}
			if !isYAMLNull(v) {
				f.headers[k] = v.Value
			}
		}
	}
	// Settings that need an HTTP client of the caller's making.
	for _, name := range []string{"ca_certificate_path", "client_certificate_path", "client_key_path", "auth"} {
		if v := gms[name]; !isYAMLNull(v) && (v.Kind != yaml.ScalarNode || v.Value != "") {
			return f, fmt.Errorf("gms.%s is set, which FromEnv does not support: build the http.Client and pass it with WithHTTPClient", name)
		}
	}
	if v := gms["disable_ssl_verification"]; !isYAMLNull(v) {
		var off bool
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || v.Decode(&off) != nil || off {
			return f, fmt.Errorf("gms.disable_ssl_verification is %q, which FromEnv does not support: build the http.Client and pass it with WithHTTPClient", v.Value)
		}
	}
	return f, nil
}

// yamlMapping returns the entries of the mapping n (named name in errors),
// each key once.
func yamlMapping(n *yaml.Node, name string) (map[string]*yaml.Node, error) {
	for n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("line %d: %s is not a mapping", n.Line, name)
	}
	m := make(map[string]*yaml.Node, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		for v.Kind == yaml.AliasNode {
			v = v.Alias
		}
		if k.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("line %d: a key of %s is not a string", k.Line, name)
		}
		m[k.Value] = v
	}
	return m, nil
}

// isYAMLNull reports whether n is absent or a null scalar (null, ~, empty).
func isYAMLNull(n *yaml.Node) bool {
	return n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// envString is the scalar gms.name as text, "" when absent or null.
func envString(gms map[string]*yaml.Node, name string) (string, error) {
	v := gms[name]
	if isYAMLNull(v) {
		return "", nil
	}
	if v.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("line %d: gms.%s is not a string", v.Line, name)
	}
	return v.Value, nil
}

// yamlError drops the library's "yaml: " prefix: the caller names the file.
func yamlError(err error) error {
	msg := err.Error()
	if len(msg) > 6 && msg[:6] == "yaml: " {
		msg = msg[6:]
	}
	return errors.New(msg)
}
