package emitter

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
)

// FitResult says what Fit removed from an aspect.
type FitResult struct {
	// Trimmed reports whether anything was removed.
	Trimmed bool
	// Notes says what, one sentence each, for a log.
	Notes []string
}

// Fit trims the aspect a points to so that it fits in one write of
// limit bytes (0: DefaultMaxBatchBytes, DataHub's limit on a request), as
// DataHub's Python framework does before emitting (its
// EnsureAspectSizeProcessor), instead of having the write refused. It is
// opt-in: call it on an aspect that may be too large, before writing it.
// Sizes are those of this module's JSON encoding, which is what is sent.
//
//   - *aspects.SchemaMetadata, when its encoding reaches 98.5% of limit:
//     the raw platform schema text is blanked (the fields carry the
//     structured metadata), then fields are kept, shallowest field paths
//     first, while they fit; the rest are dropped.
//   - *aspects.DatasetProfile: the sample values of a field profile that
//     would take the values' total length past limit are dropped.
//   - *aspects.UpstreamLineage: upstreams are kept in order while they
//     fit, then the column-level lineages whose upstream type is DATASET,
//     FIELD_SET, then NONE; from the first that does not fit, everything
//     after it is dropped.
//   - *aspects.QuerySubjects: table-level subjects are kept in order while
//     they fit, then, if all did, the column-level ones (schemaField URNs);
//     from the first that does not fit, the rest are dropped.
//   - *aspects.QueryProperties, when its encoding reaches limit or
//     QueryStatementLimit, whichever is smaller: the statement is cut to
//     the longest prefix that fits with a note of the original and kept
//     lengths appended; if even that is too large, the name and the
//     description are dropped (the result's notes say when the aspect is
//     still too large because of other members).
//   - *aspects.ViewProperties, when its encoding reaches limit:
//     formattedViewLogic (the derived form) is cut so, then, if that was
//     not enough, viewLogic; a text of which nothing fits is replaced by a
//     note of its length.
//
// Other aspects, and aspects that fit, are left as they are. A nil
// pointer, or an aspect passed by value (which Fit could not change), is
// an error.
func Fit(a aspects.Aspect, limit int) (FitResult, error) {
	if limit <= 0 {
		limit = DefaultMaxBatchBytes
	}
	switch v := a.(type) {
	case *aspects.SchemaMetadata:
		if v == nil {
			return FitResult{}, fmt.Errorf("emitter: fit: nil *aspects.SchemaMetadata")
		}
		return fitSchema(v, int(float64(limit)*0.985))
	case *aspects.DatasetProfile:
		if v == nil {
			return FitResult{}, fmt.Errorf("emitter: fit: nil *aspects.DatasetProfile")
		}
		return fitProfile(v, limit), nil
	case *aspects.UpstreamLineage:
		if v == nil {
			return FitResult{}, fmt.Errorf("emitter: fit: nil *aspects.UpstreamLineage")
		}
		return fitLineage(v, limit)
	case *aspects.QuerySubjects:
		if v == nil {
			return FitResult{}, fmt.Errorf("emitter: fit: nil *aspects.QuerySubjects")
		}
		return fitQuerySubjects(v, limit)
	case *aspects.QueryProperties:
		if v == nil {
			return FitResult{}, fmt.Errorf("emitter: fit: nil *aspects.QueryProperties")
		}
		return fitQueryProperties(v, limit)
	case *aspects.ViewProperties:
		if v == nil {
			return FitResult{}, fmt.Errorf("emitter: fit: nil *aspects.ViewProperties")
		}
		return fitViewProperties(v, limit)
	case aspects.SchemaMetadata, aspects.DatasetProfile, aspects.UpstreamLineage,
		aspects.QuerySubjects, aspects.QueryProperties, aspects.ViewProperties:
		return FitResult{}, fmt.Errorf("emitter: fit: pass a pointer to the %s aspect, so that it can be trimmed", a.AspectName())
	}
	return FitResult{}, nil
}

// sizeOf returns the length of v's JSON encoding.
func sizeOf(v any) (int, error) {
	b, err := json.Marshal(v)
	return len(b), err
}

// bracketed matches the [version=2.0], [type=...] parts of a field path.
var bracketed = regexp.MustCompile(`\[[^]]*]`)

// fieldDepth is the number of dotted parts of a field path, the bracketed
// parts of version-2 paths left out.
func fieldDepth(path string) int {
	n := 0
	for _, p := range strings.Split(bracketed.ReplaceAllString(path, ""), ".") {
		if p != "" {
			n++
		}
	}
	return n
}

