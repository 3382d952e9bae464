package emitter

import "github.com/catalogkit/datahub-go/urn"

// A urn.Dataset keeps its text, and knows whether it is plain JSON string
// content (hooks.DatasetText): a dataset proposal's encoding copies that
// text, and its Result names it, without building it. Other URN types
// build their text once a proposal.

// directURN reports whether u is a urn.Dataset with a name (a text that
// is not empty): one whose text it keeps (see hooks.DatasetText).
func directURN(u urn.URN) bool {
	d, ok := u.(urn.Dataset)
	return ok && d.Name() != ""
}

// plainWriteOf reports whether p, whose URN is a dataset URN with a name,
// passes checkURN and is not a Delete: the usual proposal, encoded without
// its URN's text being built. ct is p's change type and name its aspect
// name; own says that p's aspect is one of package aspects that is not
// nil (see propShape). A false answer only means the full check runs.
func plainWriteOf(p *Proposal, ct ChangeType, name string, own bool) bool {
	return (p.EntityType == "" || p.EntityType == urn.TypeDataset) && ct.valid() && ct != Delete &&
		name != "" && (own || !isNil(p.Aspect))
}

// nameResults fills the URN of the results of ps left without one (the
// OpenAPI encoding may leave a dataset's empty): before results are shown.
func nameResults(results []Result, ps []Proposal) {
	for i := range results {
		if results[i].URN == "" && i < len(ps) {
			results[i].URN = ps[i].urnString()
		}
	}
}
