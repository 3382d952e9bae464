package pdl_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/testshared"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// docAspect is an aspect value found in DataHub's own documentation.
type docAspect struct {
	where, record string
	value         any
}

var codeBlock = regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")

// collectDocAspects walks JSON values for the two shapes GMS answers with: a union keyed by a
// record name ({"com.linkedin.schema.SchemaMetadata": {...}}) and an enveloped aspect
// ({"name": "ownership", "value": {...}}).
func collectDocAspects(where string, v any, out *[]docAspect) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 1 {
			for k, inner := range t {
				if _, ok := pdl.Record(k); ok && strings.HasPrefix(k, "com.linkedin.") {
					if _, isObj := inner.(map[string]any); isObj {
						*out = append(*out, docAspect{where + " " + k, k, inner})
					}
				}
			}
		}
		if name, ok := t["name"].(string); ok {
			if info, ok := pdl.LookupAspect(name); ok {
				if val, ok := t["value"].(map[string]any); ok {
					*out = append(*out, docAspect{where + " " + name, info.RecordName, val})
				}
			}
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			collectDocAspects(where, t[k], out)
		}
	case []any:
		for _, x := range t {
			collectDocAspects(where, x, out)
		}
	}
}

// TestDocExamplesValidate validates every aspect value in the JSON examples of DataHub's Rest.li
// docs (reference/datahub/docs/api/restli) against the generated schemas.
func TestDocExamplesValidate(t *testing.T) {
	t.Parallel()
	ref := testshared.Path(t, "reference", "datahub")
	files, err := filepath.Glob(filepath.Join(ref, "docs", "api", "restli", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Rest.li docs under %s: %v", ref, err)
	}
	var found []docAspect
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range codeBlock.FindAllSubmatch(data, -1) {
			dec := json.NewDecoder(bytes.NewReader(m[1]))
			dec.UseNumber()
			var v any
			if dec.Decode(&v) != nil {
				continue // curl commands, elided examples
			}
			collectDocAspects(filepath.Base(f)+" block "+strconv.Itoa(i), v, &found)
		}
	}
	if len(found) < 5 {
		t.Fatalf("found only %d aspect values in the docs", len(found))
	}
	for _, a := range found {
		if err := pdl.Validate(a.record, a.value); err != nil {
			t.Errorf("%s: %v", a.where, err)
		}
	}
	seen := map[string]bool{}
	var records []string
	for _, a := range found {
		if !seen[a.record] {
			seen[a.record] = true
			records = append(records, a.record)
		}
	}
	slices.Sort(records)
	t.Logf("validated %d aspect values from DataHub's Rest.li docs: %s", len(found), strings.Join(records, " "))
}
