package gms

// DefaultTimeseriesLimit is the number of documents
// getTimeseriesAspectValues returns without a limit (GMS's timeseries
// service default).
const DefaultTimeseriesLimit = 10000

// TimeseriesLimit is the most documents getTimeseriesAspectValues returns:
// 1 with latestValue, else limit, or [DefaultTimeseriesLimit] when it is nil.
func TimeseriesLimit(limit *int64, latestValue bool) int64 {
	switch {
	case latestValue:
		return 1
	case limit != nil:
		return *limit
	}
	return DefaultTimeseriesLimit
}
