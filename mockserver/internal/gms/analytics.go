package gms

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// AggregationSpec is com.linkedin.timeseries.AggregationSpec.
type AggregationSpec struct {
	AggregationType string `json:"aggregationType"`
	FieldPath       string `json:"fieldPath"`
}

// GroupingBucket is com.linkedin.timeseries.GroupingBucket.
type GroupingBucket struct {
	Key            string `json:"key"`
	Type           string `json:"type"`
	TimeWindowSize *struct {
		Unit     string `json:"unit"`
		Multiple int    `json:"multiple"`
	} `json:"timeWindowSize"`
}

// GenericTable is com.linkedin.timeseries.GenericTable.
type GenericTable struct {
	ColumnNames []string   `json:"columnNames"`
	ColumnTypes []string   `json:"columnTypes"`
	Rows        [][]string `json:"rows"`
}

// nullValue is what a cell without a value holds (ES_NULL_VALUE).
const nullValue = "NULL"

// TimeseriesStats aggregates the documents of a timeseries aspect as GMS's
// analytics?action=getTimeseriesStats (ESAggregatedStatsDAO): the documents
// the filter keeps are grouped by the buckets (a DATE bucket by calendar
// window of its timeWindowSize's unit, a STRING bucket by value; a key
// through an array groups its items), and each group gets one cell per
// spec: LATEST (the value of the newest document), SUM or CARDINALITY of
// fieldPath. Column names are the bucket keys, then "latest_", "sum_" or
// "cardinality_" and the field path; rows are ordered by their keys.
func (c *Core) TimeseriesStats(ctx context.Context, entityType, aspect string, specs []AggregationSpec, f Filter, buckets []GroupingBucket) (GenericTable, error) {
	c.barrier()
	info, err := AspectOf(entityType, aspect)
	if err != nil {
		return GenericTable{}, err
	}
	if !info.Timeseries {
		return GenericTable{}, errorf(BadArgument, MsgNotTimeseries, info.Name)
	}
	out := GenericTable{ColumnNames: []string{}, ColumnTypes: []string{}, Rows: [][]string{}}
	for _, b := range buckets {
		out.ColumnNames = append(out.ColumnNames, b.Key)
		t := fieldType(info.RecordName, b.Key)
		if b.Type != "DATE_GROUPING_BUCKET" && t != "int" && t != "long" && t != "float" && t != "double" {
			t = "string" // non-numeric grouping fields are strings
		}
		out.ColumnTypes = append(out.ColumnTypes, t)
	}
	for _, s := range specs {
		prefix := map[string]string{"LATEST": "latest_", "SUM": "sum_", "CARDINALITY": "cardinality_"}[s.AggregationType]
		if prefix == "" {
			return GenericTable{}, errorf(BadArgument, MsgAggregationType, s.AggregationType)
		}
		out.ColumnNames = append(out.ColumnNames, prefix+s.FieldPath)
		switch s.AggregationType {
		case "LATEST":
			out.ColumnTypes = append(out.ColumnTypes, fieldType(info.RecordName, s.FieldPath))
		case "SUM":
			out.ColumnTypes = append(out.ColumnTypes, "double")
		default:
			out.ColumnTypes = append(out.ColumnTypes, "long")
		}
	}
	type row struct {
		ms   int64
		urn  string
		data map[string]any
	}
	var rows []row
	serr := c.st.EachDocument(aspect, func(d store.TimeseriesDoc) bool {
		if EntityTypeOf(d.URN) != entityType || !docMatches(f, d) {
			return true
		}
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(d.Value))
		dec.UseNumber()
		if dec.Decode(&m) == nil {
			m["urn"] = d.URN
			rows = append(rows, row{ms: d.TimestampMillis, urn: d.URN, data: m})
		}
		return true
	})
	if serr != nil {
		return GenericTable{}, errorf(Internal, MsgStore, serr)
	}
	type group struct {
		keys []string
		docs []map[string]any // newest last
		ms   []int64
	}
	groups := map[string]*group{}
	var order []string
	for _, r := range rows {
		// A STRING bucket whose key goes through an array groups its items.
		items := []map[string]any{r.data}
		for _, b := range buckets {
			if b.Type == "STRING_GROUPING_BUCKET" {
				items = explode(items, b.Key)
			}
		}
		for _, it := range items {
			keys := make([]string, 0, len(buckets))
			for _, b := range buckets {
				if b.Type == "DATE_GROUPING_BUCKET" {
					unit := "DAY"
					if b.TimeWindowSize != nil {
						unit = b.TimeWindowSize.Unit
					}
					keys = append(keys, strconv.FormatInt(windowStart(time.UnixMilli(r.ms), unit).UnixMilli(), 10))
					continue
				}
				v := valueAt(it, b.Key)
				keys = append(keys, cell(v))
			}
			id := strings.Join(keys, "\x00")
			g := groups[id]
			if g == nil {
				g = &group{keys: keys}
				groups[id] = g
				order = append(order, id)
			}
			g.docs = append(g.docs, it)
			g.ms = append(g.ms, r.ms)
		}
	}
	slices.Sort(order)
	for _, id := range order {
		g := groups[id]
		cells := slices.Clone(g.keys)
		for _, s := range specs {
			cells = append(cells, aggregate(s, g.docs, g.ms))
		}
		out.Rows = append(out.Rows, cells)
	}
	return out, nil
}

