package datahub

// The settings of ForTests, for the tests of package datahub_test.
const (
	TestMaxAttempts      = testMaxAttempts
	TestConflictAttempts = testConflictAttempts
)
