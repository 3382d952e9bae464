package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunAgainstEmbeddedMock(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	for _, want := range []string{
		`refused: client: dataset urn:li:dataset:(urn:li:dataPlatform:hive,analytics.users,PROD) has no field "no_such_column"`,
		"urn:li:dataset:(urn:li:dataPlatform:hive,analytics.users,PROD): One row per registered user.\n" +
			"  user_id: Stable user id.\n" +
			"  country: ISO 3166-1 alpha-2 code.\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q\noutput:\n%s", want, out.String())
		}
	}
}
