package gms

import "github.com/catalogkit/datahub-go/internal/pdl"

// AspectChangeType is the change type of a write of one aspect through the
// OpenAPI entity API (EntityController's createAspect):
// CREATE_ENTITY with createIfEntityNotExists, else CREATE with
// createIfNotExists (its default is true), else UPSERT.
func AspectChangeType(createIfNotExists, createIfEntityNotExists bool) string {
	switch {
	case createIfEntityNotExists:
		return changeCreateEntity
	case createIfNotExists:
		return changeCreate
	}
	return "UPSERT"
}

// DeletedAspects returns the aspects of entity e that a DELETE of the
// entity through the OpenAPI entity API removes ([Core.DeleteAspects] then
// deletes them): with clear, every versioned aspect but the key, so that
// the entity stays; else the named ones, or the key aspect (the whole
// entity) when none are named.
func DeletedAspects(e pdl.Entity, named []string, clear bool) []string {
	if !clear {
		if len(named) == 0 {
			return []string{e.KeyAspect}
		}
		return named
	}
	var out []string
	for _, a := range e.Aspects {
		if info, ok := pdl.LookupAspect(a); a != e.KeyAspect && ok && !info.Timeseries {
			out = append(out, a)
		}
	}
	return out
}
