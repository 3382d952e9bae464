package datahub_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
)

// TestFromEnv follows DataHub's Python config_utils.get_details_from_env.
// It sets environment variables, so it does not run in parallel.
func TestFromEnv(t *testing.T) {
	tests := []struct {
		name      string
		env       map[string]string
		wantURL   string
		wantToken bool
		wantErr   error
		// wantMsg, when set, is a text the error must contain.
		wantMsg string
	}{
		{name: "url and token", env: map[string]string{"DATAHUB_GMS_URL": "http://gms:8080", "DATAHUB_GMS_TOKEN": "tok"}, wantURL: "http://gms:8080", wantToken: true},
		{name: "url only", env: map[string]string{"DATAHUB_GMS_URL": "https://dh.example.com/api/gms"}, wantURL: "https://dh.example.com/api/gms"},
		{name: "host and port win over url", env: map[string]string{"DATAHUB_GMS_URL": "http://other:1", "DATAHUB_GMS_HOST": "gms", "DATAHUB_GMS_PORT": "8080"}, wantURL: "http://gms:8080"},
		{name: "protocol", env: map[string]string{"DATAHUB_GMS_HOST": "gms", "DATAHUB_GMS_PORT": "443", "DATAHUB_GMS_PROTOCOL": "https"}, wantURL: "https://gms:443"},
		{name: "host as url", env: map[string]string{"DATAHUB_GMS_HOST": "http://gms:9002"}, wantURL: "http://gms:9002"},
		{name: "url wins over host without port", env: map[string]string{"DATAHUB_GMS_URL": "http://a:1", "DATAHUB_GMS_HOST": "http://b:2"}, wantURL: "http://a:1"},
		{name: "blank counts as unset", env: map[string]string{"DATAHUB_GMS_URL": "  ", "DATAHUB_GMS_TOKEN": " "}, wantErr: datahub.ErrValidation},
		{name: "nothing", env: map[string]string{}, wantErr: datahub.ErrValidation, wantMsg: "DATAHUB_GMS_HOST"},
		{name: "port without host", env: map[string]string{"DATAHUB_GMS_PORT": "8080"}, wantErr: datahub.ErrValidation, wantMsg: "DATAHUB_GMS_PORT is set but DATAHUB_GMS_HOST is not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{datahub.EnvGMSURL, datahub.EnvGMSToken, datahub.EnvGMSHost, datahub.EnvGMSPort, datahub.EnvGMSProtocol, datahub.EnvSkipConfig} {
				t.Setenv(k, tt.env[k])
			}
			t.Setenv("HOME", t.TempDir()) // no ~/.datahubenv
			url, opts, err := datahub.FromEnv()
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), tt.wantMsg) {
					t.Errorf("err = %v, want it to say %q", err, tt.wantMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if url != tt.wantURL {
				t.Errorf("url = %q, want %q", url, tt.wantURL)
			}
			if got := len(opts) == 1; got != tt.wantToken {
				t.Errorf("%d options, want a token option: %v", len(opts), tt.wantToken)
			}
		})
	}
}

func ExampleFromEnv() {
	// Set by the deployment, as for DataHub's Python SDK.
	os.Setenv("DATAHUB_GMS_URL", "http://datahub-gms:8080")
	os.Setenv("DATAHUB_GMS_TOKEN", "eyJhbGciOi...")
	defer os.Unsetenv("DATAHUB_GMS_URL")
	defer os.Unsetenv("DATAHUB_GMS_TOKEN")

	server, opts, err := datahub.FromEnv()
	if err != nil {
		log.Fatal(err)
	}
	// Give server and opts to emitter.NewREST or client.New, with more options:
	//   em, err := emitter.NewREST(server, append(opts, datahub.WithTimeout(10*time.Second))...)
	fmt.Println(server, len(opts))
	// Output: http://datahub-gms:8080 1
}
