package store

import (
	"bytes"
	"encoding/json"
	"slices"
)

// RollbackOutcome is what [Store.RollbackAspect] did.
type RollbackOutcome struct {
	// Matched reports that the latest version matched (nothing else is
	// done when it did not).
	Matched bool
	// Removed counts the versions removed (the latest included).
	Removed int
	// Restored reports that an older version became the latest again.
	Restored bool
	// NoSurvivor reports that every version matched and, as asked, nothing
	// was changed.
	NoSurvivor bool
}

// RollbackAspect undoes the latest versions of (urn, aspect) whose
// systemMetadata match accepts, as GMS's rollback of an ingestion run does:
// walking back from the latest version, it removes every version match
// accepts and makes the first one it does not accept the latest again (its
// value, systemMetadata and audit stamp; its history row goes). When every
// version matches, the aspect is removed, unless keep is set: then nothing
// changes and the outcome says NoSurvivor (the caller decides, as GMS does
// for a key aspect). Nothing happens when the latest version does not match
// or there is none.
func (s *Store) RollbackAspect(urn, aspect string, match func(systemMetadata json.RawMessage) bool, keep bool) (RollbackOutcome, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out RollbackOutcome
	err := s.update(s.clock(), func(t txn) error {
		out = RollbackOutcome{}
		latestKey := rowKey(urn, aspect, 0)
		latest, ok, err := getRow(t, urn, aspect, 0)
		if err != nil || !ok || !match(latest.SystemMetadata) {
			return err
		}
		out.Matched = true
		var versions []int64
		err = t.scan(aspectRows, aspectPrefix(urn, aspect), nil, func(k, _ []byte) (bool, error) {
			if _, _, v, ok := parseRowKey(k); ok && v > 0 {
				versions = append(versions, v)
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		slices.Sort(versions)
		slices.Reverse(versions)
		var drop []int64
		survivor, survivorVersion := row{}, int64(0)
		for _, v := range versions {
			r, ok, err := getRow(t, urn, aspect, v)
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if match(r.SystemMetadata) {
				drop = append(drop, v)
				continue
			}
			survivor, survivorVersion = r, v
			break
		}
		if survivorVersion == 0 && keep {
			out = RollbackOutcome{Matched: true, NoSurvivor: true}
			return nil
		}
		for _, v := range drop {
			if err := t.del(aspectRows, rowKey(urn, aspect, v)); err != nil {
				return err
			}
		}
		out.Removed = len(drop) + 1
		if survivorVersion == 0 {
			return t.del(aspectRows, latestKey)
		}
		if survivor.Version == 0 {
			survivor.Version = survivorVersion
		}
		if err := putLatest(t, latestKey, urn, aspect, survivor); err != nil {
			return err
		}
		out.Restored = true
		return t.del(aspectRows, rowKey(urn, aspect, survivorVersion))
	})
	if err != nil {
		return RollbackOutcome{}, mapErr(err)
	}
	return out, nil
}

// DeleteDocumentsWhere removes, in one transaction, every timeseries
// document pick accepts, and returns how many it removed; each removal is
// reported as an [EventDeleteTimeseries].
func (s *Store) DeleteDocumentsWhere(pick func(TimeseriesDoc) bool) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	err := s.update(s.clock(), func(t txn) error {
		n = 0
		var keys [][]byte
		err := t.scan(timeseriesDocs, nil, nil, func(k, v []byte) (bool, error) {
			u, a, at, ok := parseTSKey(k)
			if !ok {
				return true, nil
			}
			d, err := decodeDoc(v)
			if err != nil {
				return false, err
			}
			if pick(TimeseriesDoc{URN: u, Aspect: a, TimestampMillis: at, Value: d.Value, SystemMetadata: d.SystemMetadata}) {
				keys = append(keys, bytes.Clone(k))
			}
			return true, nil
		})
		if err != nil {
			return err
		}
		for _, k := range keys {
			if err := t.del(timeseriesDocs, k); err != nil {
				return err
			}
			n++
		}
		return nil
	})
	if err != nil {
		return 0, mapErr(err)
	}
	return n, nil
}
