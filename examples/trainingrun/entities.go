package main

import (
	"context"
	"slices"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/entity"
)

// recordEntities records t with typed entities: what other runs share (the
// dataset, the features, the experiment, the model group) with Upsert, the
// new run and model version with Create (refused if they exist), and the
// deployment of the model with Update, which re-reads and re-applies the
// change if another job changed the model meanwhile.
func recordEntities(ctx context.Context, c *client.Client, em *emitter.REST, t training, u urns) error {
	es := c.Entities()
	shared := []entity.Entity{
		sourceDataset(u),
		&entity.MLFeatureTable{URN: u.table, Properties: tableProperties(u)},
		&entity.Container{URN: u.experiment, Properties: experimentProperties(t),
			SubTypes: &aspects.SubTypes{TypeNames: []string{"ML Experiment"}}, DataPlatformInstance: mlflowPlatform},
		&entity.MLModelGroup{URN: u.group, Properties: groupProperties(t)},
	}
	for _, f := range u.features {
		shared = append(shared, &entity.MLFeature{URN: f, Properties: featureProperties(u)})
	}
	for _, e := range shared {
		if err := es.Upsert(ctx, e); err != nil {
			return err
		}
	}

	run := entity.NewTrainingRun(u.run, t.RunName, t.Params, t.Metrics)
	run.Properties = runProperties(t)
	run.TrainingRun = trainingRunProperties(t)
	run.Container = &aspects.Container{Container: u.experiment.String()}
	run.Input, run.Output = runInput(u), runOutput(u)
	run.DataPlatformInstance = mlflowPlatform
	run.RunEvents = []aspects.DataProcessInstanceRunEvent{runEvent(t)}
	if err := es.Create(ctx, run); err != nil {
		return err
	}
	model := &entity.MLModel{URN: u.model, Properties: modelProperties(t, u)}
	if err := es.Create(ctx, model); err != nil {
		return err
	}

	// Deploying: the endpoint has no entity type in package entity; its
	// aspect goes as a proposal. Then the model names it, by Update.
	p, err := emitter.NewProposal(u.deployment, deploymentProperties(t))
	if err != nil {
		return err
	}
	if err := em.Emit(ctx, p); err != nil {
		return err
	}
	e, err := es.Get(ctx, u.model)
	if err != nil {
		return err
	}
	m := e.(*entity.MLModel)
	_, err = es.Update(ctx, m, func() error {
		if slices.Contains(m.Properties.Deployments, u.deployment.String()) {
			return client.ErrNoChange
		}
		m.Properties.Deployments = append(m.Properties.Deployments, u.deployment.String())
		return nil
	})
	return err
}