func fitSchema(s *aspects.SchemaMetadata, constraint int) (FitResult, error) {
	size, err := sizeOf(s)
	if err != nil || size < constraint {
		return FitResult{}, err
	}
	var res FitResult
	if blankPlatformSchema(s) {
		res.Trimmed = true
		res.Notes = append(res.Notes, "the raw platform schema was removed")
	}
	fields := s.Fields
	s.Fields = nil
	total, err := sizeOf(s)
	if err != nil {
		s.Fields = fields
		return FitResult{}, err
	}
	sorted := slices.Clone(fields)
	slices.SortStableFunc(sorted, func(a, b aspects.SchemaField) int { return fieldDepth(a.FieldPath) - fieldDepth(b.FieldPath) })
	kept := make([]aspects.SchemaField, 0, len(sorted))
	for _, f := range sorted {
		n, err := sizeOf(f)
		if err != nil {
			s.Fields = fields
			return FitResult{}, err
		}
		if total+n >= constraint {
			break
		}
		kept = append(kept, f)
		total += n + 1 // and its comma
	}
	s.Fields = kept
	if d := len(fields) - len(kept); d > 0 {
		res.Trimmed = true
		res.Notes = append(res.Notes, fmt.Sprintf("%d of %d fields were dropped", d, len(fields)))
	}
	return res, nil
}

// blankPlatformSchema empties the raw schema text of s's platform schema
// and reports whether there was any.
func blankPlatformSchema(s *aspects.SchemaMetadata) bool {
	blank := func(ps ...*string) bool {
		cleared := false
		for _, p := range ps {
			if p != nil && *p != "" {
				*p, cleared = "", true
			}
		}
		return cleared
	}
	switch p := s.PlatformSchema.(type) {
	case aspects.OtherSchema:
		ok := blank(&p.RawSchema)
		s.PlatformSchema = p
		return ok
	case aspects.PrestoDDL:
		ok := blank(&p.RawSchema)
		s.PlatformSchema = p
		return ok
	case aspects.MySQLDDL:
		ok := blank(&p.TableSchema)
		s.PlatformSchema = p
		return ok
	case aspects.OracleDDL:
		ok := blank(&p.TableSchema)
		s.PlatformSchema = p
		return ok
	case aspects.OrcSchema:
		ok := blank(&p.Schema)
		s.PlatformSchema = p
		return ok
	case aspects.BinaryJSONSchema:
		ok := blank(&p.Schema)
		s.PlatformSchema = p
		return ok
	case aspects.KafkaSchema:
		ok := blank(&p.DocumentSchema, p.KeySchema)
		s.PlatformSchema = p
		return ok
	case aspects.EspressoSchema:
		ok := blank(&p.DocumentSchema, &p.TableSchema)
		s.PlatformSchema = p
		return ok
	case aspects.KeyValueSchema:
		ok := blank(&p.KeySchema, &p.ValueSchema)
		s.PlatformSchema = p
		return ok
	}
	return false
}

func fitProfile(p *aspects.DatasetProfile, limit int) FitResult {
	var res FitResult
	total := 0
	for i := range p.FieldProfiles {
		f := &p.FieldProfiles[i]
		if len(f.SampleValues) == 0 {
			continue
		}
		n := 0
		for _, v := range f.SampleValues {
			n += len(v)
		}
		if total+n > limit {
			f.SampleValues = nil
			res.Trimmed = true
			res.Notes = append(res.Notes, "the sample values of "+f.FieldPath+" were removed")
			continue
		}
		total += n
	}
	return res
}

func fitLineage(l *aspects.UpstreamLineage, limit int) (FitResult, error) {
	groups := [][]aspects.FineGrainedLineage{nil, nil, nil}
	for _, fg := range l.FineGrainedLineages {
		switch fg.UpstreamType {
		case aspects.FineGrainedLineageUpstreamTypeDataset:
			groups[0] = append(groups[0], fg)
		case aspects.FineGrainedLineageUpstreamTypeFieldSet:
			groups[1] = append(groups[1], fg)
		case aspects.FineGrainedLineageUpstreamTypeNone:
			groups[2] = append(groups[2], fg)
		}
	}
	total, skipped := 0, false
	var ups []aspects.Upstream
	for _, u := range l.Upstreams {
		n, err := sizeOf(u)
		if err != nil {
			return FitResult{}, err
		}
		if total+n >= limit {
			skipped = true
			break
		}
		ups, total = append(ups, u), total+n
	}
	var fgs []aspects.FineGrainedLineage
	for _, g := range groups {
		for _, fg := range g {
			if skipped {
				break
			}
			n, err := sizeOf(fg)
			if err != nil {
				return FitResult{}, err
			}
			if total+n >= limit {
				skipped = true
				break
			}
			fgs, total = append(fgs, fg), total+n
		}
	}
	if !skipped {
		return FitResult{}, nil
	}
	res := FitResult{Trimmed: true, Notes: []string{fmt.Sprintf("%d of %d upstreams and %d of %d column-level lineages were dropped",
		len(l.Upstreams)-len(ups), len(l.Upstreams), len(l.FineGrainedLineages)-len(fgs), len(l.FineGrainedLineages))}}
	l.Upstreams, l.FineGrainedLineages = ups, fgs
	return res, nil
}
