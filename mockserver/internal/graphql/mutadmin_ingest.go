package graphql

import (
	"strings"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// The mutations and reads of secrets, ingestion sources, execution
// requests, connections, metadata tests and ingestion rollback. The mock
// stores a secret's value as given (DataHub encrypts it); listSecrets
// answers names and descriptions, getSecretValues the values, as DataHub
// does; nothing executes an execution request.

func init() {
	mutation("createSecret", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Name, Value string
				Description *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().CreateSecret(c, in.Input.Name, in.Input.Value, in.Input.Description))
	})
	mutation("updateSecret", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				URN, Name, Value string
				Description      *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		i := in.Input
		return created(i.URN, c.Core().UpdateSecret(c, i.URN, i.Name, i.Value, i.Description))
	})
	mutation("deleteSecret", func(c *Ctx, a Args) (any, error) {
		u := a.String("urn")
		return created(u, c.Core().DeleteUIEntity(c, u, nil))
	})
	query("listSecrets", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Start, Count *int32
				Query        *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return listOf(c, "dataHubSecret", strOr(in.Input.Query), nil, intOr(in.Input.Start, 0), intOr(in.Input.Count, 20), "secrets",
			func(u string) (any, *gqlError) {
				v, err := latestAspect(c, u, "dataHubSecretValue")
				if err != nil {
					return nil, err
				}
				return map[string]any{"urn": u, "name": v["name"], "description": v["description"]}, nil
			})
	})

	// getSecretValues answers the stored values of the secrets named (in
	// their order; one that does not exist is left out), as DataHub answers
	// them decrypted.
	query("getSecretValues", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input struct{ Secrets []string } }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		out := []any{}
		for _, name := range in.Input.Secrets {
			u := "urn:li:dataHubSecret:" + name
			if _, err := gms.CheckURN(u); err != nil {
				return nil, fromCore(err)
			}
			v, err := latestAspect(c, u, "dataHubSecretValue")
			if err != nil {
				return nil, err
			}
			if len(v) > 0 {
				out = append(out, map[string]any{"name": v["name"], "value": v["value"]})
			}
		}
		return out, nil
	})

	mutation("createIngestionSource", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input gms.IngestionSourceUpdate }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().UpsertIngestionSource(c, "", in.Input))
	})
	mutation("updateIngestionSource", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input gms.IngestionSourceUpdate
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().UpsertIngestionSource(c, in.URN, in.Input))
	})
	mutation("deleteIngestionSource", func(c *Ctx, a Args) (any, error) {
		u := a.String("urn")
		return created(u, c.Core().DeleteUIEntity(c, u, nil))
	})
	query("ingestionSource", func(c *Ctx, a Args) (any, error) {
		u := a.String("urn")
		if _, err := gms.CheckURN(u); err != nil {
			return nil, fromCore(err)
		}
		v, err := ingestionSource(c, u)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, nil
		}
		return v, nil
	})
	query("listIngestionSources", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Start, Count *int32
				Query        *string
				Filters      *[]facetFilterInput
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return listOf(c, "dataHubIngestionSource", strOr(in.Input.Query), buildFilter(in.Input.Filters, nil),
			intOr(in.Input.Start, 0), intOr(in.Input.Count, 20), "ingestionSources",
			func(u string) (any, *gqlError) {
				v, err := ingestionSource(c, u)
				if err != nil || v == nil {
					return nil, err
				}
				return v, nil
			})
	})
	query("listExecutionRequests", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Start, Count *int32
				Query        *string
				Filters      *[]facetFilterInput
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return listOf(c, "dataHubExecutionRequest", strOr(in.Input.Query), buildFilter(in.Input.Filters, nil),
			intOr(in.Input.Start, 0), intOr(in.Input.Count, 10), "executionRequests",
			func(u string) (any, *gqlError) { return executionRequest(c, u) })
	})

	mutation("createIngestionExecutionRequest", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct{ IngestionSourceUrn string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().CreateIngestionExecutionRequest(c, in.Input.IngestionSourceUrn))
	})
	mutation("cancelIngestionExecutionRequest", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct{ IngestionSourceUrn, ExecutionRequestUrn string }
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().CancelIngestionExecutionRequest(c, in.Input.IngestionSourceUrn, in.Input.ExecutionRequestUrn))
	})
	mutation("createTestConnectionRequest", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				Recipe  string
				Version *string
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().CreateTestConnectionRequest(c, in.Input.Recipe, in.Input.Version))
	})
	mutation("rollbackIngestion", func(c *Ctx, a Args) (any, error) {
		var in struct {
			Input struct {
				RunID string `json:"runId"`
			}
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		// DataHub rolls the run back (hard delete) without waiting for it
		// and answers true whatever happens; the mock rolls back first.
		_, _ = c.Core().Rollback(c, in.Input.RunID, false, true)
		return true, nil
	})

	mutation("upsertConnection", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input gms.ConnectionUpsert }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		u, err := c.Core().UpsertConnection(c, in.Input)
		return entityAnswer(c, u, err)
	})
	Register("DataHubConnection.details", func(c *Ctx, _ Args) (any, error) {
		b, ok := c.Parent.(baser)
		if !ok {
			return nil, nil
		}
		d, err := latestAspect(c, b.base().urn, "dataHubConnectionDetails")
		if err != nil {
			return nil, err
		}
		out := map[string]any{"type": d["type"], "name": d["name"], "json": nil}
		if j, ok := d["json"].(map[string]any); ok {
			out["json"] = map[string]any{"blob": j["encryptedBlob"]} // stored as given
		}
		return out, nil
	})
	// IngestionSource.executions: the source's execution requests (the
	// index's order; DataHub sorts them by request time, newest first).
	Register("IngestionSource.executions", func(c *Ctx, a Args) (any, error) {
		src, _ := c.Parent.(map[string]any)
		u, _ := src["urn"].(string)
		var in struct{ Start, Count *int32 }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		f := gms.Filter{{{Field: "ingestionSource", Condition: gms.CondEqual, Values: []string{u}}}}
		return listOf(c, "dataHubExecutionRequest", "", f, intOr(in.Start, 0), intOr(in.Count, 10), "executionRequests",
			func(u string) (any, *gqlError) { return executionRequest(c, u) })
	})
	for _, f := range []string{"input", "result", "source"} {
		Register("ExecutionRequest."+f, func(c *Ctx, _ Args) (any, error) {
			if m, ok := c.Parent.(map[string]any); ok { // an answer of executionRequest
				return m[f], nil
			}
			b, ok := c.Parent.(baser)
			if !ok {
				return nil, nil
			}
			v, err := executionRequest(c, b.base().urn)
			if err != nil {
				return nil, err
			}
			return v[f], nil
		})
	}

	type testInput struct {
		ID          *string
		Name        string
		Category    string
		Description *string
		Definition  struct{ JSON *string }
	}
	update := func(t testInput) gms.TestUpdate {
		return gms.TestUpdate{Name: t.Name, Category: t.Category, Description: t.Description, Definition: t.Definition}
	}
	mutation("createTest", func(c *Ctx, a Args) (any, error) {
		var in struct{ Input testInput }
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(c.Core().CreateTest(c, strOr(in.Input.ID), update(in.Input)))
	})
	mutation("updateTest", func(c *Ctx, a Args) (any, error) {
		var in struct {
			URN   string
			Input testInput
		}
		if err := decodeInput(a, &in); err != nil {
			return nil, err
		}
		return created(in.URN, c.Core().UpdateTest(c, in.URN, update(in.Input)))
	})
	mutation("deleteTest", func(c *Ctx, a Args) (any, error) {
		return done(c.Core().DeleteUIEntity(c, a.String("urn"), nil))
	})
}

