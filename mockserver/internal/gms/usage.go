package gms

import (
	"cmp"
	"context"
	"encoding/json"
	"slices"
	"time"
)

// UsageAspect is the timeseries aspect usage statistics are kept in.
const UsageAspect = "datasetUsageStatistics"

// UsageBucket is one com.linkedin.usage.UsageAggregation.
type UsageBucket struct {
	Bucket   int64        `json:"bucket"`
	Duration string       `json:"duration"`
	Resource string       `json:"resource"`
	Metrics  UsageMetrics `json:"metrics"`
}

// UsageMetrics is com.linkedin.usage.UsageAggregationMetrics.
type UsageMetrics struct {
	UniqueUserCount *int         `json:"uniqueUserCount,omitempty"`
	Users           []UsageUser  `json:"users,omitempty"`
	TotalSQLQueries *int         `json:"totalSqlQueries,omitempty"`
	TopSQLQueries   []string     `json:"topSqlQueries,omitempty"`
	Fields          []UsageField `json:"fields,omitempty"`
}

// UsageUser is com.linkedin.usage.UserUsageCounts.
type UsageUser struct {
	User      string `json:"user,omitempty"`
	Count     int    `json:"count"`
	UserEmail string `json:"userEmail,omitempty"`
}

// UsageField is com.linkedin.usage.FieldUsageCounts.
type UsageField struct {
	FieldName string `json:"fieldName"`
	Count     int    `json:"count"`
}

// windows are the WindowDurations (TimeseriesUtils.windowToInterval maps
// each to the calendar interval of the same name).
var windows = []string{"YEAR", "MONTH", "WEEK", "DAY", "HOUR"}

// ValidWindow reports whether d is a WindowDuration symbol.
func ValidWindow(d string) bool { return slices.Contains(windows, d) }

// IngestUsage writes usage buckets as GMS's usageStats?action=batchIngest
// does: each becomes a datasetUsageStatistics document of its resource
// (timestampMillis the bucket, eventGranularity its duration, the user
// and field counts without e-mails), validated as a proposal of that
// aspect would be; the buckets are written as one batch.
func (c *Core) IngestUsage(ctx context.Context, buckets []UsageBucket) error {
	ps := make([]Proposal, 0, len(buckets))
	for _, b := range buckets {
		doc := map[string]any{
			"timestampMillis":  b.Bucket,
			"eventGranularity": map[string]any{"unit": b.Duration, "multiple": 1},
		}
		m := b.Metrics
		if m.UniqueUserCount != nil {
			doc["uniqueUserCount"] = *m.UniqueUserCount
		}
		if m.TotalSQLQueries != nil {
			doc["totalSqlQueries"] = *m.TotalSQLQueries
		}
		if m.TopSQLQueries != nil {
			doc["topSqlQueries"] = m.TopSQLQueries
		}
		if m.Users != nil {
			users := make([]map[string]any, 0, len(m.Users))
			for _, u := range m.Users {
				users = append(users, map[string]any{"user": u.User, "count": u.Count})
			}
			doc["userCounts"] = users
		}
		if m.Fields != nil {
			fields := make([]map[string]any, 0, len(m.Fields))
			for _, f := range m.Fields {
				fields = append(fields, map[string]any{"fieldPath": f.FieldName, "count": f.Count})
			}
			doc["fieldCounts"] = fields
		}
		v, err := json.Marshal(doc)
		if err != nil {
			return errorf(Internal, "%v", err)
		}
		ps = append(ps, Proposal{EntityType: EntityTypeOf(b.Resource), EntityURN: b.Resource, ChangeType: "UPSERT",
			AspectName: UsageAspect, Aspect: v, ContentType: "application/json"})
	}
	return c.Ingest(ctx, ps, IngestOptions{Batch: len(ps) > 1})
}

// UsageResult is com.linkedin.usage.UsageQueryResult.
type UsageResult struct {
	Buckets      []UsageBucket     `json:"buckets"`
	Aggregations UsageAggregations `json:"aggregations"`
}

// UsageAggregations is com.linkedin.usage.UsageQueryResultAggregations.
type UsageAggregations struct {
	UniqueUserCount *int         `json:"uniqueUserCount,omitempty"`
	TotalSQLQueries *int         `json:"totalSqlQueries,omitempty"`
	Users           []UsageUser  `json:"users"`
	Fields          []UsageField `json:"fields"`
}

// usageDoc is the part of a datasetUsageStatistics document a query reads.
type usageDoc struct {
	UniqueUserCount *int     `json:"uniqueUserCount"`
	TotalSQLQueries *int     `json:"totalSqlQueries"`
	TopSQLQueries   []string `json:"topSqlQueries"`
	UserCounts      []struct {
		User      string `json:"user"`
		Count     int    `json:"count"`
		UserEmail string `json:"userEmail"`
	} `json:"userCounts"`
	FieldCounts []struct {
		FieldPath string `json:"fieldPath"`
		Count     int    `json:"count"`
	} `json:"fieldCounts"`
}

