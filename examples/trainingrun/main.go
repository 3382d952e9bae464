// Command trainingrun records an ML training run the way DataHub's MLflow
// and Vertex AI connectors record one, and reads it back: the experiment
// as a container, the run as a dataProcessInstance with its parameters,
// metrics, run event, input dataset and output model, the registered model
// as a model group and its version as a model (the run as its training
// job, its features, a Vertex AI endpoint as its deployment), and the
// features with the dataset they come from.
//
// It records two runs, each a different way: the first with typed aspects
// sent as proposals (emitter), the second with typed entities
// (client.Entities: Upsert of what may exist, Create of the new run and
// model version, Update to add the deployment). Both are read back through
// the client (entities, a timeseries read) and GraphQL.
//
//	go run ./examples/trainingrun
//	go run ./examples/trainingrun -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

func main() { embedded.Main("trainingrun", run) }

// runs are the two training runs the example records.
var runs = []training{
	{Experiment: "churn", RunID: "9f1c2b7e", RunName: "churn-gbt-1", Model: "churn-classifier", Version: "1",
		Params: map[string]any{"learning_rate": 0.1, "max_depth": 6}, Metrics: map[string]any{"auc": 0.87, "log_loss": 0.41},
		Start: 1_764_000_000_000, End: 1_764_000_900_000, Endpoint: "churn-endpoint",
		FeatureTable: "customer_features", Features: []string{"tenure_months", "monthly_spend"}, Source: "crm.customers"},
	{Experiment: "churn", RunID: "4d8a0e13", RunName: "churn-gbt-2", Model: "churn-classifier", Version: "2",
		Params: map[string]any{"learning_rate": 0.05, "max_depth": 8}, Metrics: map[string]any{"auc": 0.91, "log_loss": 0.35},
		Start: 1_764_086_400_000, End: 1_764_087_600_000, Endpoint: "churn-endpoint",
		FeatureTable: "customer_features", Features: []string{"tenure_months", "monthly_spend"}, Source: "crm.customers"},
}

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	for i, t := range runs {
		u, err := urnsOf(t)
		if err != nil {
			return err
		}
		if i == 0 {
			fmt.Fprintln(out, "== run 1, written as proposals of typed aspects")
			ps, err := proposals(t, u)
			if err != nil {
				return err
			}
			if err := em.Emit(ctx, ps...); err != nil {
				return err
			}
		} else {
			fmt.Fprintln(out, "== run 2, written as entities")
			if err := recordEntities(ctx, c, em, t, u); err != nil {
				return err
			}
		}
		if err := readBack(ctx, c, u, out); err != nil {
			return err
		}
	}
	return nil
}

// proposals returns t as the connectors emit it: one proposal per aspect.
func proposals(t training, u urns) ([]emitter.Proposal, error) {
	var ps []emitter.Proposal
	add := func(e urn.URN, as ...aspects.Aspect) error {
		for _, a := range as {
			p, err := emitter.NewProposal(e, a)
			if err != nil {
				return err
			}
			// Fixed system metadata, so that the proposals are the same on
			// every run (they are a test fixture of the mock).
			p.SystemMetadata = &aspects.SystemMetadata{LastObserved: t.End, RunID: aspects.Ptr("mlflow-" + t.RunID), LastRunID: aspects.Ptr("mlflow-" + t.RunID)}
			ps = append(ps, p)
		}
		return nil
	}
	ds := sourceDataset(u)
	err := add(u.dataset, ds.Properties, ds.Schema)
	for _, f := range u.features {
		err = firstErr(err, add(f, featureProperties(u)))
	}
	model := modelProperties(t, u)
	model.Deployments = []string{u.deployment.String()}
	err = firstErr(err,
		add(u.table, tableProperties(u)),
		add(u.experiment, experimentProperties(t), &aspects.SubTypes{TypeNames: []string{"ML Experiment"}}, mlflowPlatform),
		add(u.run, runProperties(t), &aspects.Container{Container: u.experiment.String()}, runInput(u), runOutput(u),
			trainingRunProperties(t), runEvent(t), mlflowPlatform, &aspects.SubTypes{TypeNames: []string{"ML Training Run"}}),
		add(u.group, groupProperties(t)),
		add(u.model, model),
		add(u.deployment, deploymentProperties(t)))
	return ps, err
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// readBack reads the run, its experiment and its model through the client
// and GraphQL, and prints what a reader of the catalog sees.
func readBack(ctx context.Context, c *client.Client, u urns, out io.Writer) error {
	e, err := c.Entities().Get(ctx, u.run)
	if err != nil {
		return err
	}
	r := e.(*entity.DataProcessInstance)
	fmt.Fprintf(out, "run %s (%s) in %s\n", r.Properties.Name, strings.Join(r.SubTypes.TypeNames, ", "), r.Container.Container)
	fmt.Fprintf(out, "  params  %s\n", pairs(r.TrainingRun.HyperParams))
	fmt.Fprintf(out, "  metrics %s\n", metricPairs(r.TrainingRun.TrainingMetrics))
	fmt.Fprintf(out, "  read %s, wrote %s\n", r.Input.InputEdges[0].DestinationURN, r.Output.OutputEdges[0].DestinationURN)
	ev, err := client.LatestTimeseries[aspects.DataProcessInstanceRunEvent](ctx, c, u.run)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  last event %s %s after %d s\n", ev.Status, ev.Result.Type, *ev.DurationMillis/1000)

	x, err := c.Entities().Get(ctx, u.experiment)
	if err != nil {
		return err
	}
	exp := x.(*entity.Container)
	fmt.Fprintf(out, "experiment %s (%s)\n", exp.Properties.Name, exp.SubTypes.TypeNames[0])

	// GraphQL, as DataHub's UI reads them.
	m, err := c.MLModel(ctx, u.model)
	if err != nil {
		return err
	}
	var groups []string
	for _, g := range m.Properties.Groups {
		groups = append(groups, g.Name)
	}
	mp, err := client.GetAspect[aspects.MLModelProperties](ctx, c, u.model)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "model %s version %s in group %v, %d features, trained by %s, deployed to %v\n", m.Name, *m.Properties.Version, groups,
		len(m.Properties.MLFeatures), mp.TrainingJobs[0], mp.Deployments)
	for _, f := range u.features {
		gf, err := c.MLFeature(ctx, f)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "  feature %s.%s\n", gf.FeatureNamespace, gf.Name)
	}
	ds, err := c.Dataset(ctx, u.dataset)
	if err != nil {
		return err
	}
	var cols []string
	for _, f := range ds.SchemaMetadata.Fields {
		cols = append(cols, f.FieldPath)
	}
	fmt.Fprintf(out, "  source %s columns %v\n", u.dataset.Name(), cols)
	data, err := c.GraphQL(ctx, `query($run: String!, $dep: String!) { run: entityExists(urn: $run) deployment: entityExists(urn: $dep) }`,
		map[string]any{"run": u.run.String(), "dep": u.deployment.String()}, "")
	if err != nil {
		return err
	}
	var exists struct{ Run, Deployment bool }
	if err := json.Unmarshal(data, &exists); err != nil {
		return err
	}
	fmt.Fprintf(out, "  GraphQL: run exists %v, deployment exists %v\n", exists.Run, exists.Deployment)
	return nil
}

func pairs(ps []aspects.MLHyperParam) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Name+"="+*p.Value)
	}
	return strings.Join(s, " ")
}

func metricPairs(ms []aspects.MLMetric) string {
	var s []string
	for _, m := range ms {
		s = append(s, m.Name+"="+*m.Value)
	}
	return strings.Join(s, " ")
}