// entries is a PDL string map as StringMapEntry values, by key.
func entries(m map[string]any) []any {
	out := []any{}
	for _, k := range sortedAnyKeys(m) {
		out = append(out, map[string]any{"key": k, "value": m[k]})
	}
	return out
}

// ingestionSource is the ingestion source u as DataHub's
// IngestionSourceMapper answers it (nil when it has no info).
func ingestionSource(c *Ctx, u string) (map[string]any, *gqlError) {
	info, err := latestAspect(c, u, "dataHubIngestionSourceInfo")
	if err != nil || len(info) == 0 {
		return nil, err
	}
	cfg, _ := info["config"].(map[string]any)
	config := map[string]any{"recipe": cfg["recipe"], "executorId": cfg["executorId"], "version": cfg["version"],
		"debugMode": cfg["debugMode"], "extraArgs": nil}
	if ex, ok := cfg["extraArgs"].(map[string]any); ok {
		config["extraArgs"] = entries(ex)
	}
	src := map[string]any{"urn": u, "type": info["type"], "name": info["name"], "schedule": info["schedule"],
		"platform": nil, "config": config, "ownership": nil, "latestSuccessfulExecution": nil, "source": info["source"]}
	return src, nil
}

// executionRequest is the execution request u as DataHub's
// ExecutionRequestMapper answers it.
func executionRequest(c *Ctx, u string) (map[string]any, *gqlError) {
	in, err := latestAspect(c, u, "dataHubExecutionRequestInput")
	if err != nil {
		return nil, err
	}
	res, err := latestAspect(c, u, "dataHubExecutionRequestResult")
	if err != nil {
		return nil, err
	}
	id := strings.TrimPrefix(u, "urn:li:dataHubExecutionRequest:")
	out := map[string]any{"urn": u, "type": "EXECUTION_REQUEST", "id": id, "input": nil, "result": nil, "source": nil}
	if len(in) > 0 {
		input := map[string]any{"task": in["task"], "source": in["source"], "arguments": nil, "requestedAt": in["requestedAt"],
			"actorUrn": in["actorUrn"], "executorId": in["executorId"], "actor": nil}
		if args, ok := in["args"].(map[string]any); ok {
			input["arguments"] = entries(args)
		}
		if a, ok := in["actorUrn"].(string); ok {
			input["actor"] = entityOrNull(c, a)
		}
		out["input"] = input
		if s, ok := in["source"].(map[string]any); ok {
			if src, ok := s["ingestionSource"].(string); ok {
				v, err := ingestionSource(c, src)
				if err != nil {
					return nil, err
				}
				if v != nil {
					out["source"] = v
				}
			}
		}
	}
	if len(res) > 0 {
		out["result"] = map[string]any{"status": res["status"], "startTimeMs": res["startTimeMs"], "durationMs": res["durationMs"],
			"report": res["report"], "structuredReport": nil}
	}
	return out, nil
}
