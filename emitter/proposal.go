package emitter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// ChangeType is the kind of change a proposal asks for (DataHub's
// com.linkedin.events.metadata.ChangeType).
type ChangeType string

// The change types of DataHub's ChangeType enum.
const (
	// Upsert writes the aspect whether or not it exists. It is the default.
	Upsert ChangeType = "UPSERT"
	// Create writes the aspect only if it does not exist yet.
	Create ChangeType = "CREATE"
	// Update is reserved by DataHub ("not supported yet").
	Update ChangeType = "UPDATE"
	// Delete removes the entity; over REST only a proposal for the entity's
	// key aspect can be sent, as POST /entities?action=delete (see
	// [NewDeleteEntity]).
	Delete ChangeType = "DELETE"
	// Patch applies a JSON patch (content type
	// "application/json-patch+json") to the aspect.
	Patch ChangeType = "PATCH"
	// Restate rewrites an aspect as it is, e.g. to refresh indices.
	Restate ChangeType = "RESTATE"
	// CreateEntity writes the aspect only if the entity does not exist yet.
	CreateEntity ChangeType = "CREATE_ENTITY"
)

// valid reports whether c is one of DataHub's change types.
func (c ChangeType) valid() bool {
	switch c {
	case Upsert, Create, Update, Delete, Patch, Restate, CreateEntity:
		return true
	}
	return false
}

// Content types of a proposal's aspect.
const (
	// ContentTypeJSON is the content type of a whole aspect.
	ContentTypeJSON = "application/json"
	// ContentTypeJSONPatch is the content type of a PATCH proposal's aspect.
	ContentTypeJSONPatch = "application/json-patch+json"
)

// System metadata defaults, as DataHub's SystemMetadata record declares them.
const (
	// DefaultRunID is DataHub's default runId and lastRunId.
	DefaultRunID = "no-run-id-provided"
)

// Proposal is a metadata change proposal: a change of one aspect of one
// entity (DataHub's MetadataChangeProposal). Build one with [NewProposal],
// which fills and checks the names, or as a literal.
type Proposal struct {
	// EntityType is the entity type, such as "dataset". Empty means
	// URN.EntityType().
	EntityType string
	// URN is the entity (entityUrn). It may be nil only when KeyAspect is
	// set.
	URN urn.URN
	// KeyAspect is the entity's key aspect (entityKeyAspect), sent instead
	// of or beside URN. Usually nil.
	KeyAspect aspects.Aspect
	// ChangeType is the kind of change; empty means Upsert.
	ChangeType ChangeType
	// AspectName is the aspect's name; empty means Aspect.AspectName().
	AspectName string
	// Aspect is the aspect value, encoded with encoding/json. It may be
	// nil only for a Delete. Use [RawAspect] for an aspect given as JSON.
	Aspect aspects.Aspect
	// ContentType is the aspect's content type; empty means
	// ContentTypeJSON, or ContentTypeJSONPatch for a Patch.
	ContentType string
	// SystemMetadata is sent with the proposal (DataHub's
	// com.linkedin.mxe.SystemMetadata). When the proposal is sent, what it
	// leaves unset is filled as DataHub's Python SDK fills it
	// (ensure_has_system_metadata): LastObserved (0) with the current time
	// in milliseconds, RunID and LastRunID (nil or "") with DefaultRunID,
	// and the properties "clientId" (datahub.ClientID) and "clientVersion"
	// (datahub.Version) when absent; nil is all unset. Unlike the Python
	// SDK, properties the caller set are kept. Version is what the server
	// assigned and is usually not sent.
	SystemMetadata *aspects.SystemMetadata
	// Headers are the proposal's own headers, such as "If-Version-Match"
	// for a write conditional on the aspect's current version, or
	// "If-None-Match": "*".
	Headers map[string]string
}

// NewProposal returns an Upsert of aspect a on entity u, with the entity
// type and aspect name taken from them as DataHub's Python
// MetadataChangeProposalWrapper does. It fails, wrapping
// datahub.ErrValidation, when u or a is missing, or when DataHub's entity
// registry does not know the entity type or does not allow the aspect on it.
func NewProposal(u urn.URN, a aspects.Aspect) (Proposal, error) {
	if u == nil || u.String() == "" {
		return Proposal{}, fmt.Errorf("emitter: proposal without a URN: %w", datahub.ErrValidation)
	}
	if isNil(a) {
		return Proposal{}, fmt.Errorf("emitter: proposal for %s without an aspect: %w", u, datahub.ErrValidation)
	}
	entityType, name := u.EntityType(), a.AspectName()
	e, ok := pdl.Registered(entityType)
	if !ok {
		return Proposal{}, fmt.Errorf("emitter: unknown entity type %q of %s: %w", entityType, u, datahub.ErrValidation)
	}
	if !e.Allows(name) {
		return Proposal{}, fmt.Errorf("emitter: entity type %s does not allow aspect %q: %w", entityType, name, datahub.ErrValidation)
	}
	return Proposal{EntityType: entityType, URN: u, ChangeType: Upsert, AspectName: name, Aspect: a}, nil
}

