package conformance_test

// mockSkips lists the steps of DataHub's fixtures that the mock does not
// pass, each with the reason. TestMock fails when a listed step passes, so
// the list holds only what still differs.
var mockSkips = map[string]string{}
