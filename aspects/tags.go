package aspects

// GlobalTags holds the tags applied to an entity or a schema field (aspect
// "globalTags", com.linkedin.common.GlobalTags).
type GlobalTags struct {
	// Tags are the applied tags.
	Tags []TagAssociation `json:"tags"`
}

// AspectName returns "globalTags".
func (GlobalTags) AspectName() string { return "globalTags" }

// MarshalJSON encodes g; nil Tags is encoded as [].
func (g GlobalTags) MarshalJSON() ([]byte, error) {
	type plain GlobalTags
	p := plain(g)
	p.Tags = nonNil(p.Tags)
	return marshal(p)
}

// TagAssociation is one applied tag (com.linkedin.common.TagAssociation).
type TagAssociation struct {
	// Tag is the tag URN, e.g. "urn:li:tag:pii".
	Tag string `json:"tag"`
	// Context is extra context about the association.
	Context *string `json:"context,omitempty"`
	// Attribution says who applied the tag, when, and why.
	Attribution *MetadataAttribution `json:"attribution,omitempty"`
}

// GlossaryTerms holds the glossary terms applied to an entity or a schema
// field (aspect "glossaryTerms", com.linkedin.common.GlossaryTerms).
type GlossaryTerms struct {
	// Terms are the applied terms.
	Terms []GlossaryTermAssociation `json:"terms"`
	// AuditStamp says who applied the terms and when.
	AuditStamp AuditStamp `json:"auditStamp"`
}

// AspectName returns "glossaryTerms".
func (GlossaryTerms) AspectName() string { return "glossaryTerms" }

// MarshalJSON encodes g; nil Terms is encoded as [].
func (g GlossaryTerms) MarshalJSON() ([]byte, error) {
	type plain GlossaryTerms
	p := plain(g)
	p.Terms = nonNil(p.Terms)
	return marshal(p)
}

// GlossaryTermAssociation is one applied glossary term
// (com.linkedin.common.GlossaryTermAssociation).
type GlossaryTermAssociation struct {
	// URN is the glossary term URN, e.g. "urn:li:glossaryTerm:Finance.Revenue".
	URN string `json:"urn"`
	// Actor is the user credited with applying the term.
	Actor *string `json:"actor,omitempty"`
	// Context is extra context about the association.
	Context *string `json:"context,omitempty"`
	// Attribution says who applied the term, when, and why.
	Attribution *MetadataAttribution `json:"attribution,omitempty"`
}
