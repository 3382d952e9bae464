package index

import (
	"regexp"
	"strings"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// RestoreArgs select the store rows [Index.Restore] indexes again, as the
// parameters of GMS's restoreIndices select rows of metadata_aspect_v2
// (latest versions only).
type RestoreArgs struct {
	// URN keeps only this entity's rows ("" keeps all).
	URN string
	// Aspect keeps only this aspect's rows ("" keeps all).
	Aspect string
	// URNLike keeps only the URNs matching this SQL LIKE pattern (% any
	// run, _ one character; "" keeps all).
	URNLike string
	// Start skips that many selected rows.
	Start int
	// BatchSize is the number of rows per batch (> 0).
	BatchSize int
	// Limit is the number of rows to restore in batches of BatchSize; 0
	// restores one batch (batchSize URNs beginning at start).
	Limit int
	// GePitEpochMs and LePitEpochMs keep only rows created in
	// [GePitEpochMs, LePitEpochMs] (0: unbounded).
	GePitEpochMs, LePitEpochMs int64
}

// RestoreBatch is the outcome of one batch of a restore.
type RestoreBatch struct {
	// RowsMigrated is the number of rows indexed again.
	RowsMigrated int
	// LastURN and LastAspect name the batch's last row ("" for none).
	LastURN, LastAspect string
}

// Restore rebuilds the index documents of exactly the selected store rows,
// in the store's row order (see [store.Store.Rows]), and reports the
// batches. It works while indexing is paused.
func (x *Index) Restore(args RestoreArgs) ([]RestoreBatch, error) {
	if args.BatchSize <= 0 {
		args.BatchSize = 1
	}
	// The scan starts at the URN, or at the literal start of the pattern.
	prefix := args.URN
	var like *regexp.Regexp
	if args.URNLike != "" {
		like = LikePattern(args.URNLike)
		if prefix == "" {
			prefix = likePrefix(args.URNLike)
		}
	}
	x.Sync()
	rows, err := x.st.Rows(store.RowQuery{URNPrefix: prefix, Aspect: args.Aspect})
	if err != nil {
		return nil, err
	}
	want := args.BatchSize
	if args.Limit > 0 {
		want = args.Limit
	}
	skip := max(args.Start, 0)
	var sel []store.Aspect
	for _, r := range rows {
		if len(sel) == want {
			break
		}
		if (args.URN != "" && r.URN != args.URN) || (like != nil && !like.MatchString(r.URN)) ||
			!inPit(r.CreatedOn, args.GePitEpochMs, args.LePitEpochMs) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		sel = append(sel, r)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	batches := []RestoreBatch{}
	for len(sel) > 0 || len(batches) == 0 {
		n := min(len(sel), args.BatchSize)
		b := RestoreBatch{RowsMigrated: n}
		for _, r := range sel[:n] {
			x.upsertAspect(r.URN, r.Name, r.Value)
			b.LastURN, b.LastAspect = r.URN, r.Name
		}
		batches = append(batches, b)
		sel = sel[n:]
	}
	return batches, nil
}

func inPit(t time.Time, ge, le int64) bool {
	ms := t.UnixMilli()
	return (ge == 0 || ms >= ge) && (le == 0 || ms <= le)
}

// LikePattern compiles a SQL LIKE pattern: % matches any run of
// characters, _ one character, \ escapes the next one.
func LikePattern(p string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	esc := false
	for _, r := range p {
		switch {
		case esc:
			b.WriteString(regexp.QuoteMeta(string(r)))
			esc = false
		case r == '\\':
			esc = true
		case r == '%':
			b.WriteString("(?s:.*)")
		case r == '_':
			b.WriteString("(?s:.)")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// likePrefix is the literal start of a LIKE pattern (before its first
// wildcard or escape).
func likePrefix(p string) string {
	if i := strings.IndexAny(p, `%_\`); i >= 0 {
		return p[:i]
	}
	return p
}
