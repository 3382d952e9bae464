package stateful

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/urn"
)

// DefaultFailSafeThreshold is the largest share of the previous run's
// entities, in percent, a run removes (DataHub's fail_safe_threshold).
const DefaultFailSafeThreshold = 75.0

// ignoredTypes are the entity types a run neither tracks nor removes
// (DataHub's STATEFUL_INGESTION_IGNORED_ENTITY_TYPES): runs and queries are
// not things a source has.
var ignoredTypes = []string{"dataProcessInstance", "query"}

// Option configures a Run.
type Option struct{ apply func(*settings) }

type settings struct {
	platform, uniqueID, job, runID string
	threshold                      float64
	dryRun                         bool
	log                            *slog.Logger
	now                            func() time.Time
}

// WithPlatform sets the platform the job is named after (see JobName);
// the default is none ("default_stale_entity_removal"). A Python connector
// of the same pipeline and platform shares the checkpoints.
func WithPlatform(platform string) Option { return Option{func(s *settings) { s.platform = platform }} }

// WithUniqueID sets the suffix of the job name of one of several states in
// a pipeline (DataHub's set_job_id).
func WithUniqueID(id string) Option { return Option{func(s *settings) { s.uniqueID = id }} }

// WithJobName sets the job name itself, overriding WithPlatform and
// WithUniqueID.
func WithJobName(job string) Option { return Option{func(s *settings) { s.job = job }} }

// WithRunID sets the run's id, written in the checkpoint; the default is
// "<pipeline>-<UTC time of Start>".
func WithRunID(id string) Option { return Option{func(s *settings) { s.runID = id }} }

// WithFailSafeThreshold sets the largest share, in percent (0 to 100), of
// the previous run's entities a run may remove; a run that would remove
// more removes nothing. The default is DefaultFailSafeThreshold; 100 turns
// the check off, as in DataHub.
func WithFailSafeThreshold(percent float64) Option {
	return Option{func(s *settings) { s.threshold = percent }}
}

// WithDryRun makes Finish report what it would remove without removing
// it or committing the checkpoint.
func WithDryRun(dryRun bool) Option { return Option{func(s *settings) { s.dryRun = dryRun }} }

// WithLogger sets the logger of the run's summary, fail-safes and
// removals; the default discards.
func WithLogger(l *slog.Logger) Option { return Option{func(s *settings) { s.log = l }} }

// Run is one run of an ingestion job with stale entity removal, as
// DataHub's stateful ingestion does it: Start reads the checkpoint the
// last successful run committed; the job writes what the source has with
// Ensure (or writes it otherwise and calls Track); Finish soft-deletes
// what the last run had and this one did not, and commits this run's
// checkpoint. A Run is safe for concurrent use.
type Run struct {
	c        *client.Client
	pipeline string
	job      string
	runID    string
	jobURN   urn.DataJob
	s        settings
	previous *Checkpoint

	mu       sync.Mutex
	urns     []string
	seen     map[string]bool
	report   Report
	failures []string
	finished bool
}

// Report is what a run did.
type Report struct {
	// Pipeline, Job and RunID name the run.
	Pipeline, Job, RunID string
	// Unchanged is the number of entities Ensure found as they were;
	// Written the number it created or changed; AspectsWritten the aspects
	// it wrote.
	Unchanged, Written, AspectsWritten int
	// Removed is the number of stale entities soft-deleted (in a dry run:
	// that would have been).
	Removed int
	// Failed is the number of failures: entities not written, failures the
	// job reported with Fail, stale entities not removed.
	Failed int
	// Stale lists the stale URNs removed (or, in a dry run, to remove),
	// sorted; NotRemovable those of types without a status aspect, left.
	Stale, NotRemovable []string
	// Previous and Current are the numbers of URNs of the last checkpoint
	// and of this run.
	Previous, Current int
	// Skipped, when not empty, says why nothing was removed: a fail-safe.
	Skipped string
	// Committed reports whether this run's checkpoint was committed.
	Committed bool
	// DryRun reports a dry run.
	DryRun bool
}

