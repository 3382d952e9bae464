package gms_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestEvaluateTests evaluates metadata tests in the core: every test, or
// the ones named; one that does not apply is in neither list, one whose
// definition cannot be read is invalid; push writes testResults without the
// invalid ones; a named test without a testInfo is NotFound.
func TestEvaluateTests(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	test := func(id, def string) {
		t.Helper()
		info, _ := json.Marshal(map[string]any{"name": id, "category": "quality",
			"definition": map[string]any{"type": "JSON", "json": def}})
		if err := c.Put(ctx, "urn:li:test:"+id, "testInfo", info); err != nil {
			t.Fatal(err)
		}
	}
	test("owned", `{"on":{"types":["dataset"]},"rules":[{"property":"ownership.owners.owner","operator":"exists"}]}`)
	test("live", `{"on":{"types":["dataset"]},"rules":[{"property":"status.removed","operator":"equals","values":["false"]}]}`)
	test("charts", `{"on":{"types":["chart"]},"rules":[{"property":"status.removed","operator":"exists"}]}`)
	test("broken", `{"on":{"types":["dataset"]},"rules":[{"property":"status.removed","operator":"sounds_like"}]}`)
	if err := c.Put(ctx, ds, "status", json.RawMessage(`{"removed":false}`)); err != nil {
		t.Fatal(err)
	}
	ev, err := c.EvaluateTests(ctx, ds, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"urn:li:test:live"}, ev.Passing); diff != "" {
		t.Errorf("passing (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"urn:li:test:owned"}, ev.Failing); diff != "" {
		t.Errorf("failing (-want +got):\n%s", diff)
	}
	if len(ev.Invalid) != 1 || ev.Invalid[0].Test != "urn:li:test:broken" {
		t.Errorf("invalid = %+v, want the broken test", ev.Invalid)
	}
	got, err := c.LoadAspect(ctx, ds, "testResults", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"failing":[{"test":"urn:li:test:owned","type":"FAILURE"}],"passing":[{"test":"urn:li:test:live","type":"SUCCESS"}]}`
	if string(got.Value) != want {
		t.Errorf("pushed testResults = %s, want %s", got.Value, want)
	}
	if _, err := c.EvaluateTests(ctx, ds, []string{"urn:li:test:none"}, false); kindOf(err) != gms.NotFound {
		t.Errorf("unknown test: %v, want NotFound", err)
	}
}
