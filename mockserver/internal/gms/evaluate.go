package gms

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/metatest"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Mock: the refusals and the invalid-test reason of /test?action=evaluate
// (DataHub's resource is SaaS-only).
const (
	MsgTestNotFound   = "Test %s does not exist or has no testInfo (datahub-mock)"
	MsgTestDefinition = "cannot be evaluated by datahub-mock: %s"
)

// TestEvaluation is what evaluating the metadata tests against an entity
// found: the URNs of the tests that apply and pass, of those that apply and
// fail, and the tests whose definitions cannot be evaluated.
type TestEvaluation struct {
	Passing, Failing []string
	// Invalid are the tests that apply to the entity (or whose types cannot
	// be read) and whose definitions cannot be evaluated, with why: DataHub
	// leaves them out of both lists and logs them.
	Invalid []InvalidTest
}

// InvalidTest is a test whose definition cannot be evaluated, and why.
type InvalidTest struct {
	Test, Reason string
}

// EvaluateTests evaluates the metadata tests (urn:li:test:* entities with
// a testInfo whose definition is JSON, see package internal/metatest)
// against the entity urn: every test in the store's row order when tests is
// nil, else the tests named, in their order (one without a testInfo is
// NotFound). A test whose on.types leave out the entity's type is skipped
// before the rest of its definition is read; one whose types or conditions
// do not match is in neither list. With push, the results are written as
// the entity's testResults aspect (the invalid tests left out), as an
// UPSERT.
func (c *Core) EvaluateTests(ctx context.Context, urn string, tests []string, push bool) (TestEvaluation, error) {
	parsed, cerr := CheckURN(urn)
	if cerr != nil {
		return TestEvaluation{}, cerr
	}
	c.barrier()
	var defs []store.Aspect
	if tests == nil {
		rows, err := c.st.Rows(store.RowQuery{URNPrefix: "urn:li:test:", Aspect: "testInfo"})
		if err != nil {
			return TestEvaluation{}, errorf(Internal, MsgStore, err)
		}
		defs = rows
	} else {
		for _, t := range tests {
			a, err := c.st.Get(t, "testInfo", 0)
			if err != nil {
				return TestEvaluation{}, errorf(NotFound, MsgTestNotFound, Abbreviate(t))
			}
			defs = append(defs, a)
		}
	}
	latest, err := c.st.Latest(urn)
	if err != nil {
		return TestEvaluation{}, errorf(Internal, MsgStore, err)
	}
	aspects := make(map[string]json.RawMessage, len(latest))
	for _, a := range latest {
		aspects[a.Name] = a.Value
	}
	var ev TestEvaluation
	for _, d := range defs {
		pass, applies, err := evaluateTest(d.Value, urn, parsed.EntityType(), aspects)
		switch {
		case err != nil:
			ev.Invalid = append(ev.Invalid, InvalidTest{Test: d.URN, Reason: fmt.Sprintf(MsgTestDefinition, err)})
		case !applies:
		case pass:
			ev.Passing = append(ev.Passing, d.URN)
		default:
			ev.Failing = append(ev.Failing, d.URN)
		}
	}
	if push {
		if err := c.Put(ctx, urn, "testResults", testResultsValue(ev)); err != nil {
			return TestEvaluation{}, err
		}
	}
	return ev, nil
}

// testResultsValue is the testResults aspect of an evaluation
// (com.linkedin.test.TestResults).
func testResultsValue(ev TestEvaluation) json.RawMessage {
	type result struct {
		Test string `json:"test"`
		Type string `json:"type"`
	}
	v := struct {
		Failing []result `json:"failing"`
		Passing []result `json:"passing"`
	}{Failing: []result{}, Passing: []result{}}
	for _, u := range ev.Failing {
		v.Failing = append(v.Failing, result{Test: u, Type: "FAILURE"})
	}
	for _, u := range ev.Passing {
		v.Passing = append(v.Passing, result{Test: u, Type: "SUCCESS"})
	}
	b, _ := json.Marshal(v)
	return b
}

// evaluateTest runs the definition in a testInfo value against an entity.
func evaluateTest(info json.RawMessage, urn, entityType string, aspects map[string]json.RawMessage) (pass, applies bool, err error) {
	var ti struct {
		Definition struct {
			Type string  `json:"type"`
			JSON *string `json:"json"`
		} `json:"definition"`
	}
	if err := json.Unmarshal(info, &ti); err != nil {
		return false, false, fmt.Errorf("testInfo: %s", JSONErrorText(err))
	}
	if !strings.EqualFold(ti.Definition.Type, "JSON") || ti.Definition.JSON == nil {
		return false, false, &metatest.Error{Path: "testInfo.definition", Msg: "expected type JSON with a json definition"}
	}
	// Only a test that applies to the entity's type must be evaluable.
	if applies, known := metatest.AppliesTo(*ti.Definition.JSON, entityType); known && !applies {
		return false, false, nil
	}
	def, err := metatest.Parse(*ti.Definition.JSON)
	if err != nil {
		return false, false, err
	}
	r, err := def.Evaluate(urn, entityType, aspects)
	if err != nil {
		return false, false, err
	}
	return r.Passes, r.Applies, nil
}
