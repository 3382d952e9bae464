// Command concurrentmodel runs two jobs that update one ML model at the
// same time, each with its own client, as two processes would: an
// evaluation job adding metrics and a release job adding deployments and
// tags, several changes each. Each change is an Update of the entity read
// with Get: it writes only the aspects it changed, with the version it
// read, and when the other job got there first it reads again and applies
// its change again. Nothing is lost. (Re-sending the whole entity, as
// DataHub's Python SDK's update does, would lose one job's changes
// whenever both wrote between each other's read and write.)
//
//	go run ./examples/concurrentmodel
//	go run ./examples/concurrentmodel -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
package main

import (
	"context"
	"fmt"
	"io"
	"sync"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/entity"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

func main() { embedded.Main("concurrentmodel", run) }

// changes is the number of changes each job makes.
const changes = 10

func run(ctx context.Context, server, token string, out io.Writer) error {
	// With no server, Connect starts an embedded mock DataHub.
	_, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	u, err := urn.NewMLModel("mlflow", "churn-classifier_3", "PROD")
	if err != nil {
		return err
	}
	if err := c.Entities().Upsert(ctx, entity.NewMLModel(u, "Churn classifier, version 3", map[string]any{"max_depth": 8}, nil)); err != nil {
		return err
	}

	jobs := map[string]func(m *entity.MLModel, i int){
		"evaluation": func(m *entity.MLModel, i int) {
			m.Properties.TrainingMetrics = append(m.Properties.TrainingMetrics, entity.Metrics(map[string]any{fmt.Sprintf("auc_fold_%02d", i): 0.9})...)
		},
		"release": func(m *entity.MLModel, i int) {
			m.Properties.Deployments = append(m.Properties.Deployments, fmt.Sprintf("urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-%02d,PROD)", i))
			if m.GlobalTags == nil {
				m.GlobalTags = &aspects.GlobalTags{}
			}
			m.GlobalTags.Tags = append(m.GlobalTags.Tags, aspects.TagAssociation{Tag: fmt.Sprintf("urn:li:tag:release-%02d", i)})
		},
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(jobs))
	for name, change := range jobs {
		// Its own client, as another process would have.
		jc, err := client.New(c.ServerURL(), datahub.WithToken(token))
		if err != nil {
			return err
		}
		wg.Go(func() {
			defer jc.CloseIdleConnections()
			for i := range changes {
				e, err := jc.Entities().Get(ctx, u)
				if err != nil {
					errs <- fmt.Errorf("%s: %w", name, err)
					return
				}
				m := e.(*entity.MLModel)
				if _, err := jc.Entities().Update(ctx, m, func() error { change(m, i); return nil }); err != nil {
					errs <- fmt.Errorf("%s: %w", name, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}

	e, err := c.Entities().Get(ctx, u)
	if err != nil {
		return err
	}
	m := e.(*entity.MLModel)
	fmt.Fprintf(out, "%s: %d metrics, %d deployments, %d tags, %d hyper-parameter\n", u.Name(),
		len(m.Properties.TrainingMetrics), len(m.Properties.Deployments), len(m.GlobalTags.Tags), len(m.Properties.HyperParams))
	return nil
}
