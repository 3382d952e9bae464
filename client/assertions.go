package client

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// Assertions records data quality checks run outside DataHub (custom
// assertions) and their results, as DataHub's Python client does
// (DataHubGraph.upsert_custom_assertion and report_assertion_result):
// through DataHub's GraphQL mutations upsertCustomAssertion,
// reportAssertionResult and deleteAssertion. Read an assertion back with
// [Entities.Get] (an *entity.Assertion: its Info, the assertionInfo
// aspect) and its results with [Assertions.Results]. Get it with
// [Client.Assertions].
type Assertions struct {
	c *Client
}

// Assertions returns the assertion operations of c.
func (c *Client) Assertions() *Assertions { return &Assertions{c: c} }

// CustomAssertion is an assertion evaluated outside DataHub.
type CustomAssertion struct {
	// URN is the assertion to create or replace; zero: DataHub makes a new
	// one.
	URN urn.Assertion
	// Entity is the asserted entity (required).
	Entity urn.URN
	// Type is the kind of check, in the platform's words, such as
	// "Data Diff" (required).
	Type string
	// Description says what it checks (required).
	Description string
	// Platform is the platform that runs it, by name ("dbt") or URN
	// (urn:li:dataPlatform:dbt) (required: DataHub refuses none).
	Platform string
	// FieldPath, when set, is the column it checks.
	FieldPath string
	// ExternalURL links to it on its platform.
	ExternalURL string
	// Logic is its logic, such as SQL.
	Logic string
}

// UpsertCustom creates or replaces a custom assertion and returns its URN.
// DataHub writes its assertionInfo (type CUSTOM, source EXTERNAL) and its
// platform; a missing required member fails with an error matching
// datahub.ErrValidation before anything is sent.
func (a *Assertions) UpsertCustom(ctx context.Context, ca CustomAssertion) (urn.Assertion, error) {
	switch {
	case ca.Entity == nil:
		return urn.Assertion{}, fmt.Errorf("client: upsert custom assertion: no entity: %w", datahub.ErrValidation)
	case ca.Type == "", ca.Description == "", ca.Platform == "":
		return urn.Assertion{}, fmt.Errorf("client: upsert custom assertion on %s: type, description and platform are required: %w", ca.Entity, datahub.ErrValidation)
	}
	vars := map[string]any{"entityUrn": ca.Entity.String(), "type": ca.Type, "description": ca.Description}
	if ca.URN != (urn.Assertion{}) {
		vars["assertionUrn"] = ca.URN.String()
	}
	if strings.HasPrefix(ca.Platform, "urn:") {
		vars["platformUrn"] = ca.Platform
	} else {
		vars["platformName"] = ca.Platform
	}
	for k, v := range map[string]string{"fieldPath": ca.FieldPath, "externalUrl": ca.ExternalURL, "logic": ca.Logic} {
		if v != "" {
			vars[k] = v
		}
	}
	raw, err := a.c.GraphQL(ctx, upsertCustomAssertionMutation, vars, "")
	if err != nil {
		return urn.Assertion{}, fmt.Errorf("client: upsert custom assertion on %s: %w", ca.Entity, err)
	}
	var answer struct {
		UpsertCustomAssertion struct{ URN string }
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return urn.Assertion{}, fmt.Errorf("client: upsert custom assertion on %s: bad answer: %w", ca.Entity, err)
	}
	u, err := urn.ParseAssertion(answer.UpsertCustomAssertion.URN)
	if err != nil {
		return urn.Assertion{}, fmt.Errorf("client: upsert custom assertion on %s: bad answer: %w", ca.Entity, err)
	}
	return u, nil
}

const upsertCustomAssertionMutation = `mutation upsertCustomAssertion($assertionUrn: String, $entityUrn: String!, $type: String!,
  $description: String!, $fieldPath: String, $platformName: String, $platformUrn: String, $externalUrl: String, $logic: String) {
  upsertCustomAssertion(urn: $assertionUrn, input: {entityUrn: $entityUrn, type: $type, description: $description,
    fieldPath: $fieldPath, platform: {urn: $platformUrn, name: $platformName}, externalUrl: $externalUrl, logic: $logic}) { urn }
}`

// AssertionRun is the result of one run of an assertion, to report.
type AssertionRun struct {
	// Type is the outcome (required): SUCCESS, FAILURE, ERROR (the check
	// could not run) or INIT (a first run that sets a baseline).
	Type aspects.AssertionResultType
	// Time is when it ran (zero: now).
	Time time.Time
	// Properties are the run's native results, such as row counts.
	Properties map[string]string
	// ExternalURL links to the run on its platform.
	ExternalURL string
	// ErrorType and ErrorMessage say why an ERROR run failed.
	ErrorType    aspects.AssertionResultErrorType
	ErrorMessage string
	// Severity is a failure's severity ("": none).
	Severity aspects.AssertionResultSeverity
}

// Report records a run of assertion u (an assertionRunEvent). DataHub
// refuses an assertion it does not know or that asserts no entity.
func (a *Assertions) Report(ctx context.Context, u urn.Assertion, r AssertionRun) error {
	if r.Type == "" {
		return fmt.Errorf("client: report a result of %s: no result type: %w", u, datahub.ErrValidation)
	}
	at := r.Time
	if at.IsZero() {
		at = a.c.now()
	}
	vars := map[string]any{"assertionUrn": u.String(), "timestampMillis": at.UnixMilli(), "type": string(r.Type)}
	if len(r.Properties) > 0 {
		props := []map[string]string{}
		for _, k := range slices.Sorted(maps.Keys(r.Properties)) {
			props = append(props, map[string]string{"key": k, "value": r.Properties[k]})
		}
		vars["properties"] = props
	}
	if r.ExternalURL != "" {
		vars["externalUrl"] = r.ExternalURL
	}
	if r.ErrorType != "" {
		vars["error"] = map[string]any{"type": string(r.ErrorType), "message": r.ErrorMessage}
	}
	if r.Severity != "" {
		vars["severity"] = string(r.Severity)
	}
	if _, err := a.c.GraphQL(ctx, reportAssertionResultMutation, vars, ""); err != nil {
		return fmt.Errorf("client: report a result of %s: %w", u, err)
	}
	return nil
}

const reportAssertionResultMutation = `mutation reportAssertionResult($assertionUrn: String!, $timestampMillis: Long!,
  $type: AssertionResultType!, $properties: [StringMapEntryInput!], $externalUrl: String,
  $error: AssertionResultErrorInput, $severity: AssertionResultSeverity) {
  reportAssertionResult(urn: $assertionUrn, result: {timestampMillis: $timestampMillis, type: $type,
    properties: $properties, externalUrl: $externalUrl, error: $error, severity: $severity})
}`

// Results reads the runs of assertion u, newest first, as q selects them.
func (a *Assertions) Results(ctx context.Context, u urn.Assertion, q TimeseriesQuery) ([]aspects.AssertionRunEvent, error) {
	return GetTimeseries[aspects.AssertionRunEvent](ctx, a.c, u, q)
}

// Delete deletes assertion u for good (DataHub's deleteAssertion: a hard
// delete; an assertion that does not exist is no error).
func (a *Assertions) Delete(ctx context.Context, u urn.Assertion) error {
	if _, err := a.c.GraphQL(ctx, `mutation deleteAssertion($urn: String!) { deleteAssertion(urn: $urn) }`,
		map[string]any{"urn": u.String()}, ""); err != nil {
		return fmt.Errorf("client: delete %s: %w", u, err)
	}
	return nil
}
