package client

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestFromEnvDatahubEnvFile builds a client from a ~/.datahubenv in a
// temporary HOME and uses it against a mock that requires the file's
// token. It sets environment variables, so it does not run in parallel.
func TestFromEnvDatahubEnvFile(t *testing.T) {
	s := mockserver.Start(t, mockserver.WithToken("file-token"))
	home := t.TempDir()
	file := "gms:\n  server: " + s.URL() + "\n  token: file-token\n  timeout_sec: 30\n  extra_headers: null\n"
	if err := os.WriteFile(filepath.Join(home, ".datahubenv"), []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	for _, k := range []string{datahub.EnvGMSURL, datahub.EnvGMSToken, datahub.EnvGMSHost, datahub.EnvGMSPort, datahub.EnvSkipConfig} {
		t.Setenv(k, "")
	}
	c, err := FromEnv(WithActor("urn:li:corpuser:ci"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)").(urn.Dataset)
	if err := c.Entities().Create(t.Context(), entity.NewDataset(u, "from the file")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Entities().Get(t.Context(), u); err != nil {
		t.Fatal(err)
	}

	// The environment's server wins, and its token with it.
	t.Setenv(datahub.EnvGMSURL, s.URL())
	c, err = FromEnv()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	if _, err := c.Entities().Get(t.Context(), u); !errors.Is(err, datahub.ErrUnauthorized) {
		t.Errorf("Get with the environment's server and no token: %v, want ErrUnauthorized", err)
	}
}
