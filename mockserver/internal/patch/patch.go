package patch

import (
	"errors"
	"time"
)

// Patcher applies patches. The zero value is ready to use; Now, when set,
// gives the time written into template defaults (the audit stamps of an
// absent ownership, glossaryTerms or editableSchemaMetadata), else
// time.Now.
type Patcher struct {
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Apply applies patch to the current value of aspectName with a zero
// Patcher. See [Patcher.Apply].
func Apply(aspectName string, current, patch []byte) ([]byte, error) {
	return (&Patcher{}).Apply(aspectName, current, patch)
}

// Apply applies patch, the GenericAspect value of a PATCH proposal (a bare
// RFC 6902 array or the {"patch":[...],"arrayPrimaryKeys":{...},
// "forceGenericPatch":bool} object), to current, the aspect's JSON (nil or
// empty when the aspect is absent), and returns the new aspect JSON.
//
// With arrayPrimaryKeys or forceGenericPatch the generic patcher runs: an
// absent aspect starts from its template's default, or {} without one, and each named top-level array is addressed
// as a map keyed by the named fields of its elements. Otherwise the
// aspect's template runs (see [Templates]): an absent aspect starts from
// the template's default and its keyed arrays are addressed by key; an
// aspect without a template fails with ErrNoTemplate.
//
// The result is not checked against the aspect's schema; the caller
// validates it as any write. A failure is an *Error wrapping one of
// ErrBadPatch, ErrBadOp, ErrBadPath, ErrTestFailed, ErrNoTemplate,
// ErrBadAspect, and nothing is changed.
func (p *Patcher) Apply(aspectName string, current, patch []byte) ([]byte, error) {
	doc, err := Parse(aspectName, patch)
	if err != nil {
		return nil, err
	}
	return p.ApplyParsed(doc, current)
}

// ApplyParsed is [Patcher.Apply] of a document [Parse] returned: it fails
// and succeeds as Apply does on the same bytes, without parsing them
// again. A parsed document is applied once: applying may take its values
// into the result.
func (p *Patcher) ApplyParsed(parsed *Parsed, current []byte) ([]byte, error) {
	now := time.Now
	if p != nil && p.Now != nil {
		now = p.Now
	}
	aspectName, doc := parsed.aspect, parsed.doc
	fail := func(kind error, detail string) error {
		return &Error{Kind: kind, Aspect: aspectName, Index: -1, Detail: detail}
	}
	var cur *object
	if len(current) > 0 {
		v, err := decode(current)
		if err != nil {
			return nil, fail(ErrBadAspect, "the current aspect is not JSON: "+err.Error())
		}
		o, ok := v.(*object)
		if !ok {
			return nil, fail(ErrBadAspect, "the current aspect is not a JSON object")
		}
		cur = o
	}
	t := &template{}
	switch {
	case doc.generic():
		for _, pk := range doc.arrayPrimaryKeys {
			t.keyed = append(t.keyed, keyedArray{field: pk.field, keys: pk.keys, reinject: true})
		}
		if cur == nil {
			// PatchItemImpl.applyGenericPatch: the template's default when
			// the aspect has a template with one, else an empty record.
			if tt, ok := templates[aspectName]; ok && tt.defaults != nil {
				cur = tt.defaults(now())
			} else {
				cur = newObject()
			}
		}
	default:
		tt, ok := templates[aspectName]
		if !ok {
			return nil, noTemplate(aspectName)
		}
		t = tt
		if cur == nil && t.defaults == nil {
			// PatchItemImpl: no current value and no default template.
			return nil, fail(ErrBadAspect, "the aspect does not exist yet and its template has no default; write it whole first")
		}
		if cur == nil {
			cur = t.defaults(now())
		}
	}
	ts := now()
	if err := t.toPatchShape(cur, ts); err != nil {
		return nil, fromOp(err, aspectName, -1, operation{})
	}
	populate(cur, doc.ops)
	res, i, err := applyOps(cur, doc.ops)
	if err != nil {
		return nil, fromOp(err, aspectName, i, doc.ops[i])
	}
	out, ok := res.(*object)
	if !ok {
		return nil, fail(ErrBadAspect, "the patch replaces the aspect with a value that is not an object")
	}
	if err := t.fromPatchShape(out, ts); err != nil {
		return nil, fromOp(err, aspectName, -1, operation{})
	}
	return encode(out), nil
}

// fromOp turns an operation failure into an *Error.
func fromOp(err error, aspect string, i int, op operation) error {
	var oe *opError
	if !errors.As(err, &oe) {
		return &Error{Kind: ErrBadAspect, Aspect: aspect, Index: i, Op: op.op, Path: op.path, Detail: err.Error()}
	}
	return &Error{Kind: oe.kind, Aspect: aspect, Index: i, Op: op.op, Path: op.path, Detail: oe.detail}
}
