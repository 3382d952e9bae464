package testshared

import (
	"slices"
	"strings"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// FixDestinations makes v, a value of aspect built for a test and decoded as
// JSON objects and arrays, acceptable to DataHub's relationship check when
// entity holds it: every string at the path of a @Relationship of any of
// entity's aspects whose entity type the relationships there do not all
// allow becomes sample(t) for the first entity type t they all allow (and
// sample has a URN for). It then does the same for the @UrnValidation
// fields of aspect, with, where the field must name an existing entity, one
// a fresh DataHub bootstraps (see bootstrappedSample). It returns how many
// strings it replaced.
func FixDestinations(entity, aspect string, v any, sample func(entityType string) (string, bool)) int {
	e, ok := pdl.LookupEntity(entity)
	if !ok || !slices.Contains(append([]string{e.KeyAspect}, e.Aspects...), aspect) {
		return 0
	}
	sets := map[string][][]string{}
	var paths []string
	for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
		for _, r := range pdl.Relationships(a) {
			if _, seen := sets[r.Path]; !seen {
				paths = append(paths, r.Path)
			}
			sets[r.Path] = append(sets[r.Path], r.EntityTypes)
		}
	}
	n := 0
	for _, p := range paths {
		allowed := func(t string) bool {
			for _, s := range sets[p] {
				if !slices.Contains(s, t) {
					return false
				}
			}
			return true
		}
		var repl string
		for _, t := range sets[p][0] {
			if u, ok := sample(t); ok && allowed(t) {
				repl = u
				break
			}
		}
		if repl == "" {
			continue
		}
		fixAt(v, strings.Split(strings.TrimPrefix(p, "/"), "/"), func(s string) (string, bool) {
			if allowed(entityTypeOf(s)) {
				return s, false
			}
			n++
			return repl, true
		})
	}
	for _, c := range pdl.URNValidations(aspect) {
		if len(c.EntityTypes) == 0 {
			continue
		}
		t := c.EntityTypes[0]
		repl, ok := bootstrappedSample[t]
		if !ok && !c.Exist {
			repl, ok = sample(t)
		}
		if !ok {
			continue
		}
		fix := func(s string) (string, bool) {
			if s == repl {
				return s, false
			}
			n++
			return repl, true
		}
		segs := strings.Split(strings.TrimPrefix(c.Path, "/"), "/")
		fixAt(v, segs, fix)
		fixAt(v, append(segs, "*"), fix) // a field holding an array is checked item by item
	}
	return n
}

// bootstrappedSample are entities a fresh DataHub has from its bootstrap, by
// entity type: the targets of the @UrnValidation fields that must exist.
var bootstrappedSample = map[string]string{
	"dataType":     "urn:li:dataType:datahub.string",
	"entityType":   "urn:li:entityType:datahub.dataset",
	"dataPlatform": "urn:li:dataPlatform:hive",
}

// fixAt replaces the strings at path segs below v with fix's answer.
func fixAt(v any, segs []string, fix func(string) (string, bool)) {
	if len(segs) == 0 {
		return
	}
	seg, rest := segs[0], segs[1:]
	set := func(get func() any, put func(any)) {
		if s, ok := get().(string); ok && len(rest) == 0 {
			if r, changed := fix(s); changed {
				put(r)
			}
			return
		}
		fixAt(get(), rest, fix)
	}
	switch x := v.(type) {
	case []any:
		if seg == "*" {
			for i := range x {
				set(func() any { return x[i] }, func(r any) { x[i] = r })
			}
		}
	case map[string]any:
		for k := range x {
			if seg == "*" || k == seg {
				set(func() any { return x[k] }, func(r any) { x[k] = r })
			}
		}
	}
}

// entityTypeOf returns the entity type of URN u, "" if u is none.
func entityTypeOf(u string) string {
	rest, ok := strings.CutPrefix(u, "urn:li:")
	if !ok {
		return ""
	}
	et, _, _ := strings.Cut(rest, ":")
	return et
}
