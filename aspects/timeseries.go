package aspects

// The timeseries aspects (DatasetProfile, DatasetUsageStatistics, Operation)
// include DataHub's com.linkedin.timeseries.TimeseriesAspectBase, whose
// fields come first in each struct: TimestampMillis, EventGranularity,
// PartitionSpec and MessageID.

// FullTableSnapshot is the partition of DataHub's default PartitionSpec
// {"type": "FULL_TABLE", "partition": "FULL_TABLE_SNAPSHOT"}, which a
// timeseries aspect carries when its PartitionSpec is nil.
const FullTableSnapshot = "FULL_TABLE_SNAPSHOT"

// defaultPartitionSpec is the PDL default of TimeseriesAspectBase.partitionSpec.
func defaultPartitionSpec() *PartitionSpec {
	return &PartitionSpec{Type: PartitionTypeFullTable, Partition: FullTableSnapshot}
}

func orDefaultPartitionSpec(p *PartitionSpec) *PartitionSpec {
	if p == nil {
		return defaultPartitionSpec()
	}
	return p
}

// TimeWindowSize is the size of a time window
// (com.linkedin.timeseries.TimeWindowSize).
type TimeWindowSize struct {
	// Unit is the calendar unit.
	Unit CalendarInterval `json:"unit"`
	// Multiple is the number of units. It defaults to 1: 0 is encoded as 1.
	Multiple int32 `json:"multiple"`
}

// MarshalJSON encodes w with its PDL defaults.
func (w TimeWindowSize) MarshalJSON() ([]byte, error) {
	type plain TimeWindowSize
	p := plain(w)
	if p.Multiple == 0 {
		p.Multiple = 1
	}
	return marshal(p)
}

// UnmarshalJSON decodes w; an absent multiple becomes 1.
func (w *TimeWindowSize) UnmarshalJSON(data []byte) error {
	type plain TimeWindowSize
	var p plain
	if err := unmarshalPlain(data, &p, "TimeWindowSize"); err != nil {
		return err
	}
	if p.Multiple == 0 {
		p.Multiple = 1
	}
	*w = TimeWindowSize(p)
	return nil
}

// CalendarInterval is a calendar unit (com.linkedin.timeseries.CalendarInterval).
type CalendarInterval string

// CalendarInterval values, in PDL order.
const (
	CalendarIntervalSecond  CalendarInterval = "SECOND"
	CalendarIntervalMinute  CalendarInterval = "MINUTE"
	CalendarIntervalHour    CalendarInterval = "HOUR"
	CalendarIntervalDay     CalendarInterval = "DAY"
	CalendarIntervalWeek    CalendarInterval = "WEEK"
	CalendarIntervalMonth   CalendarInterval = "MONTH"
	CalendarIntervalQuarter CalendarInterval = "QUARTER"
	CalendarIntervalYear    CalendarInterval = "YEAR"
)

// TimeWindow is a window of time (com.linkedin.timeseries.TimeWindow).
type TimeWindow struct {
	// StartTimeMillis is the window's start in epoch milliseconds (UTC).
	StartTimeMillis int64 `json:"startTimeMillis"`
	// Length is the window's length.
	Length TimeWindowSize `json:"length"`
}

// PartitionSpec says which partition of a dataset a timeseries value
// describes (com.linkedin.timeseries.PartitionSpec).
type PartitionSpec struct {
	// Type is the kind of partition. It defaults to PartitionTypePartition:
	// "" is encoded as "PARTITION".
	Type PartitionType `json:"type"`
	// Partition is the partition's string form.
	Partition string `json:"partition"`
	// TimePartition is the partition's time window, if any.
	TimePartition *TimeWindow `json:"timePartition,omitempty"`
}

// MarshalJSON encodes s with its PDL defaults.
func (s PartitionSpec) MarshalJSON() ([]byte, error) {
	type plain PartitionSpec
	p := plain(s)
	if p.Type == "" {
		p.Type = PartitionTypePartition
	}
	return marshal(p)
}

// UnmarshalJSON decodes s; an absent type becomes PartitionTypePartition.
func (s *PartitionSpec) UnmarshalJSON(data []byte) error {
	type plain PartitionSpec
	var p plain
	if err := unmarshalPlain(data, &p, "PartitionSpec"); err != nil {
		return err
	}
	if p.Type == "" {
		p.Type = PartitionTypePartition
	}
	*s = PartitionSpec(p)
	return nil
}

