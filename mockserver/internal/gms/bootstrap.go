package gms

import (
	"context"
	"encoding/json"
	"strings"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// bootstrapAspect is one aspect a fresh GMS writes on its first start.
type bootstrapAspect struct {
	URN, Aspect, Value string
}

// entityTypeURN is the URN GMS's bootstrap gives the entity type of the
// registry's entity name (urn:li:entityType:datahub.dataset).
func entityTypeURN(name string) string { return "urn:li:entityType:datahub." + name }

// bootstrapSet holds the URNs of every entity a fresh GMS has: the data
// platforms and data types of its bootstrap files, one entity type per
// entity of the registry, and the system ownership types.
var bootstrapSet = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, len(bootstrapAspects)+len(pdl.Entities())+len(bootstrapped))
	for _, a := range bootstrapAspects {
		m[a.URN] = true
	}
	for _, e := range pdl.Entities() {
		m[entityTypeURN(e.Name)] = true
	}
	for u := range bootstrapped {
		m[u] = true
	}
	return m
})

// IsBootstrapped reports whether u is an entity a fresh DataHub GMS has
// from its bootstrap (a data platform, data type, entity type or system
// ownership type). The mock's checks that an entity exists count these as
// existing whether or not they were seeded (see [Core.SeedBootstrap]).
func IsBootstrapped(u string) bool { return bootstrapSet()[u] }

// bootstrapProposals are the proposals of GMS's bootstrap: the data
// platforms' dataPlatformInfo, the data types' dataTypeInfo and one
// entityTypeInfo per entity type of the registry.
func bootstrapProposals() []Proposal {
	ents := pdl.Entities()
	ps := make([]Proposal, 0, len(bootstrapAspects)+len(ents))
	for _, a := range bootstrapAspects {
		ps = append(ps, Proposal{EntityType: EntityTypeOf(a.URN), EntityURN: a.URN, ChangeType: "UPSERT",
			AspectName: a.Aspect, Aspect: json.RawMessage(a.Value), ContentType: "application/json"})
	}
	for _, e := range ents {
		u := entityTypeURN(e.Name)
		info, _ := json.Marshal(map[string]string{"qualifiedName": strings.TrimPrefix(u, "urn:li:entityType:"), "displayName": e.Name})
		ps = append(ps, Proposal{EntityType: "entityType", EntityURN: u, ChangeType: "UPSERT",
			AspectName: "entityTypeInfo", Aspect: info, ContentType: "application/json"})
	}
	return ps
}

// SeedBootstrap writes the entities a fresh DataHub GMS bootstraps on its
// first start: the data platforms (dataPlatformInfo), the structured
// property data types (dataTypeInfo) and one entity type (entityTypeInfo)
// per entity of the registry, as one synchronous batch.
func (c *Core) SeedBootstrap(ctx context.Context) error {
	return c.Ingest(ctx, bootstrapProposals(), IngestOptions{Batch: true})
}
