package patch_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
)

// FuzzApply checks that Apply never panics, that it fails only with an
// *patch.Error of a known kind, and that a success is a JSON object.
func FuzzApply(f *testing.F) {
	seeds := []struct{ aspect, current, patch string }{
		{"globalTags", `{"tags":[{"tag":"urn:li:tag:a"}]}`, `[{"op":"add","path":"/tags/urn:li:tag:b","value":{"tag":"urn:li:tag:b"}}]`},
		{"ownership", ``, `[{"op":"add","path":"/owners/u/T","value":{"owner":"u","type":"T"}}]`},
		{"upstreamLineage", `{"upstreams":[],"fineGrainedLineages":[{"downstreams":["d"],"upstreams":["u"]}]}`, `[{"op":"remove","path":"/fineGrainedLineages/NONE/d/NONE/u"}]`},
		{"editableSchemaMetadata", `{"editableSchemaFieldInfo":[{"fieldPath":"a","globalTags":{"tags":[]}}]}`, `[{"op":"add","path":"/editableSchemaFieldInfo/a/globalTags/tags/t","value":{"tag":"t"}}]`},
		{"institutionalMemory", `{"elements":[]}`, `{"patch":[{"op":"move","from":"/elements","path":"/x"}],"arrayPrimaryKeys":{"elements":["url","a␟b"]}}`},
		{"datasetProperties", `{}`, `[{"op":"copy","from":"/tags","path":"/customProperties/x"},{"op":"test","path":"/tags","value":[]}]`},
		{"status", `{"removed":false}`, `[{"op":"replace","path":"","value":{"removed":true}}]`},
	}
	for _, s := range seeds {
		f.Add(s.aspect, []byte(s.current), []byte(s.patch))
	}
	kinds := []error{patch.ErrBadPatch, patch.ErrBadOp, patch.ErrBadPath, patch.ErrTestFailed, patch.ErrNoTemplate, patch.ErrBadAspect}
	f.Fuzz(func(t *testing.T, aspect string, current, doc []byte) {
		got, err := patch.Apply(aspect, current, doc)
		if err != nil {
			var pe *patch.Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *patch.Error", err)
			}
			known := false
			for _, k := range kinds {
				known = known || errors.Is(err, k)
			}
			if !known {
				t.Fatalf("error %v has an unknown kind", err)
			}
			return
		}
		var m map[string]any
		if err := json.Unmarshal(got, &m); err != nil {
			t.Fatalf("result %s is not a JSON object: %v", got, err)
		}
	})
}