// PartitionType is the kind of a partition (com.linkedin.timeseries.PartitionType).
type PartitionType string

// PartitionType values, in PDL order.
const (
	PartitionTypeFullTable PartitionType = "FULL_TABLE"
	PartitionTypeQuery     PartitionType = "QUERY"
	PartitionTypePartition PartitionType = "PARTITION"
)

// DatasetProfile is a timeseries of dataset statistics (aspect
// "datasetProfile", com.linkedin.dataset.DatasetProfile).
type DatasetProfile struct {
	// TimestampMillis is the time of the value in epoch milliseconds (UTC).
	TimestampMillis int64 `json:"timestampMillis"`
	// EventGranularity is the granularity of the value, if applicable.
	EventGranularity *TimeWindowSize `json:"eventGranularity,omitempty"`
	// PartitionSpec is the partition described. It defaults to the full
	// table: nil is encoded as {"type": "FULL_TABLE", "partition":
	// "FULL_TABLE_SNAPSHOT"}.
	PartitionSpec *PartitionSpec `json:"partitionSpec"`
	// MessageID is a caller-chosen unique id of the value.
	MessageID *string `json:"messageId,omitempty"`
	// RowCount is the number of rows.
	RowCount *int64 `json:"rowCount,omitempty"`
	// ColumnCount is the number of columns (schema fields).
	ColumnCount *int64 `json:"columnCount,omitempty"`
	// FieldProfiles are per-column statistics.
	FieldProfiles []DatasetFieldProfile `json:"fieldProfiles,omitzero"`
	// SizeInBytes is the storage size.
	SizeInBytes *int64 `json:"sizeInBytes,omitempty"`
}

// AspectName returns "datasetProfile".
func (DatasetProfile) AspectName() string { return "datasetProfile" }

// MarshalJSON encodes d with its PDL defaults.
func (d DatasetProfile) MarshalJSON() ([]byte, error) {
	type plain DatasetProfile
	p := plain(d)
	p.PartitionSpec = orDefaultPartitionSpec(p.PartitionSpec)
	return marshal(p)
}

// UnmarshalJSON decodes d; an absent partitionSpec becomes the full-table
// default.
func (d *DatasetProfile) UnmarshalJSON(data []byte) error {
	type plain DatasetProfile
	var p plain
	if err := unmarshalPlain(data, &p, "DatasetProfile"); err != nil {
		return err
	}
	p.PartitionSpec = orDefaultPartitionSpec(p.PartitionSpec)
	*d = DatasetProfile(p)
	return nil
}

// DatasetFieldProfile holds statistics of one column
// (com.linkedin.dataset.DatasetFieldProfile).
type DatasetFieldProfile struct {
	// FieldPath is the column's field path.
	FieldPath string `json:"fieldPath"`
	// UniqueCount is the number of distinct values.
	UniqueCount *int64 `json:"uniqueCount,omitempty"`
	// UniqueProportion is the share of distinct values.
	UniqueProportion *float32 `json:"uniqueProportion,omitempty"`
	// NullCount is the number of nulls.
	NullCount *int64 `json:"nullCount,omitempty"`
	// NullProportion is the share of nulls.
	NullProportion *float32 `json:"nullProportion,omitempty"`
	// Min is the minimum, as text.
	Min *string `json:"min,omitempty"`
	// Max is the maximum, as text.
	Max *string `json:"max,omitempty"`
	// Mean is the mean, as text.
	Mean *string `json:"mean,omitempty"`
	// Median is the median, as text.
	Median *string `json:"median,omitempty"`
	// Stdev is the standard deviation, as text.
	Stdev *string `json:"stdev,omitempty"`
	// Quantiles are selected quantiles.
	Quantiles []Quantile `json:"quantiles,omitzero"`
	// DistinctValueFrequencies counts occurrences of distinct values.
	DistinctValueFrequencies []ValueFrequency `json:"distinctValueFrequencies,omitzero"`
	// Histogram is the value histogram.
	Histogram *Histogram `json:"histogram,omitempty"`
	// SampleValues are example values.
	SampleValues []string `json:"sampleValues,omitzero"`
}

