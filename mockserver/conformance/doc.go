// Package conformance runs DataHub's OpenAPI request/response fixtures
// against a DataHub GMS or the mock server, and compares the answers as
// DataHub's own smoke tests do.
//
// DataHub publishes its OpenAPI checks as JSON files
// (smoke-test/tests/openapi/{v1,v2,v3,openlineage}/*.json in DataHub's
// repository): each file is a list of steps, each step a request (url,
// method, params, json, headers, and the markers skip and wait) and what its
// answer must be (status_codes, json, exclude_regex_paths). [Load] and
// [Parse] read such files, [Run] sends a fixture's steps in order to a
// [Target], and [Compare] checks an answer the way DataHub's runner does:
// the order of array items and repeated items do not matter, an integer and
// a number with a fraction (30 and 30.0) differ, and paths matched by an
// exclude expression are not compared. [Contrast] lists where two servers'
// runs of the same fixtures differ, so that a user learns where the mock and
// their DataHub version part ways.
//
// This package's tests carry DataHub's fixtures at one commit as test data
// and run them against the mock, with a skip list giving the reason for each
// step the mock does not pass. With DATAHUB_CONFORMANCE_URL (and, when
// authentication is on, DATAHUB_CONFORMANCE_TOKEN) set they also run them
// against that GMS and print where it and the mock differ:
//
//	DATAHUB_CONFORMANCE_URL=http://localhost:8080 go test -run TestGMS -v ./mockserver/conformance
//
// Steps write and delete entities with the fixtures' URNs (urn:li:dataset:(urn:li:dataPlatform:test,…))
// and structured properties named io.acryl.*: do not run them against a
// server whose data matters.
package conformance
