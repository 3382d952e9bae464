package gms

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// snapshotUnion is the record holding the snapshot union
// (com.linkedin.entity.Entity's value).
const snapshotUnion = "com.linkedin.entity.Entity"

// snapshotFacts are the snapshots of DataHub's PDL
// (com.linkedin.metadata.snapshot.*Snapshot, the members of Entity's value
// union): for each, its entity type and the aspects its aspect union
// holds, by record name; taken from the generated schemas.
type snapshotFacts struct {
	byName   map[string]*snapshotInfo // by snapshot record name
	byEntity map[string]*snapshotInfo // by entity type
}

// snapshotInfo is one snapshot record.
type snapshotInfo struct {
	Name, Entity string
	aspects      map[string]string // record name → aspect name
	order        []string          // record names in union order
}

var snapshots = sync.OnceValue(func() snapshotFacts {
	f := snapshotFacts{byName: map[string]*snapshotInfo{}, byEntity: map[string]*snapshotInfo{}}
	byRecord := map[string]string{} // aspect record name → aspect name
	keyOf := map[string]string{}    // key aspect record name → entity type
	for _, e := range pdl.Entities() {
		for _, a := range append([]string{e.KeyAspect}, e.Aspects...) {
			if info, ok := pdl.LookupAspect(a); ok {
				byRecord[info.RecordName] = a
				if a == e.KeyAspect {
					keyOf[info.RecordName] = e.Name
				}
			}
		}
	}
	ent, ok := pdl.Record(snapshotUnion)
	if !ok {
		return f
	}
	for _, fld := range ent.Fields {
		if fld.Name != "value" {
			continue
		}
		for _, m := range fld.Type.Members {
			rec, ok := pdl.Record(m.Type.Name)
			if !ok {
				continue
			}
			s := &snapshotInfo{Name: rec.Name, aspects: map[string]string{}}
			for _, sf := range rec.Fields {
				if sf.Name != "aspects" || sf.Type.Items == nil {
					continue
				}
				for _, am := range sf.Type.Items.Members {
					name, ok := byRecord[am.Type.Name]
					if !ok {
						continue
					}
					s.aspects[am.Type.Name] = name
					s.order = append(s.order, am.Type.Name)
					if e, ok := keyOf[am.Type.Name]; ok {
						s.Entity = e
					}
				}
			}
			f.byName[s.Name] = s
			if s.Entity != "" {
				f.byEntity[s.Entity] = s
			}
		}
	}
	return f
})