// Start begins a run of pipeline: it reads the last checkpoint of the
// run's job (see JobName, WithPlatform, WithJobName). A checkpoint that
// does not decode is an error: remove it, or name another job, rather than
// run without knowing what the last run had.
func Start(ctx context.Context, c *client.Client, pipeline string, opts ...Option) (*Run, error) {
	if c == nil {
		return nil, fmt.Errorf("stateful: no client: %w", datahub.ErrValidation)
	}
	if pipeline == "" {
		return nil, fmt.Errorf("%w: %w", errNoPipeline, datahub.ErrValidation)
	}
	s := settings{threshold: DefaultFailSafeThreshold, now: time.Now}
	for _, o := range opts {
		o.apply(&s)
	}
	if s.threshold < 0 || s.threshold > 100 {
		return nil, fmt.Errorf("stateful: fail-safe threshold %v is not a percentage from 0 to 100: %w", s.threshold, datahub.ErrValidation)
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	job := s.job
	if job == "" {
		job = JobName(s.platform, s.uniqueID)
	}
	ju, err := JobURN(pipeline, job)
	if err != nil {
		return nil, fmt.Errorf("stateful: %w: %w", err, datahub.ErrValidation)
	}
	runID := s.runID
	if runID == "" {
		runID = pipeline + "-" + s.now().UTC().Format("2006_01_02-15_04_05")
	}
	prev, err := ReadCheckpoint(ctx, c, pipeline, job)
	if err != nil {
		return nil, err
	}
	r := &Run{c: c, pipeline: pipeline, job: job, runID: runID, jobURN: ju, s: s, previous: prev, seen: map[string]bool{}}
	r.report = Report{Pipeline: pipeline, Job: job, RunID: runID, DryRun: s.dryRun}
	if prev != nil {
		r.report.Previous = len(prev.URNs)
	}
	return r, nil
}

// Previous returns the checkpoint the run started from, nil when there
// was none.
func (r *Run) Previous() *Checkpoint { return r.previous }

// Track records that the run produced entity u, so that Finish does not
// remove it. Ensure tracks what it writes; Track is for entities written
// otherwise. URNs of data process instances and queries are not tracked,
// as in DataHub.
func (r *Run) Track(u urn.URN) {
	if u == nil || u.String() == "" || slices.Contains(ignoredTypes, u.EntityType()) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.track(u.String())
}

func (r *Run) track(s string) {
	if !r.seen[s] {
		r.seen[s] = true
		r.urns = append(r.urns, s)
	}
}

// Fail records a failure of the source (an item it could not read): the
// run then removes nothing and commits no checkpoint, so that the next
// good run removes what this one could not know about.
func (r *Run) Fail(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.report.Failed++
	if err != nil {
		r.failures = append(r.failures, err.Error())
	}
}

// Ensure writes e as client.Entities.Ensure does (only the aspects that
// differ from the stored ones) and tracks its URN. When e's type has a
// status aspect and e holds none, Ensure sets e's Status to not removed,
// as DataHub's framework adds status to every entity it emits, so that an
// entity an earlier run removed comes back when the source has it again.
// A failure is counted (see Fail) and returned.
func (r *Run) Ensure(ctx context.Context, e entity.Entity) (client.EnsureResult, error) {
	if e == nil {
		return client.EnsureResult{}, fmt.Errorf("stateful: no entity: %w", datahub.ErrValidation)
	}
	if !slices.ContainsFunc(entity.Aspects(e), func(a aspects.Aspect) bool { return a.AspectName() == "status" }) {
		if info, ok := aspects.LookupEntity(e.EntityURN().EntityType()); ok && slices.Contains(info.Aspects, "status") {
			entity.SetAspect(e, &aspects.Status{Removed: false})
		}
	}
	res, err := r.c.Entities().Ensure(ctx, e)
	if err != nil {
		r.Fail(err)
		return res, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Contains(ignoredTypes, e.EntityURN().EntityType()) {
		r.track(res.URN)
	}
	if w := len(res.Written()); w > 0 {
		r.report.Written++
		r.report.AspectsWritten += w
	} else {
		r.report.Unchanged++
	}
	return res, nil
}

// Finish ends the run as DataHub's stale entity removal does. When the
// run reported failures, or, against a previous checkpoint, produced
// nothing or would remove more than the fail-safe threshold of the
// previous run's entities, it removes nothing,
// commits nothing (so the previous checkpoint stays, and the next good run
// removes what is stale), says why in Report.Skipped and logs it.
// Otherwise it soft-deletes (status.removed = true) each entity of the
// previous checkpoint this run did not produce (types without a status
// aspect, data process instances and queries are left), then commits this
// run's checkpoint; a removal that fails is counted and the checkpoint not
// committed, so that the next run tries again. A dry run removes and
// commits nothing. Finish may be called once.
func (r *Run) Finish(ctx context.Context) (Report, error) {
	r.mu.Lock()
	if r.finished {
		r.mu.Unlock()
		return Report{}, fmt.Errorf("stateful: run %s already finished: %w", r.runID, datahub.ErrValidation)
	}
	r.finished = true
	rep := r.report
	cur := slices.Clone(r.urns)
	failures := slices.Clone(r.failures)
	r.mu.Unlock()
	rep.Current = len(cur)

	rep.Skipped = r.failSafe(rep, cur, failures)
	if rep.Skipped != "" {
		r.s.log.Warn("stateful ingestion: skipping stale entity removal", "pipeline", r.pipeline, "job", r.job, "reason", rep.Skipped)
		r.logSummary(rep)
		return rep, nil
	}
	var removeErr error
	if r.previous != nil {
		in := make(map[string]bool, len(cur))
		for _, u := range cur {
			in[u] = true
		}
		for _, s := range r.previous.URNs {
			if in[s] {
				continue
			}
			u, err := urn.Parse(s)
			if err != nil || slices.Contains(ignoredTypes, u.EntityType()) || !hasStatus(u.EntityType()) {
				rep.NotRemovable = append(rep.NotRemovable, s)
				continue
			}
			if r.s.dryRun {
				rep.Stale = append(rep.Stale, s)
				rep.Removed++
				continue
			}
			r.s.log.Info("stateful ingestion: soft-deleting stale entity", "urn", s)
			if err := r.c.Entities().Delete(ctx, u, false); err != nil {
				var nf *client.EntityNotFoundError
				if !errors.As(err, &nf) {
					rep.Failed++
					removeErr = errors.Join(removeErr, err)
					continue
				}
				// Gone already (hard-deleted): nothing to remove.
			}
			rep.Stale = append(rep.Stale, s)
			rep.Removed++
		}
		slices.Sort(rep.Stale)
		slices.Sort(rep.NotRemovable)
	}
	if r.s.dryRun {
		r.logSummary(rep)
		return rep, nil
	}
	if removeErr != nil {
		r.logSummary(rep)
		return rep, fmt.Errorf("stateful: run %s: removing stale entities (the checkpoint is not committed; the next run tries again): %w", r.runID, removeErr)
	}
	if err := r.commit(ctx, cur); err != nil {
		rep.Failed++
		r.logSummary(rep)
		return rep, err
	}
	rep.Committed = true
	r.logSummary(rep)
	return rep, nil
}

// failSafe returns why the run must not remove anything, "" when it may.
func (r *Run) failSafe(rep Report, cur, failures []string) string {
	if rep.Failed > 0 {
		why := fmt.Sprintf("the run reported %d failures", rep.Failed)
		if len(failures) > 0 {
			why += " (first: " + failures[0] + ")"
		}
		return why + "; stale entities are not removed and the checkpoint is not committed"
	}
	if r.previous == nil {
		return "" // nothing to remove: commit the first checkpoint, even an empty one
	}
	if len(cur) == 0 {
		return "the run produced no entities: nothing is removed, a fail-safe against removing everything"
	}
	pct := percentChanged(cur, r.previous.URNs)
	if pct > r.s.threshold && r.s.threshold < 100 {
		return fmt.Sprintf("the previous run produced %d entities and this run %d: it would remove %.1f%% of the previous run's entities, above the fail-safe threshold of %v%%",
			len(r.previous.URNs), len(cur), pct, r.s.threshold)
	}
	return ""
}

// percentChanged returns the share, in percent, of old's URNs (data
// process instances and queries left out) that cur does not have.
func percentChanged(cur, old []string) float64 {
	in := make(map[string]bool, len(cur))
	for _, u := range cur {
		in[u] = true
	}
	oldSet := map[string]bool{}
	for _, u := range old {
		if !slices.ContainsFunc(ignoredTypes, func(t string) bool { return strings.HasPrefix(u, "urn:li:"+t) }) {
			oldSet[u] = true
		}
	}
	if len(oldSet) == 0 {
		return 0
	}
	overlap := 0
	for u := range oldSet {
		if in[u] {
			overlap++
		}
	}
	return (1 - float64(overlap)/float64(len(oldSet))) * 100
}

// hasStatus reports whether entity type t has a status aspect.
func hasStatus(t string) bool {
	info, ok := aspects.LookupEntity(t)
	return ok && slices.Contains(info.Aspects, "status")
}

// commit writes the checkpoint of cur, then marks the job's entity removed
// so that checkpoints do not show in searches, as DataHub does.
func (r *Run) commit(ctx context.Context, cur []string) error {
	st, err := EncodeState(cur)
	if err != nil {
		return err
	}
	cp := aspects.DatahubIngestionCheckpoint{
		TimestampMillis:    r.s.now().UnixMilli(),
		PipelineName:       r.pipeline,
		PlatformInstanceID: "",
		Config:             "",
		State:              st,
		RunID:              r.runID,
	}
	if err := r.c.WriteTimeseries(ctx, r.jobURN, cp); err != nil {
		return fmt.Errorf("stateful: commit the checkpoint of run %s: %w", r.runID, err)
	}
	if err := r.c.Entities().Delete(ctx, r.jobURN, false); err != nil {
		return fmt.Errorf("stateful: hide the checkpoint job %s from search: %w", r.jobURN, err)
	}
	return nil
}

func (r *Run) logSummary(rep Report) {
	r.s.log.Info("stateful ingestion: run finished", "pipeline", rep.Pipeline, "job", rep.Job, "run", rep.RunID,
		"unchanged", rep.Unchanged, "written", rep.Written, "aspects_written", rep.AspectsWritten,
		"removed", rep.Removed, "failed", rep.Failed, "previous", rep.Previous, "current", rep.Current,
		"committed", rep.Committed, "dry_run", rep.DryRun, "skipped", rep.Skipped)
}
