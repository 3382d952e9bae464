package aspects

// Ownership lists the owners of an entity (aspect "ownership",
// com.linkedin.common.Ownership).
type Ownership struct {
	// Owners are the owners of the entity.
	Owners []Owner `json:"owners"`
	// OwnerTypes maps an ownership type URN to owner URNs; DataHub fills it
	// through a mutation hook. It defaults to {}: nil is encoded as {}.
	OwnerTypes map[string][]string `json:"ownerTypes"`
	// LastModified says who last changed the record. A zero value is encoded
	// as DataHub's default {"time": 0, "actor": "urn:li:corpuser:unknown"}.
	LastModified AuditStamp `json:"lastModified"`
}

// AspectName returns "ownership".
func (Ownership) AspectName() string { return "ownership" }

// MarshalJSON encodes o with its PDL defaults.
func (o Ownership) MarshalJSON() ([]byte, error) {
	type plain Ownership
	p := plain(o)
	p.Owners = nonNil(p.Owners)
	p.OwnerTypes = nonNilMap(p.OwnerTypes)
	p.LastModified = p.LastModified.orDefault()
	return marshal(p)
}

// UnmarshalJSON decodes o; absent defaulted fields take their PDL defaults.
func (o *Ownership) UnmarshalJSON(data []byte) error {
	type plain Ownership
	var p plain
	if err := unmarshalPlain(data, &p, "Ownership"); err != nil {
		return err
	}
	p.OwnerTypes = nonNilMap(p.OwnerTypes)
	p.LastModified = p.LastModified.orDefault()
	*o = Ownership(p)
	return nil
}

// Owner is one owner of an entity (com.linkedin.common.Owner).
type Owner struct {
	// Owner is the owner's URN, e.g. "urn:li:corpuser:jdoe" or
	// "urn:li:corpGroup:data-eng".
	Owner string `json:"owner"`
	// Type is the ownership type. DataHub deprecates it in favour of TypeURN
	// but it is still required.
	Type OwnershipType `json:"type"`
	// TypeURN is the URN of an ownershipType entity.
	TypeURN *string `json:"typeUrn,omitempty"`
	// Source says where the ownership information came from.
	Source *OwnershipSource `json:"source,omitempty"`
	// Attribution says who applied the ownership, when, and why.
	Attribution *MetadataAttribution `json:"attribution,omitempty"`
}

// OwnershipType is the kind of an owner (com.linkedin.common.OwnershipType).
type OwnershipType string

// OwnershipType values, in PDL order. DataHub deprecates the last six.
const (
	OwnershipTypeCustom         OwnershipType = "CUSTOM"
	OwnershipTypeTechnicalOwner OwnershipType = "TECHNICAL_OWNER"
	OwnershipTypeBusinessOwner  OwnershipType = "BUSINESS_OWNER"
	OwnershipTypeDataSteward    OwnershipType = "DATA_STEWARD"
	OwnershipTypeNone           OwnershipType = "NONE"
	OwnershipTypeDeveloper      OwnershipType = "DEVELOPER"   // Deprecated: use OwnershipTypeTechnicalOwner.
	OwnershipTypeDataOwner      OwnershipType = "DATAOWNER"   // Deprecated: use OwnershipTypeTechnicalOwner.
	OwnershipTypeDelegate       OwnershipType = "DELEGATE"    // Deprecated: use OwnershipTypeTechnicalOwner.
	OwnershipTypeProducer       OwnershipType = "PRODUCER"    // Deprecated: use OwnershipTypeTechnicalOwner.
	OwnershipTypeConsumer       OwnershipType = "CONSUMER"    // Deprecated: use OwnershipTypeTechnicalOwner or OwnershipTypeBusinessOwner.
	OwnershipTypeStakeholder    OwnershipType = "STAKEHOLDER" // Deprecated: use OwnershipTypeTechnicalOwner, OwnershipTypeBusinessOwner or OwnershipTypeDataSteward.
)

// OwnershipSource says where ownership information came from
// (com.linkedin.common.OwnershipSource).
type OwnershipSource struct {
	// Type is the kind of source.
	Type OwnershipSourceType `json:"type"`
	// URL is a reference URL for the source.
	URL *string `json:"url,omitempty"`
}

// OwnershipSourceType is the kind of an ownership source
// (com.linkedin.common.OwnershipSourceType).
type OwnershipSourceType string

// OwnershipSourceType values, in PDL order.
const (
	OwnershipSourceAudit               OwnershipSourceType = "AUDIT"                 // audit system or logs
	OwnershipSourceDatabase            OwnershipSourceType = "DATABASE"              // e.g. a GRANTS table
	OwnershipSourceFileSystem          OwnershipSourceType = "FILE_SYSTEM"           // file or directory owner
	OwnershipSourceIssueTrackingSystem OwnershipSourceType = "ISSUE_TRACKING_SYSTEM" // e.g. Jira
	OwnershipSourceManual              OwnershipSourceType = "MANUAL"                // entered by a user
	OwnershipSourceService             OwnershipSourceType = "SERVICE"               // another ownership service
	OwnershipSourceSourceControl       OwnershipSourceType = "SOURCE_CONTROL"        // e.g. git
	OwnershipSourceOther               OwnershipSourceType = "OTHER"                 // anything else
)
