package store

// Retainer is an optional method of [Rules]: how many versions of an
// aspect a write keeps. When the Rules given to the store have it, a write
// that makes a new version keeps the latest row and at most
// KeepVersions-1 history rows, the newest (GMS's version-based retention,
// applied with each write); 1 keeps no history row at all; 0 or less keeps
// every version, as without it.
type Retainer interface {
	KeepVersions(urn, aspect string) int64
}

// keepVersions is rules' KeepVersions for (urn, aspect), 0 without it.
func keepVersions(rules Rules, urn, aspect string) int64 {
	if r, ok := rules.(Retainer); ok {
		return r.KeepVersions(urn, aspect)
	}
	return 0
}

// retain deletes the history row that the write of version next (whose
// previous version, now history row next-1, was just kept) puts past the
// keep newest versions: history row next-keep, when keep > 1.
func retain(t txn, p *prepared, next, keep int64) error {
	if keep <= 1 || next-keep < 1 {
		return nil
	}
	return t.del(aspectRows, p.historyKey(next-keep))
}