// Quantile is one quantile of a column (com.linkedin.dataset.Quantile).
type Quantile struct {
	// Quantile is the quantile, e.g. "0.5".
	Quantile string `json:"quantile"`
	// Value is the column's value at the quantile.
	Value string `json:"value"`
}

// ValueFrequency counts one distinct value of a column
// (com.linkedin.dataset.ValueFrequency).
type ValueFrequency struct {
	// Value is the value.
	Value string `json:"value"`
	// Frequency is its number of occurrences.
	Frequency int64 `json:"frequency"`
}

// Histogram is a column histogram: k bin boundaries and k-1 heights; the
// first and last heights are tail weights (com.linkedin.dataset.Histogram).
type Histogram struct {
	// Boundaries are the bin boundaries. Nil is encoded as [].
	Boundaries []string `json:"boundaries"`
	// Heights are the bin heights. Nil is encoded as [].
	Heights []float32 `json:"heights"`
}

// MarshalJSON encodes h; nil slices are encoded as [].
func (h Histogram) MarshalJSON() ([]byte, error) {
	type plain Histogram
	p := plain(h)
	p.Boundaries = nonNil(p.Boundaries)
	p.Heights = nonNil(p.Heights)
	return marshal(p)
}

// DatasetUsageStatistics is a timeseries of dataset usage (aspect
// "datasetUsageStatistics", com.linkedin.dataset.DatasetUsageStatistics).
type DatasetUsageStatistics struct {
	// TimestampMillis is the start of the bucket in epoch milliseconds (UTC).
	TimestampMillis int64 `json:"timestampMillis"`
	// EventGranularity is the bucket size, e.g. one day.
	EventGranularity *TimeWindowSize `json:"eventGranularity,omitempty"`
	// PartitionSpec is the partition described. It defaults to the full
	// table: nil is encoded as {"type": "FULL_TABLE", "partition":
	// "FULL_TABLE_SNAPSHOT"}.
	PartitionSpec *PartitionSpec `json:"partitionSpec"`
	// MessageID is a caller-chosen unique id of the value.
	MessageID *string `json:"messageId,omitempty"`
	// UniqueUserCount is the number of distinct users.
	UniqueUserCount *int32 `json:"uniqueUserCount,omitempty"`
	// TotalSQLQueries is the number of SQL queries.
	TotalSQLQueries *int32 `json:"totalSqlQueries,omitempty"`
	// TopSQLQueries are the most frequent SQL queries.
	TopSQLQueries []string `json:"topSqlQueries,omitzero"`
	// UserCounts are per-user usage counts.
	UserCounts []DatasetUserUsageCounts `json:"userCounts,omitzero"`
	// FieldCounts are per-field usage counts.
	FieldCounts []DatasetFieldUsageCounts `json:"fieldCounts,omitzero"`
}

// AspectName returns "datasetUsageStatistics".
func (DatasetUsageStatistics) AspectName() string { return "datasetUsageStatistics" }

// MarshalJSON encodes d with its PDL defaults.
func (d DatasetUsageStatistics) MarshalJSON() ([]byte, error) {
	type plain DatasetUsageStatistics
	p := plain(d)
	p.PartitionSpec = orDefaultPartitionSpec(p.PartitionSpec)
	return marshal(p)
}

// UnmarshalJSON decodes d; an absent partitionSpec becomes the full-table
// default.
func (d *DatasetUsageStatistics) UnmarshalJSON(data []byte) error {
	type plain DatasetUsageStatistics
	var p plain
	if err := unmarshalPlain(data, &p, "DatasetUsageStatistics"); err != nil {
		return err
	}
	p.PartitionSpec = orDefaultPartitionSpec(p.PartitionSpec)
	*d = DatasetUsageStatistics(p)
	return nil
}

// DatasetUserUsageCounts is one user's usage of a dataset
// (com.linkedin.dataset.DatasetUserUsageCounts).
type DatasetUserUsageCounts struct {
	// User is the user's URN.
	User string `json:"user"`
	// Count is the number of uses.
	Count int32 `json:"count"`
	// UserEmail is the user's email; DataHub resolves it to a URN on ingest.
	UserEmail *string `json:"userEmail,omitempty"`
}

