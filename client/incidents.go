package client

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// Incidents raises incidents on entities (a broken table, a late load)
// and moves them through triage to resolution, through DataHub's GraphQL
// mutations raiseIncident and updateIncidentStatus, as DataHub's UI does
// (DataHub's Python client has no helper for them). Read an incident
// back with [Entities.Get] (an *entity.Incident: its Info, the
// incidentInfo aspect, with its status). Get it with [Client.Incidents].
type Incidents struct {
	c *Client
}

// Incidents returns the incident operations of c.
func (c *Client) Incidents() *Incidents { return &Incidents{c: c} }

// IncidentPriority is an incident's priority, as DataHub's GraphQL API
// names it (stored as a number: CRITICAL 0 to LOW 3).
type IncidentPriority string

// The priorities.
const (
	IncidentLow      IncidentPriority = "LOW"
	IncidentMedium   IncidentPriority = "MEDIUM"
	IncidentHigh     IncidentPriority = "HIGH"
	IncidentCritical IncidentPriority = "CRITICAL"
)

// IncidentInput is an incident to raise.
type IncidentInput struct {
	// Type is its kind (required); a CUSTOM one needs CustomType.
	Type       aspects.IncidentType
	CustomType string
	// Title and Description say what is wrong.
	Title, Description string
	// Entities are the entities it affects (at least one).
	Entities []urn.URN
	// Priority is its priority ("": none).
	Priority IncidentPriority
	// Assignees are the users or groups who handle it.
	Assignees []urn.URN
	// StartedAt is when it started (zero: not given).
	StartedAt time.Time
	// Stage is where it starts ("": none); it starts ACTIVE.
	Stage aspects.IncidentStage
}

// Raise raises an incident and returns its URN (a new one each time).
// An incident without a type or an entity, or a CUSTOM one without its
// custom type, fails with an error matching datahub.ErrValidation before
// anything is sent.
func (in *Incidents) Raise(ctx context.Context, i IncidentInput) (urn.Incident, error) {
	switch {
	case i.Type == "":
		return urn.Incident{}, fmt.Errorf("client: raise incident: no type: %w", datahub.ErrValidation)
	case len(i.Entities) == 0:
		return urn.Incident{}, fmt.Errorf("client: raise incident: no entity: %w", datahub.ErrValidation)
	case i.Type == aspects.IncidentTypeCustom && i.CustomType == "":
		return urn.Incident{}, fmt.Errorf("client: raise incident: a CUSTOM incident needs its custom type: %w", datahub.ErrValidation)
	}
	input := map[string]any{"type": string(i.Type), "resourceUrns": urnStrings(i.Entities)}
	for k, v := range map[string]string{"customType": i.CustomType, "title": i.Title, "description": i.Description, "priority": string(i.Priority)} {
		if v != "" {
			input[k] = v
		}
	}
	if len(i.Assignees) > 0 {
		input["assigneeUrns"] = urnStrings(i.Assignees)
	}
	if !i.StartedAt.IsZero() {
		input["startedAt"] = i.StartedAt.UnixMilli()
	}
	if i.Stage != "" {
		input["status"] = map[string]any{"state": string(aspects.IncidentStateActive), "stage": string(i.Stage)}
	}
	raw, err := in.c.GraphQL(ctx, `mutation raiseIncident($input: RaiseIncidentInput!) { raiseIncident(input: $input) }`,
		map[string]any{"input": input}, "")
	if err != nil {
		return urn.Incident{}, fmt.Errorf("client: raise incident on %s: %w", i.Entities[0], err)
	}
	var answer struct{ RaiseIncident string }
	if err := json.Unmarshal(raw, &answer); err != nil {
		return urn.Incident{}, fmt.Errorf("client: raise incident on %s: bad answer: %w", i.Entities[0], err)
	}
	u, err := urn.ParseIncident(answer.RaiseIncident)
	if err != nil {
		return urn.Incident{}, fmt.Errorf("client: raise incident on %s: bad answer: %w", i.Entities[0], err)
	}
	return u, nil
}

// UpdateStatus sets the status of incident u: its state (ACTIVE or
// RESOLVED), its stage ("": none) and a message ("": none). An incident
// that does not exist is an error matching datahub.ErrNotFound.
func (in *Incidents) UpdateStatus(ctx context.Context, u urn.Incident, state aspects.IncidentState, stage aspects.IncidentStage, message string) error {
	if state == "" {
		return fmt.Errorf("client: update the status of %s: no state: %w", u, datahub.ErrValidation)
	}
	status := map[string]any{"state": string(state)}
	if stage != "" {
		status["stage"] = string(stage)
	}
	if message != "" {
		status["message"] = message
	}
	if _, err := in.c.GraphQL(ctx, `mutation updateIncidentStatus($urn: String!, $input: IncidentStatusInput!) { updateIncidentStatus(urn: $urn, input: $input) }`,
		map[string]any{"urn": u.String(), "input": status}, ""); err != nil {
		return fmt.Errorf("client: update the status of %s: %w", u, err)
	}
	return nil
}

// urnStrings returns the URNs as strings.
func urnStrings(us []urn.URN) []string {
	out := make([]string, 0, len(us))
	for _, u := range us {
		out = append(out, u.String())
	}
	return out
}
