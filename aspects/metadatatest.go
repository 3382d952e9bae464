package aspects

// TestInfo describes a DataHub metadata test (aspect "testInfo",
// com.linkedin.test.TestInfo).
type TestInfo struct {
	// Name is the test's name.
	Name string `json:"name"`
	// Category is the test's category.
	Category string `json:"category"`
	// Description documents the test.
	Description *string `json:"description,omitempty"`
	// Definition is the test's configuration.
	Definition TestDefinition `json:"definition"`
}

// AspectName returns "testInfo".
func (TestInfo) AspectName() string { return "testInfo" }

// TestDefinition is the configuration of a metadata test
// (com.linkedin.test.TestDefinition): a JSON document saying which
// entities the test applies to ("on") and what they must meet ("rules").
// Build one with [NewTestDefinition], whose documentation gives the
// grammar and the operators.
type TestDefinition struct {
	// Type is the definition's format.
	Type TestDefinitionType `json:"type"`
	// JSON is the definition in JSON form.
	JSON *string `json:"json,omitempty"`
}

// TestDefinitionType is the format of a test definition
// (com.linkedin.test.TestDefinitionType).
type TestDefinitionType string

// TestDefinitionJSON is the only TestDefinitionType: a JSON or YAML
// definition.
const TestDefinitionJSON TestDefinitionType = "JSON"

// TestResults holds the metadata test results of an entity (aspect
// "testResults", com.linkedin.test.TestResults).
type TestResults struct {
	// Failing are the results of failing tests. Nil is encoded as [].
	Failing []TestResult `json:"failing"`
	// Passing are the results of passing tests. Nil is encoded as [].
	Passing []TestResult `json:"passing"`
}

// AspectName returns "testResults".
func (TestResults) AspectName() string { return "testResults" }

// MarshalJSON encodes r; nil slices are encoded as [].
func (r TestResults) MarshalJSON() ([]byte, error) {
	type plain TestResults
	p := plain(r)
	p.Failing = nonNil(p.Failing)
	p.Passing = nonNil(p.Passing)
	return marshal(p)
}

// TestResult is the result of one metadata test on an entity
// (com.linkedin.test.TestResult).
type TestResult struct {
	// Test is the test's URN, e.g. "urn:li:test:has-owner".
	Test string `json:"test"`
	// Type is the outcome.
	Type TestResultType `json:"type"`
	// TestDefinitionMD5 is the MD5 of the test definition that produced the
	// result.
	TestDefinitionMD5 *string `json:"testDefinitionMd5,omitempty"`
	// LastComputed says when and by whom the result was computed.
	LastComputed *AuditStamp `json:"lastComputed,omitempty"`
}

// TestResultType is the outcome of a metadata test
// (com.linkedin.test.TestResultType).
type TestResultType string

// TestResultType values, in PDL order.
const (
	TestResultSuccess TestResultType = "SUCCESS" // the test succeeded
	TestResultFailure TestResultType = "FAILURE" // the test failed
)
