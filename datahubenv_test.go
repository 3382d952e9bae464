package datahub

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/config"
)

// cliEnvFile is ~/.datahubenv as DataHub's CLI writes it (datahub init:
// PyYAML's dump of the whole client config, keys sorted), with a few
// settings filled in.
const cliEnvFile = `gms:
  auth: null
  ca_certificate_path: null
  client_certificate_path: null
  client_key_path: null
  client_mode: null
  datahub_component: null
  default_emit_mode: null
  disable_ssl_verification: false
  extra_headers:
    X-Team: 'ml platform'
    X-Quoted: "a \"b\""
  openapi_ingestion: null
  pool_connections: null
  pool_maxsize: null
  respect_mcp_sync_marker: null
  retry_max_times: 2
  retry_status_codes:
  - 429
  - 503
  server: http://gms.example.com:8080
  server_config_refresh_interval: null
  tcp_keepalive: true
  timeout_sec: 2.5
  token: eyJhbGciOiJIUzI1NiJ9.e30.sig
oauth:
  client_id: datahub-cli
`

func writeHome(t *testing.T, content string) {
	t.Helper()
	home := t.TempDir()
	if content != "" {
		if err := os.WriteFile(filepath.Join(home, ".datahubenv"), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	for _, k := range []string{EnvGMSURL, EnvGMSToken, EnvGMSHost, EnvGMSPort, EnvGMSProtocol, EnvSkipConfig} {
		t.Setenv(k, "")
	}
}

// settingsOf applies opts as a constructor does.
func settingsOf(t *testing.T, opts []Option) *config.Settings {
	t.Helper()
	s := &config.Settings{}
	config.ApplyClient(s, opts)
	return s
}

// TestFromEnvFile reads ~/.datahubenv from a temporary HOME. It sets
// environment variables, so it does not run in parallel.
func TestFromEnvFile(t *testing.T) {
	t.Run("as the CLI writes it", func(t *testing.T) {
		writeHome(t, cliEnvFile)
		server, opts, err := FromEnv()
		if err != nil {
			t.Fatal(err)
		}
		s := settingsOf(t, opts)
		if server != "http://gms.example.com:8080" || s.Token != "eyJhbGciOiJIUzI1NiJ9.e30.sig" || s.Timeout != 2500*time.Millisecond || s.Retry.MaxAttempts != 3 {
			t.Errorf("server %q token %q timeout %v attempts %d", server, s.Token, s.Timeout, s.Retry.MaxAttempts)
		}
		if diff := cmp.Diff(map[string]string{"X-Team": "ml platform", "X-Quoted": `a "b"`}, s.Headers); diff != "" {
			t.Errorf("headers (-want +got):\n%s", diff)
		}
	})
	t.Run("quoted token", func(t *testing.T) {
		writeHome(t, "# written by hand\ngms:\n  server: http://x\n  token: 'tok''en' # a comment\n")
		_, opts, err := FromEnv()
		if err != nil {
			t.Fatal(err)
		}
		if tok := settingsOf(t, opts).Token; tok != "tok'en" {
			t.Errorf("token %q, want tok'en", tok)
		}
	})
	// YAML that PyYAML's safe loader reads, though the CLI does not write it.
	for _, tc := range []struct{ name, file, server, token string }{
		{"flow mapping", "gms: {server: 'http://x', token: t}\n", "http://x", "t"},
		{"document marker and comments", "%YAML 1.1\n---\n# hand-written\ngms: # the section\n  server: http://x # the URL\n", "http://x", ""},
		{"anchor and alias", "base: &b http://x\ngms:\n  server: *b\n", "http://x", ""},
		{"literal block token", "gms:\n  server: http://x\n  token: |-\n    abc\n", "http://x", "abc"},
		{"folded token", "gms:\n  server: http://x\n  token: >-\n    a\n    b\n", "http://x", "a b"},
		{"double-quoted escapes", "gms:\n  server: \"http://x\"\n  token: \"t\\u00e9\\x41\"\n", "http://x", "t\u00e9A"},
		{"tilde null token", "gms:\n  server: http://x\n  token: ~\n", "http://x", ""},
		{"list under key, indented", "gms:\n  server: http://x\n  retry_status_codes:\n    - 429\n", "http://x", ""},
		{"CRLF line ends", "gms:\r\n  server: http://x\r\n  token: t\r\n", "http://x", "t"},
		{"a second document is ignored", "gms:\n  server: http://x\n---\ngms:\n  server: http://y\n", "http://x", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeHome(t, tc.file)
			server, opts, err := FromEnv()
			if err != nil {
				t.Fatal(err)
			}
			if tok := settingsOf(t, opts).Token; server != tc.server || tok != tc.token {
				t.Errorf("server %q token %q, want %q %q", server, tok, tc.server, tc.token)
			}
		})
	}
	t.Run("headers of every scalar type", func(t *testing.T) {
		writeHome(t, "gms:\n  server: http://x\n  extra_headers:\n    X-Num: 5\n    X-Bool: true\n    X-Null: null\n  disable_ssl_verification: False\n")
		_, opts, err := FromEnv()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(map[string]string{"X-Num": "5", "X-Bool": "true"}, settingsOf(t, opts).Headers); diff != "" {
			t.Errorf("headers (-want +got):\n%s", diff)
		}
	})
	t.Run("environment wins, file token unused", func(t *testing.T) {
		writeHome(t, cliEnvFile)
		t.Setenv(EnvGMSURL, "http://env:8080")
		server, opts, err := FromEnv()
		if err != nil {
			t.Fatal(err)
		}
		if s := settingsOf(t, opts); server != "http://env:8080" || s.Token != "" || len(opts) != 0 {
			t.Errorf("server %q, %d options, token %q; want the environment's URL alone", server, len(opts), s.Token)
		}
	})
	t.Run("file wins over a lone env token", func(t *testing.T) {
		writeHome(t, "gms:\n  server: http://file:8080\n  token: null\n")
		t.Setenv(EnvGMSToken, "env-token")
		server, opts, err := FromEnv()
		if err != nil {
			t.Fatal(err)
		}
		if server != "http://file:8080" || len(opts) != 0 {
			t.Errorf("server %q, %d options; want the file's server and no token (as Python)", server, len(opts))
		}
	})
	for _, tc := range []struct{ name, file, skip, msg string }{
		{"no file", "", "", ""},
		{"skip config", cliEnvFile, "TRUE", "DATAHUB_SKIP_CONFIG is true"},
		{"no server", "gms:\n  token: x\n", "", "has no gms.server"},
		{"no gms", "oauth:\n  client_id: x\n", "", "no gms section"},
		{"gms not a mapping", "gms: http://x\n", "", "line 1: gms is not a mapping"},
		{"null gms", "gms:\n", "", "no gms section"},
		{"server a mapping", "gms:\n  server:\n    host: x\n", "", "line 3: gms.server is not a string"},
		{"headers a list", "gms:\n  server: x\n  extra_headers:\n  - a\n", "", "line 4: gms.extra_headers is not a mapping"},
		{"header a list", "gms:\n  server: x\n  extra_headers:\n    A: [1]\n", "", "line 4: gms.extra_headers.A is not a string"},
		{"unterminated quote", "gms:\n  server: 'x\n", "", "line 2: found unexpected end of stream"},
		{"tab indentation", "gms:\n\tserver: x\n", "", "line 2: found character that cannot start any token"},
		{"negative retries", "gms:\n  server: x\n  retry_max_times: -1\n", "", `gms.retry_max_times "-1" is not a count`},
		{"TLS verification as a string", "gms:\n  server: https://x\n  disable_ssl_verification: 'false'\n", "", `gms.disable_ssl_verification is "false"`},
		{"auth mapping", "gms:\n  server: https://x\n  auth:\n    user: u\n", "", "gms.auth is set"},
		{"certificates", "gms:\n  server: https://x\n  ca_certificate_path: /etc/ca.pem\n", "", "gms.ca_certificate_path is set"},
		{"no TLS verification", "gms:\n  server: https://x\n  disable_ssl_verification: true\n", "", "gms.disable_ssl_verification"},
		{"bad indentation", "gms:\n  server: x\n    token: y\n", "", "line 3: mapping values are not allowed in this context"},
		{"bad timeout", "gms:\n  server: x\n  timeout_sec: soon\n", "", "gms.timeout_sec"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writeHome(t, tc.file)
			t.Setenv(EnvSkipConfig, tc.skip)
			_, _, err := FromEnv()
			msg := tc.msg
			if tc.name == "no file" {
				msg = ".datahubenv (DataHub's CLI writes it with datahub init)"
			}
			if !errors.Is(err, ErrValidation) || !strings.Contains(err.Error(), msg) {
				t.Errorf("FromEnv: %v, want ErrValidation saying %q", err, msg)
			}
		})
	}
}
