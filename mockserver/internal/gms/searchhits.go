package gms

import (
	"context"
	"slices"
	"strings"
)

// HitEntity is the entity a search or lineage hit of res shows: its latest
// aspects and its key, as [Core.GetEntity] reads them with the key. A
// search asked WithAspects answers its hits with their index documents'
// aspects; while the index has every change the store committed
// (res.Current) those are the store's latest, and the entity is built from
// them without a store read (its aspects then carry their values alone: no
// version, system metadata or audit stamp). Otherwise (the index behind the
// store, as during its async lag) the entity is read from the store, as
// DataHub hydrates a hit from its entity service.
func (c *Core) HitEntity(ctx context.Context, res SearchResult, h SearchHit) (Entity, error) {
	if !res.Current || h.Aspects == nil {
		return c.GetEntity(ctx, h.URN, nil, true)
	}
	e, ok := lookupEntity(h.Entity)
	if !ok || len(h.Aspects) == 0 {
		return c.GetEntity(ctx, h.URN, nil, true)
	}
	out := Entity{Name: e.Name, URN: h.URN, KeyAspect: e.KeyAspect, Aspects: make([]Aspect, 0, len(h.Aspects)+1)}
	for name, v := range h.Aspects {
		out.Aspects = append(out.Aspects, Aspect{URN: h.URN, Name: name, Value: v})
	}
	if _, had := h.Aspects[e.KeyAspect]; !had {
		kv, err := keyFromURN(e, h.URN)
		if err != nil || kv == nil { // as GetEntity: a key that cannot be made is left out
			return c.GetEntity(ctx, h.URN, nil, true)
		}
		out.Aspects = append(out.Aspects, Aspect{URN: h.URN, Name: e.KeyAspect, Value: kv, CreatedBy: DefaultActor})
	}
	slices.SortFunc(out.Aspects, func(a, b Aspect) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}
