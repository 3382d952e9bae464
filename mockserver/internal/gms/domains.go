package gms

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// syncDomains is DataHub's DomainsSyncMutationHook on a patched domains
// aspect: the legacy domains list and domainAssociations (the same domains
// with attribution and context) are kept in agreement. previous is the
// stored value (nil when absent), proposed the patched one, u the entity.
//
//   - Only domains was written (no domainAssociations, or associations
//     unchanged while domains changed): the associations are derived from
//     domains, keeping the previous association of a domain that stays and
//     adding {"domain": urn} for a new one.
//   - Both changed: they must name the same domains (or domains be empty),
//     else the write is refused.
//
// Then the associations are ordered manual before propagated (an
// attribution whose sourceDetail has propagated=true), and domains is set
// to their domains, in that order, without repeats.
func syncDomains(u string, previous, proposed json.RawMessage) (json.RawMessage, *Error) {
	var prev, next domainsValue
	if len(previous) > 0 {
		if err := json.Unmarshal(previous, &prev); err != nil {
			return proposed, nil // validation reports the stored value's shape
		}
	}
	if err := json.Unmarshal(proposed, &next); err != nil {
		return proposed, nil // validation refuses it with DataHub's message
	}
	if next.Associations == nil {
		next.deriveAssociations(prev)
	} else {
		domainsChanged := !slices.Equal(next.Domains, prev.Domains)
		assocChanged := !sameJSON(next.Associations, prev.Associations)
		switch {
		case domainsChanged && assocChanged:
			if len(next.Domains) > 0 && !sameSet(next.associationDomains(), next.Domains) {
				return nil, errorf(Invalid, MsgDomainsBothChanged, u)
			}
		case domainsChanged:
			next.deriveAssociations(prev)
		}
	}
	next.sortAssociations()
	next.Domains = dedup(next.associationDomains())
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(next); err != nil {
		return nil, errorf(Internal, MsgStore, err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// domainsValue is a domains aspect: the associations kept as JSON.
type domainsValue struct {
	Domains      []string           `json:"domains"`
	Associations *[]json.RawMessage `json:"domainAssociations,omitempty"`
}

// association is what the hook reads of a domain association.
type association struct {
	Domain      string `json:"domain"`
	Attribution *struct {
		SourceDetail map[string]string `json:"sourceDetail"`
	} `json:"attribution"`
}

func readAssociation(raw json.RawMessage) association {
	var a association
	_ = json.Unmarshal(raw, &a) // a malformed one is refused by validation
	return a
}

func (v *domainsValue) associationDomains() []string {
	if v.Associations == nil {
		return nil
	}
	out := make([]string, 0, len(*v.Associations))
	for _, raw := range *v.Associations {
		out = append(out, readAssociation(raw).Domain)
	}
	return out
}

// deriveAssociations rebuilds the associations from domains.
func (v *domainsValue) deriveAssociations(prev domainsValue) {
	keep := map[string]bool{}
	for _, d := range v.Domains {
		keep[d] = true
	}
	assoc := []json.RawMessage{}
	have := map[string]bool{}
	if prev.Associations != nil {
		for _, raw := range *prev.Associations {
			if d := readAssociation(raw).Domain; keep[d] {
				assoc = append(assoc, raw)
				have[d] = true
			}
		}
	}
	for _, d := range v.Domains {
		if !have[d] {
			raw, _ := json.Marshal(map[string]string{"domain": d})
			assoc = append(assoc, raw)
			have[d] = true
		}
	}
	v.Associations = &assoc
}

// sortAssociations puts manual associations before propagated ones,
// keeping the order within each.
func (v *domainsValue) sortAssociations() {
	if v.Associations == nil {
		return
	}
	slices.SortStableFunc(*v.Associations, func(a, b json.RawMessage) int {
		pa, pb := propagated(readAssociation(a)), propagated(readAssociation(b))
		switch {
		case pa == pb:
			return 0
		case pa:
			return 1
		}
		return -1
	})
}

func propagated(a association) bool {
	return a.Attribution != nil && strings.EqualFold(a.Attribution.SourceDetail["propagated"], "true")
}

func dedup(urns []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, u := range urns {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

func sameSet(a, b []string) bool {
	return slices.Equal(sortedSet(a), sortedSet(b))
}

func sortedSet(s []string) []string {
	out := dedup(s)
	slices.Sort(out)
	return out
}

// sameJSON reports whether two association lists hold the same data
// (absent equals empty).
func sameJSON(a, b *[]json.RawMessage) bool {
	decode := func(p *[]json.RawMessage) []any {
		if p == nil {
			return []any{}
		}
		out := make([]any, 0, len(*p))
		for _, raw := range *p {
			var v any
			_ = json.Unmarshal(raw, &v)
			out = append(out, v)
		}
		return out
	}
	return reflect.DeepEqual(decode(a), decode(b))
}
