package client

import (
	"fmt"
	"strconv"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
)

// Option configures a [Client]; [New] and [FromEnv] take them. The options
// of this package (WithActor, WithConflictPolicy, WithGraphQLURL,
// WithRequireEntity, WithWriteStrategy) are Options, and so is every shared
// datahub.Option (token, headers, HTTP client, timeout, retry policy,
// logger, endpoint), so one list mixes both. An option of package emitter
// is not an Option: giving one to New does not compile. A nil Option is
// ignored.
type Option interface{ clientOption }

// clientOption is unexported so that only this module's options satisfy
// Option.
type clientOption = config.ClientOption

// Defaults of a Client.
const (
	// DefaultActor is the actor of the audit stamps the helpers write
	// (link create stamps, lastModified of ownership and glossary terms)
	// unless WithActor says otherwise; DataHub's own default actor.
	DefaultActor = "urn:li:corpuser:datahub"
	// DefaultConflictAttempts is how many times Modify reads, applies its
	// function and writes before it gives up with a *ConflictError.
	DefaultConflictAttempts = 50
	// DefaultConflictMinWait and DefaultConflictMaxWait bound the jittered
	// exponential wait between two attempts of Modify after a conflict.
	DefaultConflictMinWait = 5 * time.Millisecond
	// DefaultConflictMaxWait caps the wait between two attempts of Modify.
	DefaultConflictMaxWait = time.Second
)

// ConflictPolicy says how often Modify (and every helper built on it)
// retries after a conflicting concurrent write, and how long it waits in
// between: exponentially from MinWait, doubling up to MaxWait, each wait
// drawn at random from [0, w] ("full jitter", which spreads many
// contending writers out best).
type ConflictPolicy struct {
	// MaxAttempts is the number of read-apply-write rounds, the first
	// included; below 1 means 1.
	MaxAttempts int
	// MinWait is the wait bound before the second round.
	MinWait time.Duration
	// MaxWait caps the wait bound.
	MaxWait time.Duration
}

// DefaultConflictPolicy returns DefaultConflictAttempts rounds with waits
// from DefaultConflictMinWait up to DefaultConflictMaxWait.
func DefaultConflictPolicy() ConflictPolicy {
	return ConflictPolicy{MaxAttempts: DefaultConflictAttempts, MinWait: DefaultConflictMinWait, MaxWait: DefaultConflictMaxWait}
}

// WithActor sets the actor URN of the audit stamps the helpers write, such
// as "urn:li:corpuser:jdoe"; "" restores DefaultActor.
func WithActor(actor string) Option {
	return config.ClientOnly(func(s *config.Settings) {
		s.Client.Actor = actor
	})
}

// WithConflictPolicy sets how Modify retries after conflicts; the default
// is DefaultConflictPolicy().
func WithConflictPolicy(p ConflictPolicy) Option {
	return config.ClientOnly(func(s *config.Settings) {
		s.Client.ConflictSet = true
		s.Client.ConflictAttempts, s.Client.ConflictMinWait, s.Client.ConflictMaxWait = p.MaxAttempts, p.MinWait, p.MaxWait
	})
}

// WriteStrategy is how the add and remove helpers change a list in an
// aspect (see WithWriteStrategy).
type WriteStrategy int

const (
	// Conditional reads the aspect with its version, changes it and
	// writes it back with If-Version-Match, re-reading and retrying after
	// a conflict (Modify). It works on every aspect of every DataHub
	// server with conditional writes and keeps the stored members the Go
	// type does not know. It is the default.
	Conditional WriteStrategy = iota
	// Patch sends one PATCH proposal (built with package emitter/patch)
	// that the server merges into the stored aspect: no read of the
	// aspect, no version, no retry after a conflict. It needs a server
	// that can patch the aspect: a template for it (globalTags,
	// glossaryTerms, ownership, editableDatasetProperties,
	// editableSchemaMetadata, ...) or DataHub's generic patcher, which
	// the ML properties aspects and institutionalMemory need and which
	// older servers lack.
	Patch
)

// String returns "conditional" or "patch".
func (s WriteStrategy) String() string {
	switch s {
	case Conditional:
		return "conditional"
	case Patch:
		return "patch"
	}
	return "WriteStrategy(" + strconv.Itoa(int(s)) + ")"
}

// ParseWriteStrategy returns the strategy named "conditional" or "patch"
// (as String writes it), for flags and configuration files.
func ParseWriteStrategy(name string) (WriteStrategy, error) {
	switch name {
	case "conditional":
		return Conditional, nil
	case "patch":
		return Patch, nil
	}
	return 0, fmt.Errorf("client: unknown write strategy %q (want conditional or patch): %w", name, datahub.ErrValidation)
}

// WithRequireEntity sets whether Modify refuses to write to an entity
// that does not exist, as the helpers do. The default is false: Modify
// writes as DataHub's UPSERT does, so a missing aspect of a never-written
// entity is the zero value, and writing it creates the entity. With true,
// Modify first checks a missing aspect's entity (one existence read) and,
// when there is none, returns an *EntityNotFoundError (errors.Is(err,
// datahub.ErrNotFound)) without calling fn. The helpers (AddFeatureToTable,
// SetDescription, AddTag, ...) always require the entity, whatever this
// option says. [Client.WithRequireEntity] gives a copy of a client with the
// other setting, for one call or a few.
func WithRequireEntity(require bool) Option {
	return config.ClientOnly(func(s *config.Settings) {
		s.Client.RequireEntity = require
	})
}

// WithWriteStrategy sets how the add and remove helpers (AddFeatureToTable,
// RemoveFeatureFromTable, AddFeatureToModel, AddModelToGroup,
// AddSourceToFeature and their Remove forms, AddLink, RemoveLink, AddTag,
// AddTerm, AddOwner and their Remove forms) and SetDescription of a
// dataset and SetFieldDescription write: Conditional (the default) or
// Patch. Modify is always conditional, and SetDescription of an ML entity
// too (DataHub has no patch template for the editable ML properties
// aspects). [Client.WithWriteStrategy] gives a copy of a client with
// another strategy, for one call or a few. An unknown strategy makes New
// fail.
func WithWriteStrategy(strategy WriteStrategy) Option {
	return config.ClientOnly(func(s *config.Settings) {
		s.Client.WriteStrategy = int(strategy)
	})
}
