// Command modelfeeds answers "what feeds this model?": everything up to
// three hops upstream of an ML model (its features, their source datasets,
// the datasets those come from, its training runs), each with its distance
// and one shortest path, with the client's Lineage().Get.
//
// For its sample model (the default -model) it first records a small
// lineage graph, with the client's Lineage().Add (PATCH writes, so concurrent writers
// of other edges lose nothing), in an embedded mock DataHub or, with
// -server, in that server:
//
//	raw events (s3) → clean events (hive) → features → churn model ← training run
//
// Given another -model it only reads what the server has.
//
//	go run ./examples/modelfeeds
//	go run ./examples/modelfeeds -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN"
//	go run ./examples/modelfeeds -server http://localhost:8080 -token "$DATAHUB_GMS_TOKEN" -model 'urn:li:mlModel:(...)'
//
// A DataHub indexes lineage shortly after the write: against a real server
// the first run may list fewer hops than the next one.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/client"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/examples/internal/embedded"
	"github.com/catalogkit/datahub-go/urn"
)

const defaultModel = "urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)"

var model = flag.String("model", defaultModel, "URN of the model")

func main() {
	embedded.Main("modelfeeds", func(ctx context.Context, server, token string, out io.Writer) error {
		return run(ctx, server, token, *model, out)
	})
}

func run(ctx context.Context, server, token, model string, out io.Writer) error {
	m, err := urn.Parse(model)
	if err != nil {
		return err
	}
	em, c, stop, err := embedded.Connect(server, token)
	if err != nil {
		return err
	}
	defer stop()
	if model == defaultModel {
		if err := seed(ctx, em, c, m); err != nil {
			return err
		}
		if server != "" {
			fmt.Fprintf(out, "recorded the sample lineage in %s\n", server)
		}
	}
	feeds, err := c.Lineage().Get(ctx, m, client.Upstream, 3, client.SearchFilter{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "what feeds %s:\n", m)
	for _, r := range feeds {
		var path []string
		for _, e := range r.Paths[0][1:] {
			path = append(path, e.URN)
		}
		fmt.Fprintf(out, "  %d hop(s): %s\n    via %s\n", r.Degree, r.URN, strings.Join(path, " → "))
	}
	return nil
}

// seed writes the sample entities, then the lineage between them.
func seed(ctx context.Context, em *emitter.REST, c *client.Client, model urn.URN) error {
	raw := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:s3,events/raw,PROD)")
	clean := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,events.clean,PROD)")
	logins := urn.MustParse("urn:li:mlFeature:(user_activity,logins_7d)")
	plan := urn.MustParse("urn:li:mlFeature:(user_activity,plan)")
	run := urn.MustParse("urn:li:dataProcessInstance:churn-training-2026-11-25")
	var ps []emitter.Proposal
	for _, w := range []struct {
		u urn.URN
		a aspects.Aspect
	}{
		{raw, aspects.DatasetProperties{Description: aspects.Ptr("Raw events.")}},
		{clean, aspects.DatasetProperties{Description: aspects.Ptr("Cleaned events.")}},
		{logins, aspects.MLFeatureProperties{Description: aspects.Ptr("Logins in the last 7 days.")}},
		{plan, aspects.MLFeatureProperties{Description: aspects.Ptr("Subscription plan.")}},
		{model, aspects.MLModelProperties{Description: aspects.Ptr("Churn model.")}},
		{run, aspects.Status{Removed: false}},
	} {
		p, err := emitter.NewProposal(w.u, w.a)
		if err != nil {
			return err
		}
		ps = append(ps, p)
	}
	if err := em.Emit(ctx, ps...); err != nil {
		return err
	}
	for _, e := range [][2]urn.URN{{raw, clean}, {clean, logins}, {clean, plan}, {logins, model}, {plan, model}, {run, model}} {
		if err := c.Lineage().Add(ctx, e[0], e[1]); err != nil {
			return err
		}
	}
	return nil
}