// NewDeleteEntity returns a Delete of entity u, sent as DataHub's Python
// emitter sends one: POST /entities?action=delete with the URN. It fails,
// wrapping datahub.ErrValidation, for a missing URN or an entity type
// DataHub's registry does not know.
func NewDeleteEntity(u urn.URN) (Proposal, error) {
	if u == nil || u.String() == "" {
		return Proposal{}, fmt.Errorf("emitter: delete without a URN: %w", datahub.ErrValidation)
	}
	e, ok := pdl.Registered(u.EntityType())
	if !ok {
		return Proposal{}, fmt.Errorf("emitter: unknown entity type %q of %s: %w", u.EntityType(), u, datahub.ErrValidation)
	}
	return Proposal{EntityType: e.Name, URN: u, ChangeType: Delete, AspectName: e.KeyAspect}, nil
}

// urnString returns the proposal's URN text, "" when it has none.
func (p *Proposal) urnString() string {
	if p.URN == nil {
		return ""
	}
	return p.URN.String()
}

// entityType returns EntityType, or the URN's.
func (p *Proposal) entityType() string {
	if p.EntityType != "" {
		return p.EntityType
	}
	if p.URN != nil {
		return p.URN.EntityType()
	}
	return ""
}

// aspectName returns AspectName, or the aspect's.
func (p *Proposal) aspectName() string {
	if p.AspectName != "" {
		return p.AspectName
	}
	if !isNil(p.Aspect) {
		return p.Aspect.AspectName()
	}
	return ""
}

// changeType returns ChangeType, or Upsert.
func (p *Proposal) changeType() ChangeType {
	if p.ChangeType == "" {
		return Upsert
	}
	return p.ChangeType
}

// contentType returns ContentType or the default for the change type.
func (p *Proposal) contentType() string {
	switch {
	case p.ContentType != "":
		return p.ContentType
	case p.changeType() == Patch:
		return ContentTypeJSONPatch
	}
	return ContentTypeJSON
}

// conditionalHeaders are the proposal headers that make a write
// conditional (DataHub's ConditionalWriteValidator), lower case.
var conditionalHeaders = []string{"if-version-match", "if-none-match", "if-modified-since", "if-unmodified-since"}

// replaySafe reports whether p may be sent again after a request carrying
// it may have been applied: an UPSERT or DELETE may, a CREATE,
// CREATE_ENTITY or conditional write may not (the replay of an applied
// one would fail its own condition).
func (p *Proposal) replaySafe() bool { return replaySafe(p.changeType(), p.Headers) }

// replaySafe is Proposal.replaySafe for a change type and headers.
func replaySafe(ct ChangeType, headers map[string]string) bool {
	switch ct {
	case Create, CreateEntity:
		return false
	}
	if len(headers) == 0 {
		return true
	}
	for k := range headers {
		for _, h := range conditionalHeaders {
			if strings.EqualFold(k, h) {
				return false
			}
		}
	}
	return true
}

// check reports what makes p impossible to send, wrapping
// datahub.ErrValidation. It checks the shape only: the server (or
// NewProposal) judges whether the aspect fits the entity.
func (p *Proposal) check() error {
	return p.checkURN(p.urnString())
}

// checkURN is check, u being p.urnString().
func (p *Proposal) checkURN(u string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("emitter: "+format+": %w", append(args, datahub.ErrValidation)...)
	}
	switch {
	case u == "" && isNil(p.KeyAspect):
		return bad("proposal without a URN or key aspect")
	case p.entityType() == "":
		return bad("proposal for %s without an entity type", u)
	case p.URN != nil && u != "" && p.EntityType != "" && p.EntityType != p.URN.EntityType():
		return bad("entity type %q does not match URN %s", p.EntityType, u)
	case !p.changeType().valid():
		return bad("unknown change type %q", p.ChangeType)
	case p.aspectName() == "":
		return bad("proposal for %s without an aspect name", u)
	}
	if p.changeType() == Delete {
		e, ok := pdl.Registered(p.entityType())
		if !ok || p.aspectName() != e.KeyAspect {
			return bad("delete of aspect %q of %s: only the entity's key aspect can be deleted over REST", p.aspectName(), u)
		}
		if u == "" {
			return bad("delete without a URN")
		}
		return nil
	}
	if isNil(p.Aspect) {
		return bad("%s proposal for %s %s without an aspect", p.changeType(), u, p.aspectName())
	}
	return nil
}

// isNil reports whether a is nil or a nil pointer (or map or slice), which
// has no aspect to send.
func isNil(a aspects.Aspect) bool {
	if a == nil {
		return true
	}
	switch reflect.TypeOf(a).Kind() { // no Value made for the usual struct
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		return reflect.ValueOf(a).IsNil()
	}
	return false
}

// RawAspect is an aspect given as JSON, for aspects this SDK has no struct
// for, or JSON patches.
type RawAspect struct {
	// Name is the aspect name, such as "subTypes".
	Name string
	// JSON is the aspect's JSON value (an object; an array for a JSON patch).
	JSON json.RawMessage
}

// AspectName returns r.Name.
func (r RawAspect) AspectName() string { return r.Name }

// MarshalJSON returns r.JSON, compacted; it fails if r.JSON is not valid JSON.
func (r RawAspect) MarshalJSON() ([]byte, error) {
	if len(r.JSON) == 0 {
		return nil, errors.New("emitter: raw aspect " + r.Name + " has no JSON")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, r.JSON); err != nil {
		return nil, fmt.Errorf("emitter: raw aspect %s: %w", r.Name, err)
	}
	return buf.Bytes(), nil
}
