package gms

import (
	"context"
	"slices"
)

// DataHub's texts of the application mutations (ApplicationService).
const (
	MsgApplicationExists  = "This Application already exists!"
	MsgApplicationMissing = "Failed to update Application. Application with urn %s does not exist. (datahub-mock)"
)

// CreateApplication creates an application as DataHub's createApplication
// and returns its URN: the id (a random UUID when "") must be new;
// applicationProperties gets the name and description, domains the domain
// given, and the creator becomes its technical owner when asked.
func (c *Core) CreateApplication(ctx context.Context, id, name string, description, domain *string, creatorOwns bool) (string, error) {
	props := map[string]any{"name": name}
	setGiven(props, "description", description)
	aspects := map[string]any{"applicationProperties": props}
	if domain != nil {
		if err := checkURNs(*domain); err != nil {
			return "", err
		}
		aspects["domains"] = map[string]any{"domains": []string{*domain}}
	}
	if creatorOwns {
		aspects["ownership"] = c.creatorOwnership(ctx)
	}
	return c.CreateUIEntity(ctx, "application", id, aspects, errorf(BadArgument, "%s", MsgApplicationExists))
}

// UpdateApplication changes the name and description given of an
// application (its properties must exist).
func (c *Core) UpdateApplication(ctx context.Context, u string, name, description *string) error {
	return c.ChangeUIAspect(ctx, u, "applicationProperties", errorf(BadArgument, MsgApplicationMissing, u), func(obj map[string]any) {
		setGiven(obj, "name", name)
		setGiven(obj, "description", description)
	})
}

// ChangeApplicationAssets adds application to (or removes it from) the
// applications aspect of each resource, as DataHub's batchSetApplication
// and batchUnsetApplication do; a nil application with set clears the
// resources' applications.
func (c *Core) ChangeApplicationAssets(ctx context.Context, application *string, resources []string, remove bool) error {
	if err := checkURNs(resources...); err != nil {
		return err
	}
	if application != nil {
		if err := checkURNs(*application); err != nil {
			return err
		}
	}
	for _, r := range resources {
		err := c.ChangeUIAspect(ctx, r, "applications", nil, func(obj map[string]any) {
			apps := []any{}
			for _, a := range list(obj, "applications") {
				if application != nil && (a != *application || !remove) {
					apps = append(apps, a)
				}
			}
			if application != nil && !remove && !slices.Contains(apps, any(*application)) {
				apps = append(apps, *application)
			}
			obj["applications"] = apps
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// UpdateIncident changes the members given of an incident's incidentInfo
// as DataHub's updateIncident (the incident must exist, NotFound).
func (c *Core) UpdateIncident(ctx context.Context, u string, in IncidentInput) error {
	if err := checkURNs(in.ResourceURNs...); err != nil {
		return err
	}
	stamp := c.stamp(ctx)
	return c.ChangeUIAspect(ctx, u, "incidentInfo", errorf(NotFound, "%s", MsgIncidentMissing), func(obj map[string]any) {
		setGiven(obj, "title", in.Title)
		setGiven(obj, "description", in.Description)
		if in.StartedAt != nil {
			obj["startedAt"] = *in.StartedAt
		}
		if in.Status != nil {
			obj["status"] = incidentStatus(in.Status, stamp)
		}
		if in.Priority != nil {
			if p, ok := incidentPriorities[*in.Priority]; ok {
				obj["priority"] = p
			}
		}
		if in.ResourceURNs != nil {
			obj["entities"] = in.ResourceURNs
		}
		if in.AssigneeURNs != nil {
			as := []any{}
			for _, a := range in.AssigneeURNs {
				as = append(as, map[string]any{"actor": a, "assignedAt": stamp})
			}
			obj["assignees"] = as
		}
	})
}
