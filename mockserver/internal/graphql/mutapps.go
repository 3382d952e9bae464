package graphql

import (
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The mutations of applications and of an incident's details; each resolver
// only decodes its arguments and calls the core.

func init() {
	mutation("createApplication", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				ID                      string
				DomainUrn               *string
				ShouldAddCreatorAsOwner *bool
				Properties              struct {
					Name        string
					Description *string
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		u, err := c.Core().CreateApplication(c, i.ID, i.Properties.Name, i.Properties.Description, i.DomainUrn,
			i.ShouldAddCreatorAsOwner == nil || *i.ShouldAddCreatorAsOwner)
		return entityAnswer(c, u, err)
	})
	mutation("updateApplication", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct{ Name, Description *string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return entityAnswer(c, in.URN, c.Core().UpdateApplication(c, in.URN, in.Input.Name, in.Input.Description))
	})
	mutation("deleteApplication", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteUIEntity(c, a.String("urn"), nil))
	})
	for name, remove := range map[string]bool{"batchSetApplication": false, "batchUnsetApplication": true} {
		mutation(name, func(c *Ctx, a Args) (any, error) {
			var in struct {
				Input struct {
					ApplicationUrn *string
					ResourceUrns   []string
				}
			}
			if err := decodeInput(a, &in); err != nil {
				return nil, err
			}
			return done(c.Core().ChangeApplicationAssets(c, in.Input.ApplicationUrn, in.Input.ResourceUrns, remove))
		})
	}
	mutation("updateIncident", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input struct {
				Title, Description *string
				StartedAt          *int64
				Priority           *string
				ResourceUrns       []string
				AssigneeUrns       []string
				Status             *struct {
					State          string
					Stage, Message *string
				}
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		inc := gms.IncidentInput{Title: i.Title, Description: i.Description, StartedAt: i.StartedAt, Priority: i.Priority,
			ResourceURNs: i.ResourceUrns, AssigneeURNs: i.AssigneeUrns}
		if i.Status != nil {
			inc.Status = &gms.IncidentStatus{State: i.Status.State, Stage: i.Status.Stage, Message: i.Status.Message}
		}
		return done(c.Core().UpdateIncident(c, in.URN, inc))
	})
}
