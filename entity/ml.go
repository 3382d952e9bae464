package entity

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// NewMLModel returns a model with a description, hyper-parameters and
// training metrics in its mlModelProperties. Values are written as text
// (a float64 in Go's shortest form); names are sorted, so the same maps
// give the same aspect.
func NewMLModel(u urn.MLModel, description string, hyperParams, trainingMetrics map[string]any) *MLModel {
	p := &aspects.MLModelProperties{HyperParams: HyperParams(hyperParams), TrainingMetrics: Metrics(trainingMetrics)}
	if description != "" {
		p.Description = aspects.Ptr(description)
	}
	return &MLModel{URN: u, Properties: p}
}

// HyperParams returns params as DataHub's hyper-parameter records, sorted
// by name, with values as text (see NewMLModel); nil for none.
func HyperParams(params map[string]any) []aspects.MLHyperParam {
	var out []aspects.MLHyperParam
	for _, name := range sortedKeys(params) {
		out = append(out, aspects.MLHyperParam{Name: name, Value: aspects.Ptr(text(params[name]))})
	}
	return out
}

// Metrics returns metrics as DataHub's metric records, sorted by name,
// with values as text (see NewMLModel); nil for none.
func Metrics(metrics map[string]any) []aspects.MLMetric {
	var out []aspects.MLMetric
	for _, name := range sortedKeys(metrics) {
		out = append(out, aspects.MLMetric{Name: name, Value: aspects.Ptr(text(metrics[name]))})
	}
	return out
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// text formats a parameter or metric value.
func text(v any) string {
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case string:
		return x
	}
	return fmt.Sprint(v)
}
