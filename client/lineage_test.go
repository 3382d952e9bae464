package client

import (
	"errors"
	"strings"
	"testing"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver"
	"github.com/catalogkit/datahub-go/urn"
)

// TestAddLineageRefusal: an unsupported pair is refused before anything is
// sent, and the error names the pairs from the upstream's type (all of
// them when there are none) and, for a dataset and a model, DataHub's
// routes between them.
func TestAddLineageRefusal(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"
	model := "urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)"
	group := "urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)"
	feature := "urn:li:mlFeature:(users,age)"
	for _, tc := range []struct {
		name, up, down string
		want           string
	}{
		{"dataset to model", ds, model,
			"client: unsupported lineage dataset→mlModel (" + ds + " -> " + model + "): " +
				"the pairs from dataset are dataset→dataset, dataset→chart, dataset→dashboard, dataset→dataJob, dataset→mlFeature; " +
				"DataHub links a dataset to a model through the features the model uses (Lineage.Add dataset→mlFeature, then mlFeature→mlModel) " +
				"or through a training run (a dataProcessInstance with the dataset among its inputs, see entity.NewTrainingRun, " +
				"then Lineage.Add dataProcessInstance→mlModel): datahub: validation failed"},
		{"dataset to group", ds, group,
			"client: unsupported lineage dataset→mlModelGroup (" + ds + " -> " + group + "): " +
				"the pairs from dataset are dataset→dataset, dataset→chart, dataset→dashboard, dataset→dataJob, dataset→mlFeature; " +
				"DataHub links a dataset to a model group through its models (link the dataset to a model through its features " +
				"or a training run, then Lineage.Add mlModel→mlModelGroup): datahub: validation failed"},
		{"feature to group", feature, group,
			"client: unsupported lineage mlFeature→mlModelGroup (" + feature + " -> " + group + "): " +
				"the pairs from mlFeature are mlFeature→mlModel; " +
				"DataHub links a feature to a model group through its models (Lineage.Add mlFeature→mlModel, then mlModel→mlModelGroup): " +
				"datahub: validation failed"},
		{"model to dataset", model, ds,
			"client: unsupported lineage mlModel→dataset (" + model + " -> " + ds + "): " +
				"the pairs from mlModel are mlModel→mlModelGroup: datahub: validation failed"},
		{"no pair from the type", group, model,
			"client: unsupported lineage mlModelGroup→mlModel (" + group + " -> " + model + "): " +
				"the pairs are dataset→dataset, dataset→chart, dataset→dashboard, dataset→dataJob, chart→dashboard, dashboard→dashboard, dataJob→dataJob, dataJob→dataset, dataset→mlFeature, mlFeature→mlModel, dataProcessInstance→mlModel, " +
				"dataJob→mlModel, mlModel→mlModelGroup: datahub: validation failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Lineage().Add(t.Context(), urn.MustParse(tc.up), urn.MustParse(tc.down))
			if !errors.Is(err, datahub.ErrValidation) {
				t.Fatalf("%v, want ErrValidation", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
		})
	}
	if n := len(s.RequestCounts()); n != 0 {
		t.Errorf("requests sent: %v", s.RequestCounts())
	}
}

// TestAddLineagePairs: every pair the refusal names is one Lineage.Add
// records.
func TestAddLineagePairs(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t)
	c := newTestClient(t, s)
	of := map[string]urn.URN{
		"dataset":             urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"),
		"mlFeature":           urn.MustParse("urn:li:mlFeature:(users,age)"),
		"mlModel":             urn.MustParse("urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)"),
		"mlModelGroup":        urn.MustParse("urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)"),
		"dataProcessInstance": urn.MustParse("urn:li:dataProcessInstance:run-1"),
		"dataJob":             urn.MustParse("urn:li:dataJob:(urn:li:dataFlow:(airflow,train,PROD),fit)"),
		"chart":               urn.MustParse("urn:li:chart:(looker,users)"),
		"dashboard":           urn.MustParse("urn:li:dashboard:(looker,overview)"),
	}
	other := map[string]urn.URN{
		"dataset":   urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)"),
		"dashboard": urn.MustParse("urn:li:dashboard:(looker,other)"),
		"dataJob":   urn.MustParse("urn:li:dataJob:(urn:li:dataFlow:(airflow,train,PROD),prepare)"),
	}
	for _, u := range of {
		if err := s.PutAspectJSON(u.String(), "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range other {
		if err := s.PutAspectJSON(u.String(), "status", []byte(`{"removed":false}`)); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range lineagePairs {
		from, to, _ := strings.Cut(p, "→")
		d := of[to]
		if from == to {
			d = other[to]
		}
		if err := c.Lineage().Add(t.Context(), of[from], d); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
