package client

import (
	"errors"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver"
)

// TestResolve: a domain, a user (by full name, display name or email) and
// a glossary term resolve by name to their one URN; no match is a
// *ResolveError matching datahub.ErrNotFound, several one matching
// ErrAmbiguous that lists them.
func TestResolve(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ctx := t.Context()
	put := func(u string, a aspects.Aspect) {
		t.Helper()
		if err := s.PutAspect(u, a); err != nil {
			t.Fatal(err)
		}
	}
	put("urn:li:domain:finance", aspects.DomainProperties{Name: "Finance"})
	put("urn:li:domain:marketing", aspects.DomainProperties{Name: "Marketing"})
	put("urn:li:domain:m2", aspects.DomainProperties{Name: "Marketing"})
	put("urn:li:corpuser:jdoe", aspects.CorpUserInfo{Active: true, FullName: aspects.Ptr("Jane Doe"), DisplayName: aspects.Ptr("Jane"), Email: aspects.Ptr("jane@example.com")})
	put("urn:li:corpuser:jsmith", aspects.CorpUserInfo{Active: true, FullName: aspects.Ptr("John Smith"), Email: aspects.Ptr("john@example.com")})
	put("urn:li:corpuser:jsmith2", aspects.CorpUserInfo{Active: true, FullName: aspects.Ptr("John Smith"), Email: aspects.Ptr("john.smith@example.com")})
	put("urn:li:glossaryTerm:pii", aspects.GlossaryTermInfo{Name: aspects.Ptr("PII"), Definition: "Personal data."})

	r := c.Resolve()
	d, err := r.Domain(ctx, "Finance")
	if err != nil || d.String() != "urn:li:domain:finance" {
		t.Errorf("domain: %v, %v", d, err)
	}
	for _, name := range []string{"Jane Doe", "Jane"} {
		u, err := r.UserByName(ctx, name)
		if err != nil || u.String() != "urn:li:corpuser:jdoe" {
			t.Errorf("user %q: %v, %v", name, u, err)
		}
	}
	u, err := r.UserByEmail(ctx, "john@example.com")
	if err != nil || u.String() != "urn:li:corpuser:jsmith" {
		t.Errorf("user by email: %v, %v", u, err)
	}
	g, err := r.Term(ctx, "PII")
	if err != nil || g.String() != "urn:li:glossaryTerm:pii" {
		t.Errorf("term: %v, %v", g, err)
	}

	var re *ResolveError
	_, err = r.Domain(ctx, "Sales")
	if !errors.Is(err, datahub.ErrNotFound) || errors.Is(err, ErrAmbiguous) || !errors.As(err, &re) || re.EntityType != "domain" || re.Value != "Sales" {
		t.Errorf("missing domain: %v", err)
	}
	if err != nil && err.Error() != `client: no domain with name "Sales"` {
		t.Errorf("message %q", err)
	}
	_, err = r.Domain(ctx, "Marketing")
	if !errors.Is(err, ErrAmbiguous) || errors.Is(err, datahub.ErrNotFound) || !errors.As(err, &re) || len(re.Matches) != 2 {
		t.Errorf("two domains: %v", err)
	}
	if _, err := r.UserByName(ctx, "John Smith"); !errors.Is(err, ErrAmbiguous) {
		t.Errorf("two users: %v", err)
	}
	if _, err := r.UserByEmail(ctx, "nobody@example.com"); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("missing user: %v", err)
	}
	if _, err := r.Term(ctx, "pii"); !errors.Is(err, datahub.ErrNotFound) {
		t.Errorf("term names are exact: %v", err)
	}
	if _, err := r.Term(ctx, ""); !errors.Is(err, datahub.ErrValidation) {
		t.Errorf("empty name: %v", err)
	}
}
