package client

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/catalogkit/datahub-go/urn"
)

const pathEvaluateTests = "/test?action=evaluate"

// EvaluateOptions narrow EvaluateTests.
type EvaluateOptions struct {
	// Tests evaluates only these tests (urn:li:test:...); nil evaluates
	// every test that applies to the entity.
	Tests []string
	// Push stores the results on the entity (its testResults aspect).
	Push bool
}

// TestEvaluation are the metadata tests an entity passes and fails.
type TestEvaluation struct {
	// Passing are the tests the entity passes.
	Passing []TestOutcome `json:"passing"`
	// Failing are the tests the entity fails.
	Failing []TestOutcome `json:"failing"`
	// Invalid are the tests that apply to the entity but whose definitions
	// the server could not evaluate (an unknown operator, a malformed
	// rule), each with the reason; they are in neither list. Only the mock
	// server reports them: DataHub leaves such a test out of the results
	// without a word (its test engine logs it), so there Invalid is empty.
	Invalid []InvalidTest `json:"invalid,omitempty"`
}

// InvalidTest is a metadata test whose definition could not be evaluated.
type InvalidTest struct {
	// Test is the test's URN.
	Test string `json:"test"`
	// Error says what is wrong and where in the definition, such as
	// `rules.or[1].operator: unsupported operator "fuzzy"`.
	Error string `json:"error"`
}

// TestOutcome is one test's outcome for an entity.
type TestOutcome struct {
	// Test is the test's URN.
	Test string `json:"test"`
	// Type is "SUCCESS" or "FAILURE".
	Type string `json:"type"`
}

// EvaluateTests runs the metadata tests that apply to entity u: POST
// /test?action=evaluate with the parameters urn, testUrns and shouldPush, as
// DataHub's documentation names them
// (https://docs.datahub.com/docs/api/restli/evaluate-tests) (DataHub's own resource,
// available on DataHub Cloud, names the last two tests and push; the mock
// server accepts both spellings).
//
// A metadata test is a test entity (urn:li:test:<id>) whose testInfo
// aspect holds its definition: write it with [aspects.NewTestDefinition],
// whose documentation gives the grammar ("on" the entity types and
// conditions it applies to, "rules" it must meet, operators such as
// exists, equals and regex). A test that does not apply to u is in
// neither list of the results. A definition the server cannot evaluate
// spoils only its own test: DataHub's test engine leaves it out of the
// results (and its createTest and updateTest mutations refuse it); the
// mock server does too, and names it in [TestResults.Invalid].
func (c *Client) EvaluateTests(ctx context.Context, u urn.URN, opts EvaluateOptions) (*TestEvaluation, error) {
	p := map[string]any{"urn": u.String()}
	if opts.Tests != nil {
		p["testUrns"] = opts.Tests
	}
	if opts.Push {
		p["shouldPush"] = true
	}
	v, err := c.postAction(ctx, pathEvaluateTests, p, false)
	if err != nil {
		return nil, err
	}
	obj, ok := stringOrObject(v)
	if !ok {
		return nil, fmt.Errorf("client: evaluate tests of %s: answer is not a JSON object: %.200s", u, v)
	}
	res := &TestEvaluation{}
	if err := json.Unmarshal(obj, res); err != nil {
		return nil, fmt.Errorf("client: evaluate tests of %s: %w", u, err)
	}
	if res.Passing == nil {
		res.Passing = []TestOutcome{}
	}
	if res.Failing == nil {
		res.Failing = []TestOutcome{}
	}
	return res, nil
}