// SnapshotProposals turns one com.linkedin.entity.Entity (a snapshot union,
// as DataHub's Python emit_mce sends it: {"value": {"<snapshot record>":
// {"urn": ..., "aspects": [{"<aspect record>": {...}}, ...]}}}) into the
// proposals GMS makes of it (EntityService.ingestEntity): one UPSERT per
// aspect, in order, each with systemMetadata sm (nil: none). A snapshot or
// aspect record the union does not hold, or a shape that is not a
// snapshot, is Invalid, as GMS's validation of the Entity record refuses
// it.
func SnapshotProposals(entity json.RawMessage, sm json.RawMessage) ([]Proposal, error) {
	var outer struct {
		Value map[string]json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(entity, &outer); err != nil {
		return nil, errorf(Invalid, MsgSnapshotShape, JSONErrorText(err))
	}
	if len(outer.Value) != 1 {
		return nil, errorf(Invalid, MsgSnapshotUnion, len(outer.Value))
	}
	var name string
	var body json.RawMessage
	for k, v := range outer.Value {
		name, body = k, v
	}
	info, ok := snapshots().byName[name]
	if !ok {
		return nil, errorf(Invalid, MsgSnapshotUnknown, Abbreviate(name))
	}
	var snap struct {
		URN     *string                      `json:"urn"`
		Aspects []map[string]json.RawMessage `json:"aspects"`
	}
	if err := json.Unmarshal(body, &snap); err != nil {
		return nil, errorf(Invalid, MsgSnapshotShape, JSONErrorText(err))
	}
	if snap.URN == nil {
		return nil, errorf(Invalid, MsgSnapshotField, "urn", name)
	}
	if snap.Aspects == nil {
		return nil, errorf(Invalid, MsgSnapshotField, "aspects", name)
	}
	if _, err := CheckURN(*snap.URN); err != nil {
		return nil, err
	}
	out := make([]Proposal, 0, len(snap.Aspects))
	for i, a := range snap.Aspects {
		if len(a) != 1 {
			return nil, errorf(Invalid, MsgSnapshotAspectUnion, i, len(a))
		}
		for rec, v := range a {
			aspect, ok := info.aspects[rec]
			if !ok {
				return nil, errorf(Invalid, MsgSnapshotAspect, Abbreviate(rec), i, name)
			}
			out = append(out, Proposal{EntityType: EntityTypeOf(*snap.URN), EntityURN: *snap.URN, ChangeType: "UPSERT",
				AspectName: aspect, Aspect: v, ContentType: "application/json", SystemMetadata: sm})
		}
	}
	return out, nil
}

// Snapshot is an entity as a snapshot record (the answer of GMS's
// entities GET).
type Snapshot struct {
	// Name is the snapshot record's name.
	Name, URN string
	// Aspects are the latest aspects the snapshot's union holds, key aspect
	// included, sorted by aspect name.
	Aspects []SnapshotAspect
}

// SnapshotAspect is one aspect of a [Snapshot]: its record name and value.
type SnapshotAspect struct {
	RecordName string
	Value      json.RawMessage
}

// GetSnapshot returns urn as its snapshot, as GMS's entities GET
// (EntityService.getEntity): the latest aspects the snapshot's union holds
// (those named in projection when it is not empty), the key aspect always,
// synthesised from the URN when absent. An entity type without a snapshot
// record is BadArgument.
func (c *Core) GetSnapshot(ctx context.Context, urn string, projection []string) (Snapshot, error) {
	parsed, err := CheckURN(urn)
	if err != nil {
		return Snapshot{}, err
	}
	info, ok := snapshots().byEntity[parsed.EntityType()]
	if !ok {
		if _, known := lookupEntity(parsed.EntityType()); !known {
			return Snapshot{}, errorf(UnknownEntity, MsgUnknownEntity, Abbreviate(parsed.EntityType()))
		}
		return Snapshot{}, errorf(BadArgument, MsgNoSnapshot, parsed.EntityType())
	}
	var proj []string
	if len(projection) > 0 {
		proj = projection
	}
	e, gerr := c.GetEntity(ctx, urn, proj, true)
	if gerr != nil {
		return Snapshot{}, gerr
	}
	out := Snapshot{Name: info.Name, URN: urn}
	for _, a := range e.Aspects {
		ai, ok := pdl.LookupAspect(a.Name)
		if !ok {
			continue
		}
		if _, inUnion := info.aspects[ai.RecordName]; !inUnion {
			continue
		}
		out.Aspects = append(out.Aspects, SnapshotAspect{RecordName: ai.RecordName, Value: a.Value})
	}
	return out, nil
}

// SnapshotNames returns the record names of every snapshot, sorted.
func SnapshotNames() []string {
	var out []string
	for n := range snapshots().byName {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// SnapshotOf returns the snapshot record name of entityType ("" if none).
func SnapshotOf(entityType string) string {
	if s, ok := snapshots().byEntity[entityType]; ok {
		return s.Name
	}
	return ""
}

// GetEntityVersions is [Core.GetEntity] (key aspect included) with the
// versions stamp names (aspect → version, 0 the latest, 1 the oldest), as
// GMS's entitiesVersionedV2: an aspect stamp names is read at that version
// (left out when the version does not exist), the others at their latest.
func (c *Core) GetEntityVersions(ctx context.Context, urn string, projection []string, stamp map[string]int64) (Entity, error) {
	e, err := c.GetEntity(ctx, urn, projection, true)
	if err != nil {
		return Entity{}, err
	}
	out := e.Aspects[:0:0]
	for _, a := range e.Aspects {
		v, ok := stamp[a.Name]
		if !ok || v == 0 {
			out = append(out, a)
			continue
		}
		older, serr := c.st.Get(urn, a.Name, v)
		if serr != nil {
			continue
		}
		out = append(out, older)
	}
	e.Aspects = out
	return e, nil
}
