package client

import (
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/config"
)

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
func WithActor(actor string) datahub.Option {
	return func(s *config.Settings) {
		s.Scope("client", "WithActor")
		s.Client.Actor = actor
	}
}

// WithConflictPolicy sets how Modify retries after conflicts; the default
// is DefaultConflictPolicy().
func WithConflictPolicy(p ConflictPolicy) datahub.Option {
	return func(s *config.Settings) {
		s.Scope("client", "WithConflictPolicy")
		s.Client.ConflictSet = true
		s.Client.ConflictAttempts, s.Client.ConflictMinWait, s.Client.ConflictMaxWait = p.MaxAttempts, p.MinWait, p.MaxWait
	}
}
