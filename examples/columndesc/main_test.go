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

// TestRunTagsAColumn: the column named by its simple form is tagged and
// classified under the schema's version-2 path, and the GraphQL read shows
// both on it.
func TestRunTagsAColumn(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), "", "", &out); err != nil {
		t.Fatalf("run: %v\noutput:\n%s", err, out.String())
	}
	want := "urn:li:dataset:(urn:li:dataPlatform:hive,analytics.customers,PROD):\n" +
		"  [version=2.0].[type=long].id\n" +
		"  [version=2.0].[type=struct].address.[type=string].city tag=urn:li:tag:pii term=urn:li:glossaryTerm:Geography.City\n"
	if !strings.HasSuffix(out.String(), want) {
		t.Errorf("output does not end with %q\noutput:\n%s", want, out.String())
	}
}
