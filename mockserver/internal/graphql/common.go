package graphql

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// Long is DataHub's Long scalar.
type Long int64

// UnmarshalJSON reads a Long argument (an integer or its decimal text).
func (l *Long) UnmarshalJSON(b []byte) error {
	var input any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&input); err != nil {
		return err
	}
	if n, ok := input.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			*l = Long(i)
			return nil
		}
		f, err := n.Float64()
		if err != nil {
			return fmt.Errorf("Long cannot represent %s", n)
		}
		input = f
	}
	switch v := input.(type) {
	case int32:
		*l = Long(v)
	case int64:
		*l = Long(v)
	case int:
		*l = Long(v)
	case float64:
		if v != float64(int64(v)) {
			return fmt.Errorf("Long cannot represent a non-integer value: %v", v)
		}
		*l = Long(v)
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return fmt.Errorf("Long cannot represent %q", v)
		}
		*l = Long(n)
	default:
		return fmt.Errorf("Long cannot represent a %T", input)
	}
	return nil
}

// MarshalJSON writes the Long as a JSON number.
func (l Long) MarshalJSON() ([]byte, error) { return strconv.AppendInt(nil, int64(l), 10), nil }

// Fields every served entity has, from its own aspects.

func (e *entity) Urn() string  { return e.urn }
func (e *entity) Type() string { return entityTypes[e.name] }

// Exists is whether the entity's key aspect was written (Core.Exists).
func (e *entity) Exists() *bool {
	ok := must(e.r.exists(e.ctx, e.urn))
	return &ok
}

func (e *entity) Status() *statusR {
	s := must(aspectOf[statusJSON](e, "status"))
	if s == nil {
		return nil
	}
	return &statusR{s.Removed}
}

func (e *entity) Ownership() *ownershipR {
	o := must(aspectOf[ownershipJSON](e, "ownership"))
	if o == nil {
		return nil
	}
	owners := make([]*ownerR, 0, len(o.Owners))
	for _, ow := range o.Owners {
		owners = append(owners, &ownerR{owner: ow.Owner, typ: ow.Type, assoc: e.urn})
	}
	last := stampJSON{}
	if o.LastModified != nil {
		last = *o.LastModified
	}
	return &ownershipR{owners: owners, last: last}
}

func (e *entity) Tags() *globalTagsR {
	return tagsOf(must(aspectOf[globalTagsJSON](e, "globalTags")), e.urn)
}

func (e *entity) GlossaryTerms() *glossaryTermsR {
	return termsOf(must(aspectOf[glossaryTermsJSON](e, "glossaryTerms")), e.urn)
}

// editableDescription is the editable*Properties aspect named as an
// {description} object, nil when absent.
func (e *entity) editableDescription(aspect string) *editableR {
	ed := must(aspectOf[editableJSON](e, aspect))
	if ed == nil {
		return nil
	}
	return &editableR{Description: ed.Description, Name: ed.Name}
}

// customProperties maps a customProperties map to DataHub's entries, sorted
// by key.
func customProperties(m map[string]string, urn string) *[]*customPropertyR {
	if m == nil {
		return nil
	}
	out := make([]*customPropertyR, 0, len(m))
	for _, k := range sortedKeys(m) {
		v := m[k]
		out = append(out, &customPropertyR{Key: k, Value: &v, AssociatedUrn: urn})
	}
	return &out
}

func tagsOf(t *globalTagsJSON, urn string) *globalTagsR {
	if t == nil {
		return nil
	}
	out := make([]*tagAssociationR, 0, len(t.Tags))
	for _, a := range t.Tags {
		out = append(out, &tagAssociationR{tag: a.Tag, AssociatedUrn: urn, Context: a.Context})
	}
	return &globalTagsR{&out}
}

func termsOf(t *glossaryTermsJSON, urn string) *glossaryTermsR {
	if t == nil {
		return nil
	}
	out := make([]*termAssociationR, 0, len(t.Terms))
	for _, a := range t.Terms {
		out = append(out, &termAssociationR{term: a.URN, AssociatedUrn: urn, Context: a.Context})
	}
	return &glossaryTermsR{&out}
}

// Object types read with UseFieldResolvers (exported fields are fields).

type statusR struct{ removed bool }

func (s *statusR) Removed() bool { return s.removed }

type auditStampR struct {
	Time  Long
	Actor *string
}

func auditStamp(s stampJSON) *auditStampR { return &auditStampR{Time: Long(s.Time), Actor: s.Actor} }

func auditStampPtr(s *stampJSON) *auditStampR {
	if s == nil {
		return nil
	}
	return auditStamp(*s)
}

type versionTagR struct{ VersionTag *string }

func versionTag(v *versionTagJSON) *versionTagR {
	if v == nil {
		return nil
	}
	return &versionTagR{v.VersionTag}
}

type customPropertyR struct {
	Key           string
	Value         *string
	AssociatedUrn string
}

type editableR struct {
	Description *string
	Name        *string
}

type ownershipR struct {
	owners []*ownerR
	last   stampJSON
}

func (o *ownershipR) Owners() *[]*ownerR         { return &o.owners }
func (o *ownershipR) LastModified() *auditStampR { return auditStamp(o.last) }

type ownerR struct {
	owner string
	typ   *string
	assoc string
}

func (o *ownerR) Owner() *entityR {
	return &entityR{&entity{urn: o.owner, name: gms.EntityTypeOf(o.owner), key: &keyJSON{}}}
}
func (o *ownerR) Type() *string         { return o.typ }
func (o *ownerR) AssociatedUrn() string { return o.assoc }

type globalTagsR struct{ Tags *[]*tagAssociationR }

type tagAssociationR struct {
	tag           string
	AssociatedUrn string
	Context       *string
}

func (t *tagAssociationR) Tag() *tagR { return &tagR{t.tag} }

type glossaryTermsR struct{ Terms *[]*termAssociationR }

type termAssociationR struct {
	term          string
	AssociatedUrn string
	Context       *string
}

func (t *termAssociationR) Term() *glossaryTermR { return &glossaryTermR{t.term} }
