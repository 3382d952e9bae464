package gms

import (
	"context"
	"encoding/json"
	"strconv"
)

// DataHub's texts of the assertion mutations (UpsertCustomAssertionResolver,
// ReportAssertionResultResolver).
const (
	MsgAssertionNoPlatform = "Failed to upsert Custom Assertion. Platform Name or Platform Urn must be specified."
	MsgAssertionNoEntity   = "Failed to report Assertion Run Event. Assertion with urn %s does not exist or is not associated with any entity."
)

// CustomAssertionInput is DataHub's UpsertCustomAssertionInput.
type CustomAssertionInput struct {
	EntityURN, Type, Description  string
	ExternalURL, Logic, FieldPath *string
	// PlatformURN or PlatformName name the assertion's platform.
	PlatformURN, PlatformName *string
}

// UpsertCustomAssertion creates or replaces a custom assertion as DataHub's
// upsertCustomAssertion and returns its URN (u, or a new random one when u
// is ""): assertionInfo (type CUSTOM, the description, external URL,
// source EXTERNAL, customAssertion with the entity, type, logic and the
// schema field of the field path) and dataPlatformInstance are written in
// one batch.
func (c *Core) UpsertCustomAssertion(ctx context.Context, u string, in CustomAssertionInput) (string, error) {
	if u == "" {
		u = "urn:li:assertion:" + randomUUID()
	}
	if err := checkURNs(u, in.EntityURN); err != nil {
		return "", err
	}
	var platform string
	switch {
	case in.PlatformURN != nil:
		platform = *in.PlatformURN
		if err := checkURNs(platform); err != nil {
			return "", err
		}
	case in.PlatformName != nil:
		platform = "urn:li:dataPlatform:" + *in.PlatformName
	default:
		return "", errorf(BadArgument, "%s", MsgAssertionNoPlatform)
	}
	custom := map[string]any{"type": in.Type, "entity": in.EntityURN}
	if in.Logic != nil {
		custom["logic"] = *in.Logic
	}
	if in.FieldPath != nil {
		custom["field"] = "urn:li:schemaField:(" + in.EntityURN + "," + *in.FieldPath + ")"
	}
	info := map[string]any{"type": "CUSTOM", "description": in.Description, "source": map[string]any{"type": "EXTERNAL"},
		"customAssertion": custom}
	if in.ExternalURL != nil {
		info["externalUrl"] = *in.ExternalURL
	}
	if err := c.writeAll(ctx, u, map[string]any{"assertionInfo": info, "dataPlatformInstance": map[string]any{"platform": platform}}); err != nil {
		return "", err
	}
	return u, nil
}

// AssertionResult is DataHub's AssertionResultInput.
type AssertionResult struct {
	// TimestampMillis is when it ran (nil: now).
	TimestampMillis *int64
	// Type is SUCCESS, FAILURE or ERROR.
	Type        string
	ExternalURL *string
	// Properties are the native results (key, value pairs in order).
	Properties [][2]string
	// ErrorType and ErrorMessage are an ERROR's error (ErrorType "": none).
	ErrorType, ErrorMessage string
	// Severity is a FAILURE's severity ("": none).
	Severity string
}

// ReportAssertionResult records a run of an assertion as DataHub's
// reportAssertionResult: the assertion must assert an entity (read from its
// assertionInfo; DataHub's 500 otherwise); an assertionRunEvent (runId the
// timestamp, status COMPLETE) is written.
func (c *Core) ReportAssertionResult(ctx context.Context, u string, r AssertionResult) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	info, err := c.latestObject(ctx, u, "assertionInfo")
	if err != nil {
		return err
	}
	assertee := asserteeOf(info)
	if assertee == "" {
		return errorf(Internal, MsgAssertionNoEntity, u)
	}
	ts := c.opts.Clock().UnixMilli()
	if r.TimestampMillis != nil {
		ts = *r.TimestampMillis
	}
	result := map[string]any{"type": r.Type}
	if r.ExternalURL != nil {
		result["externalUrl"] = *r.ExternalURL
	}
	if r.Type == "ERROR" && r.ErrorType != "" {
		result["error"] = map[string]any{"type": r.ErrorType, "properties": map[string]any{"message": r.ErrorMessage}}
	}
	if len(r.Properties) > 0 {
		native := map[string]any{}
		for _, kv := range r.Properties {
			native[kv[0]] = kv[1]
		}
		result["nativeResults"] = native
	}
	if r.Type == "FAILURE" && r.Severity != "" {
		result["severity"] = r.Severity
	}
	event, _ := json.Marshal(map[string]any{"timestampMillis": ts, "runId": strconv.FormatInt(ts, 10), "assertionUrn": u,
		"asserteeUrn": assertee, "status": "COMPLETE", "result": result})
	return c.Ingest(ctx, []Proposal{{EntityType: "assertion", EntityURN: u, ChangeType: "UPSERT", AspectName: "assertionRunEvent",
		Aspect: event, ContentType: "application/json"}}, IngestOptions{})
}

// asserteeOf is the entity an assertionInfo asserts ("" for none): the
// target of its Asserts relationship.
func asserteeOf(info map[string]any) string {
	for _, k := range []string{"customAssertion", "freshnessAssertion", "volumeAssertion", "sqlAssertion",
		"fieldAssertion", "schemaAssertion"} {
		if m, ok := info[k].(map[string]any); ok {
			if e := strMember(m, "entity"); e != "" {
				return e
			}
		}
	}
	if m, ok := info["datasetAssertion"].(map[string]any); ok {
		return strMember(m, "dataset")
	}
	return ""
}

// DeleteAssertion hard-deletes an assertion as DataHub's deleteAssertion
// (a missing one too: true).
func (c *Core) DeleteAssertion(ctx context.Context, u string) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	_, err := c.DeleteEntity(ctx, u, "")
	return err
}
