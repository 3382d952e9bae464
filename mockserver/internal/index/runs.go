package index

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// runs is the index's view of DataHub's system metadata index: the run id
// of each entity's latest aspect rows, and the rows of each run, so that a
// run's rows are found in O(answer); x.mu guards it.
type runs struct {
	of    map[string]map[string]string              // urn → aspect → run id
	byRun map[string]map[string]map[string]struct{} // run id → urn → aspects
}

// defaultRunID is the SystemMetadata.pdl default of runId.
const defaultRunID = "no-run-id-provided"

// runIDOf reads systemMetadata.runId, without decoding the whole object
// when the member is written plainly: its SystemMetadata.pdl default,
// "no-run-id-provided", when an object leaves it out (as DataHub's system
// metadata index reads it); "" when sm is absent or unreadable.
func runIDOf(sm json.RawMessage) string {
	if id, ok := plainRunID(sm); ok {
		return string(id)
	}
	var m struct {
		RunID *string `json:"runId"`
	}
	if len(sm) == 0 || json.Unmarshal(sm, &m) != nil || string(sm) == "null" {
		return ""
	}
	if m.RunID == nil {
		return defaultRunID
	}
	return *m.RunID
}

// plainRunID is the run id of sm, sharing it, when its runId member is
// written plainly (no escape); ok is false otherwise.
func plainRunID(sm json.RawMessage) (id []byte, ok bool) {
	const key = `"runId":"`
	i := bytes.Index(sm, []byte(key))
	if i < 0 {
		return nil, false
	}
	rest := sm[i+len(key):]
	if j := bytes.IndexByte(rest, '"'); j >= 0 && bytes.IndexByte(rest[:j], '\\') < 0 {
		return rest[:j], true
	}
	return nil, false
}

// record is set of the run id of systemMetadata sm (see runIDOf). A write
// by the run that wrote the row before, the usual case, changes nothing
// and allocates nothing.
func (r *runs) record(urn, aspect string, sm json.RawMessage) {
	if id, ok := plainRunID(sm); ok {
		if cur, found := r.of[urn][aspect]; found && cur == string(id) {
			return
		}
	}
	r.set(urn, aspect, runIDOf(sm))
}

// set records that aspect of urn was last written by run id ("" none).
func (r *runs) set(urn, aspect, id string) {
	r.drop(urn, aspect)
	if id == "" {
		return
	}
	if r.of == nil {
		r.of, r.byRun = map[string]map[string]string{}, map[string]map[string]map[string]struct{}{}
	}
	m := r.of[urn]
	if m == nil {
		m = map[string]string{}
		r.of[urn] = m
	}
	m[aspect] = id
	u := r.byRun[id]
	if u == nil {
		u = map[string]map[string]struct{}{}
		r.byRun[id] = u
	}
	as := u[urn]
	if as == nil {
		as = map[string]struct{}{}
		u[urn] = as
	}
	as[aspect] = struct{}{}
}

// drop forgets the run of aspect of urn.
func (r *runs) drop(urn, aspect string) {
	id, ok := r.of[urn][aspect]
	if !ok {
		return
	}
	delete(r.of[urn], aspect)
	if len(r.of[urn]) == 0 {
		delete(r.of, urn)
	}
	as := r.byRun[id][urn]
	delete(as, aspect)
	if len(as) == 0 {
		delete(r.byRun[id], urn)
		if len(r.byRun[id]) == 0 {
			delete(r.byRun, id)
		}
	}
}

// dropEntity forgets the runs of every aspect of urn.
func (r *runs) dropEntity(urn string) {
	for aspect := range r.of[urn] {
		r.drop(urn, aspect)
	}
}

// RunRow names one latest aspect row of a run.
type RunRow struct{ URN, Aspect string }

// RunRows returns the rows whose latest version run id wrote (every run's
// when id is ""), sorted by URN then aspect, as far as the index has
// caught up with the store: O(answer).
func (x *Index) RunRows(id string) []RunRow {
	x.Sync()
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []RunRow
	add := func(u map[string]map[string]struct{}) {
		for urn, as := range u {
			for a := range as {
				out = append(out, RunRow{urn, a})
			}
		}
	}
	if id != "" {
		add(x.runs.byRun[id])
	} else {
		for _, u := range x.runs.byRun {
			add(u)
		}
	}
	slices.SortFunc(out, func(a, b RunRow) int {
		if c := strings.Compare(a.URN, b.URN); c != 0 {
			return c
		}
		return strings.Compare(a.Aspect, b.Aspect)
	})
	return out
}
