package restli

import (
	"context"
	"encoding/json"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// usageBatchIngest serves usageStats?action=batchIngest.
func usageBatchIngest(h *Handler, ctx context.Context, c *Call) (any, error) {
	var buckets []gms.UsageBucket
	if err := c.decodeRecord("buckets", &buckets); err != nil {
		return nil, err
	}
	for _, b := range buckets {
		if !gms.ValidWindow(b.Duration) {
			return nil, badRequest(msgBadWindow, b.Duration)
		}
	}
	if err := h.core.IngestUsage(ctx, buckets); err != nil {
		return nil, err
	}
	return Void{}, nil
}

// usageQuery serves usageStats?action=query.
func usageQuery(h *Handler, ctx context.Context, c *Call) (any, error) {
	d := c.str("duration")
	if !gms.ValidWindow(d) {
		return nil, badRequest(msgBadWindow, d)
	}
	return h.core.QueryUsage(ctx, c.str("resource"), d, c.long("startTime"), c.long("endTime"))
}

// usageQueryRange serves usageStats?action=queryRange: the range back from
// now, to now.
func usageQueryRange(h *Handler, ctx context.Context, c *Call) (any, error) {
	d := c.str("duration")
	if !gms.ValidWindow(d) {
		return nil, badRequest(msgBadWindow, d)
	}
	now := h.hooks.Clock()
	start, ok := gms.UsageRangeStart(c.str("rangeFromEnd"), now)
	if !ok {
		return nil, badRequest(msgBadTimeRange, c.str("rangeFromEnd"))
	}
	end := now.UnixMilli()
	return h.core.QueryUsage(ctx, c.str("resource"), d, &start, &end)
}

// producePlatformEvent serves platform?action=producePlatformEvent.
func producePlatformEvent(h *Handler, ctx context.Context, c *Call) (any, error) {
	if err := h.core.ProducePlatformEvent(c.str("name"), c.str("key"), c.raw("event")); err != nil {
		return nil, err
	}
	return Void{}, nil
}

// testResult is com.linkedin.test.TestResult.
type testResult struct {
	Test string `json:"test"`
	Type string `json:"type"`
}

// testResults is com.linkedin.test.TestResults.
type testResults struct {
	Failing []testResult `json:"failing"`
	Passing []testResult `json:"passing"`
}

// batchEvaluate serves test?action=batchEvaluate (SaaS DataHub's
// MetadataTestResource): each URN's test results, as evaluate answers
// them, in BatchedTestResults {"results": {urn: TestResults}}.
func batchEvaluate(h *Handler, ctx context.Context, c *Call) (any, error) {
	var tests []string
	if c.has("tests") {
		tests = c.strs("tests")
		if tests == nil {
			tests = []string{}
		}
	}
	push := false
	if b := c.boolean("push"); b != nil {
		push = *b
	}
	out := map[string]testResults{}
	for _, u := range c.strs("urns") {
		ev, err := h.core.EvaluateTests(ctx, u, tests, push)
		if err != nil {
			return nil, err
		}
		r := testResults{Failing: []testResult{}, Passing: []testResult{}}
		for _, t := range ev.Passing {
			r.Passing = append(r.Passing, testResult{Test: t, Type: "SUCCESS"})
		}
		for _, t := range ev.Failing {
			r.Failing = append(r.Failing, testResult{Test: t, Type: "FAILURE"})
		}
		out[u] = r
	}
	return map[string]any{"results": out}, nil
}

// applyRetention serves entities?action=applyRetention: the version
// retention policies applied to the aspects with more than
// attemptWithVersion versions; the answer is the result's Java toString.
func applyRetention(h *Handler, ctx context.Context, c *Call) (any, error) {
	a := gms.RetentionArgs{Start: c.integer("start", 0), Count: c.integer("count", 100),
		AttemptWithVersion: c.integer("attemptWithVersion", 21), Aspect: c.strp("aspectName"), URN: c.strp("urn")}
	r, err := h.core.ApplyRetention(ctx, a)
	if err != nil {
		return nil, err
	}
	return r.String(), nil
}

// timeseriesStats serves analytics?action=getTimeseriesStats.
func timeseriesStats(h *Handler, ctx context.Context, c *Call) (any, error) {
	var specs []gms.AggregationSpec
	var buckets []gms.GroupingBucket
	if err := c.decodeRecord("metrics", &specs); err != nil {
		return nil, err
	}
	if err := c.decodeRecord("buckets", &buckets); err != nil {
		return nil, err
	}
	f, err := c.filter("filter")
	if err != nil {
		return nil, err
	}
	table, err := h.core.TimeseriesStats(ctx, c.str("entityName"), c.str("aspectName"), specs, f, buckets)
	if err != nil {
		return nil, err
	}
	resp := map[string]any{"entityName": c.str("entityName"), "aspectName": c.str("aspectName"),
		"aggregationSpecs": json.RawMessage(c.raw("metrics")), "table": table}
	if v := c.raw("filter"); v != nil {
		resp["filter"] = v
	}
	if v := c.raw("buckets"); v != nil {
		resp["groupingBuckets"] = v
	}
	return resp, nil
}