// DatasetFieldUsageCounts is the usage of one field of a dataset
// (com.linkedin.dataset.DatasetFieldUsageCounts).
type DatasetFieldUsageCounts struct {
	// FieldPath is the field's path.
	FieldPath string `json:"fieldPath"`
	// Count is the number of uses.
	Count int32 `json:"count"`
}

// Operation is a timeseries of operations on an entity such as inserts or
// schema changes (aspect "operation", com.linkedin.common.Operation).
type Operation struct {
	// TimestampMillis is the time the operation was reported, in epoch
	// milliseconds (UTC).
	TimestampMillis int64 `json:"timestampMillis"`
	// EventGranularity is the granularity of the value, if applicable.
	EventGranularity *TimeWindowSize `json:"eventGranularity,omitempty"`
	// PartitionSpec is the partition described. It defaults to the full
	// table: nil is encoded as {"type": "FULL_TABLE", "partition":
	// "FULL_TABLE_SNAPSHOT"}.
	PartitionSpec *PartitionSpec `json:"partitionSpec"`
	// MessageID is a caller-chosen unique id of the value.
	MessageID *string `json:"messageId,omitempty"`
	// Actor is the URN of who issued the operation.
	Actor *string `json:"actor,omitempty"`
	// OperationType is the kind of change.
	OperationType OperationType `json:"operationType"`
	// CustomOperationType names the operation when OperationType is
	// OperationTypeCustom.
	CustomOperationType *string `json:"customOperationType,omitempty"`
	// NumAffectedRows is the number of rows affected.
	NumAffectedRows *int64 `json:"numAffectedRows,omitempty"`
	// AffectedDatasets are URNs of other datasets affected.
	AffectedDatasets []string `json:"affectedDatasets,omitzero"`
	// SourceType says what reported the operation.
	SourceType *OperationSourceType `json:"sourceType,omitempty"`
	// CustomProperties is a free-form property bag (optional, no default).
	CustomProperties map[string]string `json:"customProperties,omitzero"`
	// LastUpdatedTimestamp is when the operation happened, in epoch
	// milliseconds.
	LastUpdatedTimestamp int64 `json:"lastUpdatedTimestamp"`
	// Queries are URNs of the queries used in the operation.
	Queries []string `json:"queries,omitzero"`
}

// AspectName returns "operation".
func (Operation) AspectName() string { return "operation" }

// MarshalJSON encodes o with its PDL defaults.
func (o Operation) MarshalJSON() ([]byte, error) {
	type plain Operation
	p := plain(o)
	p.PartitionSpec = orDefaultPartitionSpec(p.PartitionSpec)
	return marshal(p)
}

// UnmarshalJSON decodes o; an absent partitionSpec becomes the full-table
// default.
func (o *Operation) UnmarshalJSON(data []byte) error {
	type plain Operation
	var p plain
	if err := unmarshalPlain(data, &p, "Operation"); err != nil {
		return err
	}
	p.PartitionSpec = orDefaultPartitionSpec(p.PartitionSpec)
	*o = Operation(p)
	return nil
}

// OperationType is the kind of an operation (com.linkedin.common.OperationType).
type OperationType string

// OperationType values, in PDL order.
const (
	OperationTypeInsert  OperationType = "INSERT"  // rows were inserted
	OperationTypeUpdate  OperationType = "UPDATE"  // rows were updated
	OperationTypeDelete  OperationType = "DELETE"  // rows were deleted
	OperationTypeCreate  OperationType = "CREATE"  // the asset was created
	OperationTypeAlter   OperationType = "ALTER"   // the asset was altered
	OperationTypeDrop    OperationType = "DROP"    // the asset was dropped
	OperationTypeCustom  OperationType = "CUSTOM"  // see Operation.CustomOperationType
	OperationTypeUnknown OperationType = "UNKNOWN" // not known
)

// OperationSourceType says what reported an operation
// (com.linkedin.common.OperationSourceType).
type OperationSourceType string

// OperationSourceType values, in PDL order.
const (
	OperationSourceDataProcess  OperationSourceType = "DATA_PROCESS"  // a data process
	OperationSourceDataPlatform OperationSourceType = "DATA_PLATFORM" // the data platform
)
