package gms

// TruncateFlagsConflict reports whether truncateTimeseriesAspect's
// forceDeleteByQuery and forceReindex are both given with the same value,
// which OperationsResource refuses (nil: not given).
func TruncateFlagsConflict(forceDeleteByQuery, forceReindex *bool) bool {
	return forceDeleteByQuery != nil && forceReindex != nil && *forceDeleteByQuery == *forceReindex
}

// TruncateByReindex reports whether truncateTimeseriesAspect deletes
// toDelete of total documents by reindexing the aspect without them
// (forceReindex, or more than half of them deleted) rather than by a
// delete-by-query (forceDeleteByQuery, or half or fewer), as
// OperationsResource.executeTruncateTimeseriesAspect decides.
func TruncateByReindex(forceDeleteByQuery, forceReindex *bool, toDelete, total int) bool {
	if forceDeleteByQuery != nil && *forceDeleteByQuery {
		return false
	}
	return (forceReindex != nil && *forceReindex) || toDelete > total/2
}