// windowStart is the start of the calendar interval d holding t, in UTC
// (weeks start on Monday, as Elasticsearch's).
func windowStart(t time.Time, d string) time.Time {
	t = t.UTC()
	switch d {
	case "YEAR":
		return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC)
	case "MONTH":
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	case "WEEK":
		day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		return day.AddDate(0, 0, -((int(day.Weekday()) + 6) % 7))
	case "DAY":
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	}
	return t.Truncate(time.Hour)
}

// QueryUsage answers GMS's usageStats?action=query (UsageServiceUtil.query)
// from resource's datasetUsageStatistics documents between start and end
// (inclusive; nil unbounded): one bucket per calendar window of duration
// (oldest first) with its latest document's uniqueUserCount,
// totalSqlQueries and topSqlQueries; the aggregations sum userCounts by
// user and fieldCounts by field (most first), count the users, and sum
// the buckets' totalSqlQueries.
func (c *Core) QueryUsage(ctx context.Context, resource, duration string, start, end *int64) (UsageResult, error) {
	c.barrier()
	if _, err := CheckURN(resource); err != nil {
		return UsageResult{}, err
	}
	var from, to int64
	if start != nil {
		from = *start
	}
	if end != nil {
		to = *end
	}
	docs, err := c.st.Timeseries(resource, UsageAspect, from, to, 0)
	if err != nil {
		return UsageResult{}, errorf(Internal, MsgStore, err)
	}
	out := UsageResult{Buckets: []UsageBucket{}, Aggregations: UsageAggregations{Users: []UsageUser{}, Fields: []UsageField{}}}
	type window struct {
		start  int64
		latest int64
		doc    usageDoc
	}
	byWindow := map[int64]*window{}
	users := map[string]*UsageUser{}
	fields := map[string]*UsageField{}
	for _, d := range docs {
		var u usageDoc
		if json.Unmarshal(d.Value, &u) != nil {
			continue
		}
		ws := windowStart(time.UnixMilli(d.TimestampMillis), duration).UnixMilli()
		w := byWindow[ws]
		if w == nil || d.TimestampMillis > w.latest {
			byWindow[ws] = &window{start: ws, latest: d.TimestampMillis, doc: u}
		}
		for _, uc := range u.UserCounts {
			x := users[uc.User]
			if x == nil {
				x = &UsageUser{User: uc.User}
				users[uc.User] = x
			}
			x.Count += uc.Count
			if uc.UserEmail != "" {
				x.UserEmail = uc.UserEmail
			}
		}
		for _, fc := range u.FieldCounts {
			x := fields[fc.FieldPath]
			if x == nil {
				x = &UsageField{FieldName: fc.FieldPath}
				fields[fc.FieldPath] = x
			}
			x.Count += fc.Count
		}
	}
	var total *int
	for _, w := range byWindow {
		b := UsageBucket{Bucket: w.start, Duration: duration, Resource: resource,
			Metrics: UsageMetrics{UniqueUserCount: w.doc.UniqueUserCount, TotalSQLQueries: w.doc.TotalSQLQueries, TopSQLQueries: w.doc.TopSQLQueries}}
		if b.Metrics.TotalSQLQueries != nil {
			if total == nil {
				total = new(int)
			}
			*total += *b.Metrics.TotalSQLQueries
		}
		out.Buckets = append(out.Buckets, b)
	}
	slices.SortFunc(out.Buckets, func(a, b UsageBucket) int { return cmp.Compare(a.Bucket, b.Bucket) })
	for _, u := range users {
		out.Aggregations.Users = append(out.Aggregations.Users, *u)
	}
	slices.SortFunc(out.Aggregations.Users, func(a, b UsageUser) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.User, b.User))
	})
	for _, f := range fields {
		out.Aggregations.Fields = append(out.Aggregations.Fields, *f)
	}
	slices.SortFunc(out.Aggregations.Fields, func(a, b UsageField) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.FieldName, b.FieldName))
	})
	n := len(out.Aggregations.Users)
	out.Aggregations.UniqueUserCount = &n
	out.Aggregations.TotalSQLQueries = total
	return out, nil
}

// usageRanges are the UsageTimeRanges and how far back each starts
// (TimeseriesUtils.convertRangeToStartTime: one window more, plus 1 ms);
// ALL starts at 0.
var usageRanges = map[string]time.Duration{
	"HOUR": 2 * time.Hour, "DAY": 2 * 24 * time.Hour, "WEEK": 8 * 24 * time.Hour, "MONTH": 31 * 24 * time.Hour,
	"QUARTER": 92 * 24 * time.Hour, "HALF_YEAR": 183 * 24 * time.Hour, "YEAR": 366 * 24 * time.Hour, "ALL": 0,
}

// UsageRangeStart returns the start time of range r before now in Unix
// milliseconds, false when r is not a UsageTimeRange.
func UsageRangeStart(r string, now time.Time) (int64, bool) {
	d, ok := usageRanges[r]
	if !ok {
		return 0, false
	}
	if d == 0 {
		return 0, true
	}
	return now.UnixMilli() - d.Milliseconds() - 1, true
}
