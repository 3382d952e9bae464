package gms

import (
	"bytes"
	"encoding/json"
	"errors"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/mockserver/internal/patch"
)

// ContentTypeJSONPatch is the aspect content type of a PATCH proposal.
// GMS also takes a patch sent as application/json (older Java builders
// sent that), and so does the core.
const ContentTypeJSONPatch = "application/json-patch+json"

// patchWrite checks the PATCH proposal p (content type, a patch that
// parses, a template or the generic form, not a timeseries aspect) and
// returns the store transform that applies it, as GMS's PatchItemImpl:
// the patch is applied with pt to the aspect's latest value (absent: the
// template's default, or {} for the generic form) inside the store's
// transaction, so that concurrent patches lose nothing, and the result is
// validated like any written aspect. A patched domains aspect then goes
// through DataHub's domains sync (syncDomains).
func patchWrite(p *Proposal, info pdl.AspectInfo, entityType string, pt *patch.Patcher, lax bool) (func(json.RawMessage) (json.RawMessage, error), *Error) {
	if p.ContentType != ContentTypeJSONPatch && p.ContentType != "application/json" {
		return nil, errorf(BadArgument, MsgPatchContentType, Abbreviate(p.ContentType))
	}
	doc := bytes.Clone(p.Aspect) // kept by an async write
	entityURN := p.EntityURN
	// Parsed and checked once here, outside the store's writer lock; a
	// parsed document is applied once, so a second application (none
	// today) parses again.
	parsed, err := patch.Parse(info.Name, doc)
	if err == nil {
		err = parsed.Check()
	}
	if err != nil {
		return nil, patchError(err, true)
	}
	return func(cur json.RawMessage) (json.RawMessage, error) {
		if parsed == nil {
			again, err := patch.Parse(info.Name, doc)
			if err != nil {
				return nil, patchError(err, false)
			}
			parsed = again
		}
		out, err := pt.ApplyParsed(parsed, cur)
		parsed = nil
		if err != nil {
			return nil, patchError(err, false)
		}
		if info.Name == "domains" {
			var e *Error
			if out, e = syncDomains(entityURN, cur, out); e != nil {
				return nil, e
			}
		}
		value, e := checkAspect(info, entityType, out, lax)
		if e != nil {
			return nil, e
		}
		value, _ = mutate(info, value)
		return value, nil
	}, nil
}

// patchError maps a failed patch to the core's refusal. A patch that does
// not parse is a BadArgument (GMS: 400, an IllegalArgumentException
// "Invalid JSON Patch"); everything else, the aspect without a template
// included, is Invalid (the mock's 422 where GMS answers 500, see the
// Fidelity notes of package mockserver).
func patchError(err error, parsing bool) *Error {
	var pe *patch.Error
	if !errors.As(err, &pe) {
		return errorf(Internal, MsgStore, err)
	}
	if parsing && !errors.Is(pe, patch.ErrNoTemplate) {
		return errorf(BadArgument, MsgPatchInvalid, Abbreviate(pe.Error()))
	}
	return errorf(Invalid, MsgPatchFailed, pe.Error())
}
