package patch

// Check reports whether patch can apply to aspectName at all, before any
// value is read: the document must parse (else ErrBadPatch, ErrBadOp, or
// ErrBadPath for a path that is not a JSON pointer) and a bare patch needs
// the aspect's template (else ErrNoTemplate). [Apply] fails with the same
// *Error for such a patch; it can still fail on the value (ErrBadPath,
// ErrTestFailed, ErrBadAspect). The mock's ingest path calls Check when it
// accepts a proposal, so that a malformed patch is refused at once, also
// when the write is applied later (async).
func Check(aspectName string, patch []byte) error {
	doc, err := Parse(aspectName, patch)
	if err != nil {
		return err
	}
	return doc.Check()
}

// Check is [Check] of a parsed document: a bare patch needs its aspect's
// template (else ErrNoTemplate).
func (p *Parsed) Check() error {
	if !p.doc.generic() && !HasTemplate(p.aspect) {
		return noTemplate(p.aspect)
	}
	return nil
}

// Parsed is a patch document of one aspect, parsed by [Parse] and ready
// for [Patcher.ApplyParsed].
type Parsed struct {
	aspect string
	doc    *document
}

// Parse parses patch, the GenericAspect value of a PATCH proposal of
// aspectName, failing as [Apply] fails on a document that does not parse.
func Parse(aspectName string, patch []byte) (*Parsed, error) {
	doc, err := parseDocument(patch)
	if err != nil {
		err.(*Error).Aspect = aspectName
		return nil, err
	}
	return &Parsed{aspect: aspectName, doc: doc}, nil
}

// noTemplate is the ErrNoTemplate failure for aspectName, naming the
// remedies.
func noTemplate(aspectName string) *Error {
	return &Error{Kind: ErrNoTemplate, Aspect: aspectName, Index: -1,
		Detail: `DataHub has no patch template for ` + aspectName +
			`; write it with a conditional read-modify-write (UPSERT with If-Version-Match), ` +
			`or send the patch as {"patch":[...],"forceGenericPatch":true} (with "arrayPrimaryKeys" to address array elements by key)`}
}
