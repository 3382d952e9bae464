package gms

import (
	"context"
	"encoding/json"
)

// DataHub's texts of raiseIncident and updateIncidentStatus.
const (
	MsgIncidentNoResource = "At least 1 resource urn must be defined to raise an incident."
	MsgIncidentCustomType = "customType is required: Failed to create incident."
	MsgIncidentMissing    = "Failed to update incident. Incident does not exist."
)

// incidentPriorities are DataHub's IncidentPriority values as stored.
var incidentPriorities = map[string]int{"LOW": 3, "MEDIUM": 2, "HIGH": 1, "CRITICAL": 0}

// IncidentStatus is DataHub's IncidentStatusInput.
type IncidentStatus struct {
	State   string
	Stage   *string
	Message *string
}

// IncidentInput is DataHub's RaiseIncidentInput.
type IncidentInput struct {
	Type              string
	CustomType, Title *string
	Description       *string
	ResourceURN       *string
	ResourceURNs      []string
	StartedAt         *int64
	Priority          *string
	AssigneeURNs      []string
	Status            *IncidentStatus
}

// RaiseIncident raises an incident as DataHub's raiseIncident and returns
// its URN (a random id): at least one resource; a CUSTOM incident needs its
// custom type; incidentInfo gets the type, title, description, entities,
// priority (LOW 3 … CRITICAL 0), assignees, a MANUAL source, created stamp
// and the status (ACTIVE when none is given).
func (c *Core) RaiseIncident(ctx context.Context, in IncidentInput) (string, error) {
	var entities []string
	for _, u := range in.ResourceURNs {
		if _, err := CheckURN(u); err == nil && !containsString(entities, u) {
			entities = append(entities, u) // DataHub drops those it cannot parse
		}
	}
	if in.ResourceURN != nil {
		if err := checkURNs(*in.ResourceURN); err != nil {
			return "", err
		}
		if !containsString(entities, *in.ResourceURN) {
			entities = append(entities, *in.ResourceURN)
		}
	}
	if len(entities) == 0 {
		return "", errorf(Internal, "%s", MsgIncidentNoResource)
	}
	if in.Type == "CUSTOM" && in.CustomType == nil {
		return "", errorf(Internal, "%s", MsgIncidentCustomType)
	}
	stamp := c.stamp(ctx)
	info := map[string]any{"type": in.Type, "entities": entities, "created": stamp,
		"source": map[string]any{"type": "MANUAL"}, "status": incidentStatus(in.Status, stamp)}
	for k, v := range map[string]*string{"customType": in.CustomType, "title": in.Title, "description": in.Description} {
		if v != nil {
			info[k] = *v
		}
	}
	if in.StartedAt != nil {
		info["startedAt"] = *in.StartedAt
	}
	if in.Priority != nil {
		p, ok := incidentPriorities[*in.Priority]
		if !ok {
			return "", errorf(BadArgument, "Invalid incident priority: %s", *in.Priority)
		}
		info["priority"] = p
	}
	if in.AssigneeURNs != nil {
		as := []any{}
		for _, a := range in.AssigneeURNs {
			as = append(as, map[string]any{"actor": a, "assignedAt": stamp})
		}
		info["assignees"] = as
	}
	u := "urn:li:incident:" + randomUUID()
	if err := c.create(ctx, u, map[string]any{"incidentInfo": info}, nil); err != nil {
		return "", err
	}
	return u, nil
}

// incidentStatus is the IncidentStatus record of in (ACTIVE when nil).
func incidentStatus(in *IncidentStatus, stamp map[string]any) map[string]any {
	if in == nil {
		return map[string]any{"state": "ACTIVE", "lastUpdated": stamp}
	}
	s := map[string]any{"state": in.State, "lastUpdated": stamp}
	if in.Stage != nil {
		s["stage"] = *in.Stage
	}
	if in.Message != nil {
		s["message"] = *in.Message
	}
	return s
}

// UpdateIncidentStatus replaces an incident's status as DataHub's
// updateIncidentStatus: the incident's incidentInfo must exist (NotFound,
// DataHub's 404); the status gets the state, stage and message given and a
// lastUpdated stamp.
func (c *Core) UpdateIncidentStatus(ctx context.Context, u string, st IncidentStatus) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	missing := func(string) *Error { return errorf(NotFound, "%s", MsgIncidentMissing) }
	stamp := c.stamp(ctx)
	return c.Update(ctx, u, "incidentInfo", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur == nil {
			return nil, missing(u)
		}
		return editObject(u, "incidentInfo", func(obj map[string]any) error {
			obj["status"] = incidentStatus(&st, stamp)
			return nil
		})(cur)
	}, UpdateOptions{SystemMetadata: uiSystemMetadata, IfEntityMissing: missing})
}
