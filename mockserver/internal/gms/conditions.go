package gms

import (
	"math"
	"time"

	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// unversioned is the version of an aspect that does not exist
// (ConditionalWriteValidator.UNVERSIONED_ASPECT_VERSION).
const unversioned = "-1"

// conditions are the preconditions of one proposal: CREATE and
// CREATE_ENTITY (CreateIfNotExistsValidator; with If-None-Match: * a
// failure skips the item instead), and DataHub's ConditionalWriteValidator:
// If-Version-Match compared as a string with the current version,
// If-Modified-Since and If-Unmodified-Since compared with the aspect's
// last-modified time.
type conditions struct {
	change      string // CREATE or CREATE_ENTITY, else ""
	ifNoneMatch bool

	create bool // CREATE or CREATE_ENTITY: compared with "-1" and no time

	versionSet bool
	version    string

	modifiedSet, unmodifiedSet bool
	modified, unmodified       int64 // epoch ms
}

// conditionsOf reads the conditions of p; nil when it has none. A time
// header that is not an ISO-8601 instant is a BadArgument naming it (GMS's
// Instant.parse would fail with a 500).
func conditionsOf(p *Proposal) (*conditions, *Error) {
	create := p.ChangeType == changeCreate || p.ChangeType == changeCreateEntity
	if !create && len(p.Headers) == 0 {
		return nil, nil // the common case, without an allocation
	}
	var c conditions
	if create {
		c.change, c.create = p.ChangeType, true
		c.ifNoneMatch = header(p.Headers, HeaderIfNoneMatch) == "*"
	}
	c.version, c.versionSet = headerOK(p.Headers, HeaderIfVersionMatch)
	var err *Error
	if c.modified, c.modifiedSet, err = timeHeader(p.Headers, HeaderIfModifiedSince); err != nil {
		return nil, err
	}
	if c.unmodified, c.unmodifiedSet, err = timeHeader(p.Headers, HeaderIfUnmodifiedSince); err != nil {
		return nil, err
	}
	if !c.create && !c.versionSet && !c.modifiedSet && !c.unmodifiedSet {
		return nil, nil
	}
	out := c // only a write with conditions allocates them
	return &out, nil
}

// timeHeader parses an ISO-8601 instant header as Java's Instant.parse does
// (a date, a time with seconds, optional fraction, Z or an offset).
func timeHeader(h map[string]string, name string) (int64, bool, *Error) {
	v, ok := headerOK(h, name)
	if !ok {
		return 0, false, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return 0, true, errorf(BadArgument, MsgBadTimeHeader, name, Abbreviate(v))
	}
	return t.UnixMilli(), true, nil
}

// The change types with a condition of their own.
const (
	changeCreate       = "CREATE"
	changeCreateEntity = "CREATE_ENTITY"
)

// check is CreateIfNotExistsValidator, then
// ConditionalWriteValidator.validatePreCommitAspects, for one item given the
// aspect's state before the write. A skipped item is store.ErrSkip.
func (c *conditions) check(cur store.Current) error {
	switch {
	case c.change == changeCreateEntity && cur.EntityExists:
		return c.exists(MsgCreateEntityExists)
	case c.change == changeCreate && cur.Exists:
		return c.exists(MsgCreateExists)
	}
	have, lastModified := unversioned, int64(math.MinInt64) // DEFAULT_LAST_MODIFIED_TIME
	if !c.create && cur.Exists {
		have = cur.Version
		lastModified = cur.CreatedOn.UnixMilli()
	}
	if c.versionSet && c.version != have {
		return errorf(PreconditionFailed, MsgVersionMismatch, Abbreviate(c.version), have)
	}
	if c.modifiedSet && lastModified <= c.modified {
		return errorf(PreconditionFailed, MsgModifiedSince, lastModified, c.modified)
	}
	if c.unmodifiedSet && lastModified > c.unmodified {
		return errorf(PreconditionFailed, MsgUnmodifiedSince, lastModified, c.unmodified)
	}
	return nil
}

// exists is the failure of a CREATE or CREATE_ENTITY: skipped under
// If-None-Match: *, else a Conflict with msg.
func (c *conditions) exists(msg string) error {
	if c.ifNoneMatch {
		return store.ErrSkip
	}
	return errorf(Conflict, "%s", msg)
}