// docMatches applies the filter's urn and timestampMillis criteria (and
// EQUAL criteria on top-level fields) to a document.
func docMatches(f Filter, d store.TimeseriesDoc) bool {
	if len(f) == 0 {
		return true
	}
	for _, clause := range f {
		ok := true
		for _, cr := range clause {
			var have string
			switch cr.Field {
			case "urn":
				have = d.URN
			case "timestampMillis", "@timestamp":
				have = strconv.FormatInt(d.TimestampMillis, 10)
			default:
				var m map[string]any
				_ = json.Unmarshal(d.Value, &m)
				have = cell(m[cr.Field])
			}
			match := false
			for _, want := range cr.Values {
				switch cr.Condition {
				case "GREATER_THAN_OR_EQUAL_TO", "GREATER_THAN", "LESS_THAN_OR_EQUAL_TO", "LESS_THAN":
					h, e1 := strconv.ParseInt(have, 10, 64)
					w, e2 := strconv.ParseInt(want, 10, 64)
					if e1 == nil && e2 == nil {
						match = map[string]bool{"GREATER_THAN_OR_EQUAL_TO": h >= w, "GREATER_THAN": h > w,
							"LESS_THAN_OR_EQUAL_TO": h <= w, "LESS_THAN": h < w}[cr.Condition]
					}
				default:
					match = match || have == want
				}
			}
			if match == cr.Negated {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// explode replaces each item by the items of the array on path's first
// segment, merged under that segment's name, when it is an array.
func explode(items []map[string]any, path string) []map[string]any {
	head, _, found := strings.Cut(path, ".")
	if !found {
		return items
	}
	var out []map[string]any
	for _, it := range items {
		arr, ok := it[head].([]any)
		if !ok {
			out = append(out, it)
			continue
		}
		for _, el := range arr {
			cp := make(map[string]any, len(it))
			for k, v := range it {
				cp[k] = v
			}
			cp[head] = el
			out = append(out, cp)
		}
	}
	return out
}

// valueAt is the value at the dotted path (arrays' items all taken).
func valueAt(v any, path string) any {
	for _, seg := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[seg]
		case []any:
			var out []any
			for _, el := range x {
				if m, ok := el.(map[string]any); ok {
					out = append(out, m[seg])
				}
			}
			v = out
		default:
			return nil
		}
	}
	return v
}

// cell is a value as a table cell.
func cell(v any) string {
	switch x := v.(type) {
	case nil:
		return nullValue
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// aggregate computes one cell of a group.
func aggregate(s AggregationSpec, docs []map[string]any, ms []int64) string {
	switch s.AggregationType {
	case "LATEST":
		best := -1
		for i := range docs {
			if valueAt(docs[i], s.FieldPath) != nil && (best < 0 || ms[i] >= ms[best]) {
				best = i
			}
		}
		if best < 0 {
			return nullValue
		}
		return cell(valueAt(docs[best], s.FieldPath))
	case "SUM":
		var sum float64
		integral := true
		for _, d := range docs {
			for _, n := range numbers(valueAt(d, s.FieldPath)) {
				f, _ := n.Float64()
				sum += f
				if _, err := n.Int64(); err != nil {
					integral = false
				}
			}
		}
		if integral {
			return strconv.FormatInt(int64(sum), 10)
		}
		return strconv.FormatFloat(sum, 'f', -1, 64)
	}
	seen := map[string]bool{}
	for _, d := range docs {
		v := valueAt(d, s.FieldPath)
		if arr, ok := v.([]any); ok {
			for _, el := range arr {
				seen[cell(el)] = true
			}
		} else if v != nil {
			seen[cell(v)] = true
		}
	}
	return strconv.Itoa(len(seen))
}

// numbers are the numbers of v (a number or an array of them).
func numbers(v any) []json.Number {
	switch x := v.(type) {
	case json.Number:
		return []json.Number{x}
	case []any:
		var out []json.Number
		for _, el := range x {
			out = append(out, numbers(el)...)
		}
		return out
	}
	return nil
}

// fieldType is the Pegasus type name of the dotted path in record ("string"
// when unknown), as the table's column types name it.
func fieldType(record, path string) string {
	rec, ok := pdl.Record(record)
	if !ok {
		return "string"
	}
	segs := strings.Split(path, ".")
	var t *pdl.Type
	for i, seg := range segs {
		found := false
		for fi := range rec.Fields {
			if rec.Fields[fi].Name == seg {
				t = &rec.Fields[fi].Type
				found = true
				break
			}
		}
		if !found {
			return "string"
		}
		for t.Kind == pdl.KindArray && t.Items != nil {
			t = t.Items
		}
		if i < len(segs)-1 {
			if t.Kind != pdl.KindRecord {
				return "string"
			}
			if rec, ok = pdl.Record(t.Name); !ok {
				return "string"
			}
		}
	}
	switch t.Kind {
	case pdl.KindInt, pdl.KindLong, pdl.KindFloat, pdl.KindDouble, pdl.KindBoolean:
		return t.Kind.String()
	}
	return "string"
}
