package main

import (
	"crypto/md5"
	"encoding/hex"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/urn"
)

// training is one MLflow training run and what it touches, named as
// DataHub's MLflow connector names them (experiments as containers, runs
// as dataProcessInstances, registered models as model groups, model
// versions as models), with a Vertex AI-style endpoint as the deployment.
type training struct {
	Experiment   string         // MLflow experiment name
	RunID        string         // MLflow run id
	RunName      string         // MLflow run name
	Model        string         // registered model name
	Version      string         // model version
	Params       map[string]any // logged parameters
	Metrics      map[string]any // logged metrics
	Start, End   int64          // run start and end, epoch ms
	Endpoint     string         // serving endpoint name
	FeatureTable string         // feature table name (Feast)
	Features     []string       // feature names
	Source       string         // the Snowflake table the features come from
}

// urns are the URNs of a training's entities.
type urns struct {
	experiment urn.Container
	run        urn.DataProcessInstance
	deployment urn.MLModelDeployment
	group      urn.MLModelGroup
	model      urn.MLModel
	dataset    urn.Dataset
	table      urn.MLFeatureTable
	features   []urn.MLFeature
}

// guid returns a stable id for parts, as the connectors derive container
// and run ids from their keys (an MD5 of the key).
func guid(parts ...string) string {
	h := md5.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// urnsOf builds the URNs of t.
func urnsOf(t training) (urns, error) {
	var u urns
	var err error
	if u.experiment, err = urn.NewContainer(guid("mlflow", t.Experiment)); err != nil {
		return u, err
	}
	if u.run, err = urn.NewDataProcessInstance(guid("mlflow", t.RunID)); err != nil {
		return u, err
	}
	if u.deployment, err = urn.NewMLModelDeployment("vertexai", t.Endpoint, "PROD"); err != nil {
		return u, err
	}
	if u.group, err = urn.NewMLModelGroup("mlflow", t.Model, "PROD"); err != nil {
		return u, err
	}
	if u.model, err = urn.NewMLModel("mlflow", t.Model+"_"+t.Version, "PROD"); err != nil {
		return u, err
	}
	if u.dataset, err = urn.NewDataset("snowflake", t.Source, "PROD"); err != nil {
		return u, err
	}
	if u.table, err = urn.NewMLFeatureTable("feast", t.FeatureTable); err != nil {
		return u, err
	}
	for _, f := range t.Features {
		fu, err := urn.NewMLFeature(t.FeatureTable, f)
		if err != nil {
			return u, err
		}
		u.features = append(u.features, fu)
	}
	return u, nil
}

// The aspects below are what the connectors write; both ways of recording
// (proposals in main.go, entities in entities.go) write these values.

func experimentProperties(t training) *aspects.ContainerProperties {
	return &aspects.ContainerProperties{Name: t.Experiment, CustomProperties: map[string]string{"artifact_location": "s3://mlflow/" + t.Experiment}}
}

var mlflowPlatform = &aspects.DataPlatformInstance{Platform: "urn:li:dataPlatform:mlflow"}

func runProperties(t training) *aspects.DataProcessInstanceProperties {
	return &aspects.DataProcessInstanceProperties{
		Name:             t.RunName,
		Created:          aspects.AuditStamp{Time: t.Start, Actor: "urn:li:corpuser:mlflow"},
		ExternalURL:      aspects.Ptr("https://mlflow.example.com/#/experiments/1/runs/" + t.RunID),
		CustomProperties: map[string]string{"mlflow.user": "jdoe"},
	}
}

func trainingRunProperties(t training) *aspects.MLTrainingRunProperties {
	return &aspects.MLTrainingRunProperties{
		ID:              aspects.Ptr(t.RunID),
		HyperParams:     entity.HyperParams(t.Params),
		TrainingMetrics: entity.Metrics(t.Metrics),
		OutputURLs:      []string{"s3://mlflow/" + t.Experiment + "/" + t.RunID + "/artifacts"},
	}
}

func runInput(u urns) *aspects.DataProcessInstanceInput {
	return &aspects.DataProcessInstanceInput{Inputs: []string{}, InputEdges: []aspects.Edge{{DestinationURN: u.dataset.String()}}}
}

func runOutput(u urns) *aspects.DataProcessInstanceOutput {
	return &aspects.DataProcessInstanceOutput{Outputs: []string{}, OutputEdges: []aspects.Edge{{DestinationURN: u.model.String()}}}
}

func runEvent(t training) aspects.DataProcessInstanceRunEvent {
	return aspects.DataProcessInstanceRunEvent{
		TimestampMillis: t.End,
		Status:          aspects.DataProcessRunStatusComplete,
		Result:          &aspects.DataProcessInstanceRunResult{Type: aspects.RunResultTypeSuccess, NativeResultType: "mlflow"},
		DurationMillis:  aspects.Ptr(t.End - t.Start),
	}
}

func groupProperties(t training) *aspects.MLModelGroupProperties {
	return &aspects.MLModelGroupProperties{Description: aspects.Ptr("Registered model " + t.Model), Created: &aspects.TimeStamp{Time: t.Start}}
}

// modelProperties is the model version: its run as training job, its
// group, its features, and its parameters and metrics copied from the
// run, as the MLflow connector copies them.
func modelProperties(t training, u urns) *aspects.MLModelProperties {
	p := &aspects.MLModelProperties{
		Description:     aspects.Ptr("Version " + t.Version + " of " + t.Model),
		Version:         &aspects.VersionTag{VersionTag: aspects.Ptr(t.Version)},
		HyperParams:     entity.HyperParams(t.Params),
		TrainingMetrics: entity.Metrics(t.Metrics),
		Groups:          []string{u.group.String()},
		TrainingJobs:    []string{u.run.String()},
	}
	for _, f := range u.features {
		p.MLFeatures = append(p.MLFeatures, f.String())
	}
	return p
}

func deploymentProperties(t training) aspects.MLModelDeploymentProperties {
	status := aspects.DeploymentStatusInService
	return aspects.MLModelDeploymentProperties{Description: aspects.Ptr("Vertex AI endpoint " + t.Endpoint), CreatedAt: aspects.Ptr(t.End), Status: &status}
}

func featureProperties(u urns) *aspects.MLFeatureProperties {
	dt := aspects.MLFeatureDataTypeContinuous
	return &aspects.MLFeatureProperties{DataType: &dt, Sources: []string{u.dataset.String()}}
}

func tableProperties(u urns) *aspects.MLFeatureTableProperties {
	p := &aspects.MLFeatureTableProperties{Description: aspects.Ptr("Customer features")}
	for _, f := range u.features {
		p.MLFeatures = append(p.MLFeatures, f.String())
	}
	return p
}

// sourceDataset is the table the features are computed from.
func sourceDataset(u urns) *entity.Dataset {
	return entity.NewDataset(u.dataset, "Customers with their contract and spend.",
		entity.Column{Name: "customer_id", Type: "NUMBER(38,0)", Description: "Customer id"},
		entity.Column{Name: "tenure_months", Type: "NUMBER(4,0)", Description: "Months since sign-up"},
		entity.Column{Name: "monthly_spend", Type: "FLOAT", Description: "Average spend per month, EUR"})
}
