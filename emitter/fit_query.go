package emitter

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
)

// QueryStatementLimit is the size Fit keeps a queryProperties aspect
// under, when its limit is larger: 5 MiB, as DataHub's Python framework
// does, since such writes may also go through Kafka, whose producers refuse
// larger messages by default.
const QueryStatementLimit = 5 * 1024 * 1024

// fitQuerySubjects keeps the table-level subjects in order while their
// total size stays under limit, then, if all were kept, the column-level
// ones (schemaField URNs); from the first that does not fit, the rest of
// its kind and any after are dropped.
func fitQuerySubjects(q *aspects.QuerySubjects, limit int) (FitResult, error) {
	if len(q.Subjects) == 0 {
		return FitResult{}, nil
	}
	var table, column []aspects.QuerySubject
	for _, s := range q.Subjects {
		if strings.HasPrefix(s.Entity, "urn:li:schemaField:") {
			column = append(column, s)
		} else {
			table = append(table, s)
		}
	}
	total := 0
	keep := func(list []aspects.QuerySubject) ([]aspects.QuerySubject, bool, error) {
		for i, s := range list {
			n, err := sizeOf(s)
			if err != nil {
				return nil, false, err
			}
			if total+n >= limit {
				return list[:i], true, nil
			}
			total += n
		}
		return list, false, nil
	}
	keptTable, skipped, err := keep(table)
	if err != nil {
		return FitResult{}, err
	}
	keptColumn := column[:0:0]
	if !skipped {
		if keptColumn, skipped, err = keep(column); err != nil {
			return FitResult{}, err
		}
	}
	q.Subjects = append(keptTable, keptColumn...)
	if !skipped {
		return FitResult{}, nil
	}
	res := FitResult{Trimmed: true}
	if d := len(table) - len(keptTable); d > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d table-level subjects were dropped", d, len(table)))
	}
	if d := len(column) - len(keptColumn); d > 0 {
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d column-level subjects were dropped", d, len(column)))
	}
	return res, nil
}

// fitText replaces the text *field by text(prefix, original length,
// retained length) for the longest prefix (in characters) with which v's
// encoding stays under limit; it returns the retained length.
func fitText(v any, field *string, limit int, text func(prefix string, orig, kept int) string) (int, error) {
	full := []rune(*field)
	*field = ""
	empty, err := sizeOf(v)
	if err != nil {
		return 0, err
	}
	overhead := empty - len(`""`)
	candidate := func(kept int) string { return text(string(full[:kept]), len(full), kept) }
	fits := func(kept int) bool {
		b, _ := json.Marshal(candidate(kept))
		return overhead+len(b) < limit
	}
	lo, hi, kept := 0, len(full), 0
	for lo <= hi {
		mid := (lo + hi) / 2
		if fits(mid) {
			kept, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	*field = candidate(kept)
	return kept, nil
}

// fitQueryProperties shortens the statement of a queryProperties aspect
// whose encoding reaches min(limit, QueryStatementLimit), noting the
// lengths; if the aspect is still too large, its name and description are
// dropped.
func fitQueryProperties(q *aspects.QueryProperties, limit int) (FitResult, error) {
	if q.Statement.Value == "" {
		return FitResult{}, nil
	}
	limit = min(limit, QueryStatementLimit)
	size, err := sizeOf(q)
	if err != nil || size < limit {
		return FitResult{}, err
	}
	kept, err := fitText(q, &q.Statement.Value, limit, func(prefix string, orig, kept int) string {
		return prefix + fmt.Sprintf("... [original value was %d bytes and truncated to %d bytes]", orig, kept)
	})
	if err != nil {
		return FitResult{}, err
	}
	res := FitResult{Trimmed: true, Notes: []string{fmt.Sprintf("the statement was truncated to %d characters", kept)}}
	if size, err = sizeOf(q); err != nil {
		return FitResult{}, err
	}
	if size >= limit {
		if q.Name != nil && *q.Name != "" {
			q.Name = nil
			res.Notes = append(res.Notes, "the name was dropped")
		}
		if q.Description != nil && *q.Description != "" {
			q.Description = nil
			res.Notes = append(res.Notes, "the description was dropped")
		}
		if size, err = sizeOf(q); err != nil {
			return FitResult{}, err
		}
		if size >= limit {
			res.Notes = append(res.Notes, fmt.Sprintf("still %d bytes, over the %d-byte limit: other members are too large", size, limit))
		}
	}
	return res, nil
}

// fitViewProperties shortens, when a viewProperties aspect's encoding
// reaches limit, its formattedViewLogic (the derived form) first, then, if
// that is not enough, its viewLogic; a text of which nothing fits is
// replaced by a note.
func fitViewProperties(v *aspects.ViewProperties, limit int) (FitResult, error) {
	if v.ViewLogic == "" && (v.FormattedViewLogic == nil || *v.FormattedViewLogic == "") {
		return FitResult{}, nil
	}
	size, err := sizeOf(v)
	if err != nil || size < limit {
		return FitResult{}, err
	}
	text := func(prefix string, orig, kept int) string {
		if kept == 0 {
			return fmt.Sprintf("[removed due to size - original was %d chars]", orig)
		}
		return prefix + fmt.Sprintf("... [truncated from %d to %d chars]", orig, kept)
	}
	var res FitResult
	shrink := func(name string, field *string) error {
		orig := len([]rune(*field))
		kept, err := fitText(v, field, limit, text)
		if err != nil {
			return err
		}
		if kept == 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("%s was removed (%d characters)", name, orig))
		} else {
			res.Notes = append(res.Notes, fmt.Sprintf("%s was truncated from %d to %d characters", name, orig, kept))
		}
		res.Trimmed = true
		return nil
	}
	if v.FormattedViewLogic != nil && *v.FormattedViewLogic != "" {
		if err := shrink("formattedViewLogic", v.FormattedViewLogic); err != nil {
			return FitResult{}, err
		}
		if size, err = sizeOf(v); err != nil || size < limit {
			return res, err
		}
	}
	if v.ViewLogic != "" {
		if err := shrink("viewLogic", &v.ViewLogic); err != nil {
			return FitResult{}, err
		}
	}
	return res, nil
}
