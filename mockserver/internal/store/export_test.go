package store

// UseRulesInTests makes every Store the tests open start with r: the
// store's behaviour under test is the rules core's (see rules_test.go).
func UseRulesInTests(r Rules) { defaultRules = r }

// DefaultActor and DefaultRunID are the rules core's defaults as the tests
// name them (rules_test.go holds them to the core's).
const (
	DefaultActor = "urn:li:corpuser:__datahub_system"
	DefaultRunID = "no-run-id-provided"
)
