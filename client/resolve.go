package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/urn"
)

// ErrAmbiguous is matched (errors.Is) by a *ResolveError that found more
// than one entity.
var ErrAmbiguous = errors.New("client: more than one entity matches")

// ResolveError reports a [Resolve] look-up that found no entity or more
// than one. errors.Is(err, datahub.ErrNotFound) holds when none was found,
// errors.Is(err, ErrAmbiguous) when several were.
type ResolveError struct {
	// EntityType is the type looked for: "domain", "corpuser" or
	// "glossaryTerm".
	EntityType string
	// By says what was matched ("name", "email") and Value the value
	// asked for.
	By, Value string
	// Matches are the URNs found (none, or more than one), in search
	// order.
	Matches []string
}

// Error names what was looked for and what was found.
func (e *ResolveError) Error() string {
	if len(e.Matches) == 0 {
		return fmt.Sprintf("client: no %s with %s %q", e.EntityType, e.By, e.Value)
	}
	return fmt.Sprintf("client: %d entities of type %s with %s %q: %s", len(e.Matches), e.EntityType, e.By, e.Value, strings.Join(e.Matches, ", "))
}

// Is reports whether target is datahub.ErrNotFound (no match) or
// ErrAmbiguous (several).
func (e *ResolveError) Is(target error) bool {
	if len(e.Matches) == 0 {
		return target == datahub.ErrNotFound
	}
	return target == ErrAmbiguous
}

// Resolve finds entities by what people call them (Python's
// client.resolve): a domain or glossary term by name, a user by name or
// email. Each look-up is a search of the entity type (DataHub's Rest.li
// entities?action=search, the server's search index: an entity written a
// moment ago may not be found yet where indexing lags) with an exact,
// case-sensitive match on the field named, that must find exactly one
// entity (DataHub's Python SDK returns the first of several domains; this
// refuses them as it does several users or terms): none gives a *ResolveError matching
// datahub.ErrNotFound, several one matching [ErrAmbiguous]. Get it with
// [Client.Resolve].
type Resolve struct {
	c *Client
}

// Resolve returns the look-ups by name of c.
func (c *Client) Resolve() *Resolve { return &Resolve{c: c} }

// resolveLimit is how many matches a look-up asks for, to report an
// ambiguity.
const resolveLimit = 10

// criterion is one condition of a Rest.li search filter.
type criterion struct {
	Field     string   `json:"field"`
	Values    []string `json:"values"`
	Condition string   `json:"condition"`
}

func equal(field, value string) criterion {
	return criterion{Field: field, Values: []string{value}, Condition: "EQUAL"}
}

// one searches (POST /entities?action=search, as DataHub's Python client
// looks domains up) for the entities of type typ matching any of the
// criteria and returns the single one.
func (r *Resolve) one(ctx context.Context, typ, by, value string, anyOf ...criterion) (urn.URN, error) {
	if value == "" {
		return nil, fmt.Errorf("client: resolve %s: empty %s: %w", typ, by, datahub.ErrValidation)
	}
	ors := make([]map[string]any, 0, len(anyOf))
	for _, c := range anyOf {
		ors = append(ors, map[string]any{"and": []criterion{c}})
	}
	raw, err := r.c.postAction(ctx, "/entities?action=search", map[string]any{
		"input": "*", "entity": typ, "start": 0, "count": resolveLimit, "filter": map[string]any{"or": ors},
	}, false)
	if err != nil {
		return nil, fmt.Errorf("client: resolve %s by %s %q: %w", typ, by, value, err)
	}
	var answer struct {
		Entities []struct {
			Entity string `json:"entity"`
		} `json:"entities"`
	}
	if err := json.Unmarshal(raw, &answer); err != nil {
		return nil, fmt.Errorf("client: resolve %s: bad search answer: %w", typ, err)
	}
	var matches []string
	for _, e := range answer.Entities {
		matches = append(matches, e.Entity)
	}
	if len(matches) != 1 {
		return nil, &ResolveError{EntityType: typ, By: by, Value: value, Matches: matches}
	}
	u, err := urn.Parse(matches[0])
	if err != nil {
		return nil, fmt.Errorf("client: resolve %s: bad search answer: %w", typ, err)
	}
	return u, nil
}

// Domain returns the domain whose name (domainProperties.name) is name,
// exactly.
func (r *Resolve) Domain(ctx context.Context, name string) (urn.Domain, error) {
	u, err := r.one(ctx, urn.TypeDomain, "name", name, equal("name", name))
	if err != nil {
		return urn.Domain{}, err
	}
	d, ok := u.(urn.Domain)
	if !ok {
		return urn.Domain{}, fmt.Errorf("client: resolve: bad search answer: %w", fmt.Errorf("%s is not a domain", u))
	}
	return d, nil
}

// UserByName returns the user whose full name or display name is name,
// exactly.
func (r *Resolve) UserByName(ctx context.Context, name string) (urn.CorpUser, error) {
	return r.user(ctx, "name", name, equal("fullName", name), equal("displayName", name))
}

// UserByEmail returns the user whose email is email, exactly.
func (r *Resolve) UserByEmail(ctx context.Context, email string) (urn.CorpUser, error) {
	return r.user(ctx, "email", email, equal("email", email))
}

func (r *Resolve) user(ctx context.Context, by, value string, anyOf ...criterion) (urn.CorpUser, error) {
	u, err := r.one(ctx, urn.TypeCorpUser, by, value, anyOf...)
	if err != nil {
		return urn.CorpUser{}, err
	}
	cu, ok := u.(urn.CorpUser)
	if !ok {
		return urn.CorpUser{}, fmt.Errorf("client: resolve: bad search answer: %w", fmt.Errorf("%s is not a user", u))
	}
	return cu, nil
}

// Term returns the glossary term whose name (glossaryTermInfo.name, or
// the key's name for a term without one) is name, exactly.
func (r *Resolve) Term(ctx context.Context, name string) (urn.GlossaryTerm, error) {
	u, err := r.one(ctx, urn.TypeGlossaryTerm, "name", name, equal("name", name))
	if err != nil {
		return urn.GlossaryTerm{}, err
	}
	g, ok := u.(urn.GlossaryTerm)
	if !ok {
		return urn.GlossaryTerm{}, fmt.Errorf("client: resolve: bad search answer: %w", fmt.Errorf("%s is not a glossary term", u))
	}
	return g, nil
}
