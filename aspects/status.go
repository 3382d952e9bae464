package aspects

// Status is the lifecycle status of an entity; Removed marks a soft delete
// (aspect "status", com.linkedin.common.Status).
type Status struct {
	// Removed reports whether the entity is soft-deleted. It defaults to
	// false and is always encoded.
	Removed bool `json:"removed"`
	// LifecycleStage is the URN of a lifecycleStageType entity; unset means
	// the default active state.
	LifecycleStage *string `json:"lifecycleStage,omitempty"`
	// LifecycleLastUpdated says who moved the entity into its stage and when.
	LifecycleLastUpdated *AuditStamp `json:"lifecycleLastUpdated,omitempty"`
}

// AspectName returns "status".
func (Status) AspectName() string { return "status" }

// InstitutionalMemory holds links to documents about an entity (aspect
// "institutionalMemory", com.linkedin.common.InstitutionalMemory).
type InstitutionalMemory struct {
	// Elements are the links.
	Elements []InstitutionalMemoryMetadata `json:"elements"`
}

// AspectName returns "institutionalMemory".
func (InstitutionalMemory) AspectName() string { return "institutionalMemory" }

// MarshalJSON encodes m; nil Elements is encoded as [].
func (m InstitutionalMemory) MarshalJSON() ([]byte, error) {
	type plain InstitutionalMemory
	p := plain(m)
	p.Elements = nonNil(p.Elements)
	return marshal(p)
}

// InstitutionalMemoryMetadata is one link of an entity's institutional
// memory (com.linkedin.common.InstitutionalMemoryMetadata).
type InstitutionalMemoryMetadata struct {
	// URL is the link, e.g. to a design document or wiki page.
	URL string `json:"url"`
	// Description describes the link.
	Description string `json:"description"`
	// CreateStamp says who added the link and when.
	CreateStamp AuditStamp `json:"createStamp"`
	// UpdateStamp says who last changed the link and when.
	UpdateStamp *AuditStamp `json:"updateStamp,omitempty"`
	// Settings holds display settings for the link.
	Settings *InstitutionalMemoryMetadataSettings `json:"settings,omitempty"`
}

// InstitutionalMemoryMetadataSettings holds display settings of an
// institutional memory link
// (com.linkedin.common.InstitutionalMemoryMetadataSettings).
type InstitutionalMemoryMetadataSettings struct {
	// ShowInAssetPreview shows the link in the entity header and search
	// previews. It defaults to false and is always encoded.
	ShowInAssetPreview bool `json:"showInAssetPreview"`
}
