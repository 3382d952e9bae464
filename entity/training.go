package entity

import (
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// NewTrainingRun returns an ML training run as DataHub's MLflow connector
// records one: a dataProcessInstance named name (in its properties), of
// subtype "ML Training Run", with hyper-parameters and training metrics
// (in mlTrainingRunProperties, as NewMLModel writes them: text values,
// sorted by name). Its properties' created stamp is DataHub's unknown one
// (time 0 by aspects.UnknownActor): set Properties.Created to say when and
// by whom the run was started. Set Container, Input, Output and RunEvents as
// the run has them.
func NewTrainingRun(u urn.DataProcessInstance, name string, params, metrics map[string]any) *DataProcessInstance {
	return &DataProcessInstance{
		URN:         u,
		Properties:  &aspects.DataProcessInstanceProperties{Name: name, Created: aspects.AuditStamp{Actor: aspects.UnknownActor}},
		TrainingRun: &aspects.MLTrainingRunProperties{HyperParams: HyperParams(params), TrainingMetrics: Metrics(metrics)},
		SubTypes:    &aspects.SubTypes{TypeNames: []string{"ML Training Run"}},
	}
}
