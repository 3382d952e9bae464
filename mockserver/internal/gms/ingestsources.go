package gms

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Secrets, ingestion sources, execution requests, connections and metadata
// tests as metadata (the secret, ingestion source, execution, connection
// and test resolvers). DataHub encrypts secret values and connection
// blobs; the mock stores them as given. Nothing executes an execution
// request: it is written, as DataHub writes it for its executor.

// DataHub's texts of these mutations.
const (
	MsgSecretExists          = "This Secret already exists!"
	MsgSecretMissing         = "Secret for urn %s doesn't exists!"
	MsgTestExists            = "This Test already exists!"
	MsgIngestionSourceNone   = "Failed to find ingestion source with urn %s"
	MsgIngestionSourceRecipe = "Failed to find valid ingestion source with urn %s. Missing recipe"
	MsgRecipeNotJSON         = "Failed to create execution request: Invalid recipe json provided."
	MsgCronInvalid           = "Invalid cron schedule `%s`: %s"
	MsgTimezoneInvalid       = "Invalid timezone `%s`: %s"
	MsgConnectionNoJSON      = "Connections with type JSON must provide the field 'json'."
)

// CreateSecret creates the secret urn:li:dataHubSecret:<name> as DataHub's
// createSecret: dataHubSecretValue (name, value, description, created);
// a name in use is refused.
func (c *Core) CreateSecret(ctx context.Context, name, value string, description *string) (string, error) {
	v := map[string]any{"name": name, "value": value, "created": c.stamp(ctx)}
	setGiven(v, "description", description)
	return c.CreateUIEntity(ctx, "dataHubSecret", name, map[string]any{"dataHubSecretValue": v}, errorf(BadArgument, MsgSecretExists))
}

// UpdateSecret replaces the name, value and description of the secret u
// (it must exist), keeping its created stamp, as DataHub's updateSecret.
func (c *Core) UpdateSecret(ctx context.Context, u, name, value string, description *string) error {
	return c.ChangeUIAspect(ctx, u, "dataHubSecretValue", errorf(BadArgument, MsgSecretMissing, u), func(obj map[string]any) {
		obj["name"], obj["value"] = name, value
		if description != nil {
			obj["description"] = *description
		} else {
			delete(obj, "description")
		}
	})
}

// IngestionSourceUpdate is DataHub's UpdateIngestionSourceInput.
type IngestionSourceUpdate struct {
	Name, Type  string
	Description *string
	Schedule    *struct{ Interval, Timezone string }
	Config      struct {
		Recipe     string
		Version    *string
		ExecutorID string `json:"executorId"`
		DebugMode  *bool
		ExtraArgs  []struct{ Key, Value string }
	}
	Source *struct{ Type string }
}

// info is the dataHubIngestionSourceInfo of the update (DataHub's
// UpsertIngestionSourceResolver), its schedule checked.
func (s IngestionSourceUpdate) info() (map[string]any, error) {
	cfg := map[string]any{"recipe": s.Config.Recipe, "executorId": s.Config.ExecutorID}
	setGiven(cfg, "version", s.Config.Version)
	if s.Config.DebugMode != nil {
		cfg["debugMode"] = *s.Config.DebugMode
	}
	if s.Config.ExtraArgs != nil {
		m := map[string]any{}
		for _, e := range s.Config.ExtraArgs {
			m[e.Key] = e.Value
		}
		cfg["extraArgs"] = m
	}
	info := map[string]any{"name": s.Name, "type": s.Type, "config": cfg}
	if s.Schedule != nil {
		if why := checkCron(s.Schedule.Interval); why != "" {
			return nil, errorf(BadArgument, MsgCronInvalid, s.Schedule.Interval, why)
		}
		if _, err := time.LoadLocation(s.Schedule.Timezone); err != nil || s.Schedule.Timezone == "" {
			return nil, errorf(BadArgument, MsgTimezoneInvalid, s.Schedule.Timezone, "Unknown time-zone ID: "+s.Schedule.Timezone)
		}
		info["schedule"] = map[string]any{"interval": s.Schedule.Interval, "timezone": s.Schedule.Timezone}
	}
	if s.Source != nil {
		info["source"] = map[string]any{"type": s.Source.Type}
	}
	return info, nil
}

// checkCron is why a cron interval is refused ("" when it is not): DataHub
// prefixes a 5-field interval with seconds and parses 6 fields (Spring's
// CronExpression); the mock checks the field count and the characters.
func checkCron(interval string) string {
	fields := strings.Fields(interval)
	if len(fields) == 5 {
		fields = append([]string{"0"}, fields...)
	}
	if len(fields) != 6 {
		return "Cron expression must consist of 6 fields (found " + strconv.Itoa(len(fields)) + " in \"" + strings.Join(fields, " ") + "\")"
	}
	for _, f := range fields {
		bad := strings.IndexFunc(f, func(r rune) bool {
			return !('0' <= r && r <= '9' || 'A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || strings.ContainsRune("*/,-?#", r))
		})
		if bad >= 0 {
			return "Invalid characters in cron field: " + f
		}
	}
	return ""
}

// UpsertIngestionSource writes an ingestion source's
// dataHubIngestionSourceInfo as DataHub's createIngestionSource (u "": a
// new source with a random id) and updateIngestionSource (u's info
// replaced), and returns its URN.
func (c *Core) UpsertIngestionSource(ctx context.Context, u string, s IngestionSourceUpdate) (string, error) {
	info, err := s.info()
	if err != nil {
		return "", err
	}
	if u == "" {
		return c.CreateUIEntity(ctx, "dataHubIngestionSource", "", map[string]any{"dataHubIngestionSourceInfo": info}, nil)
	}
	if err := checkURNs(u); err != nil {
		return "", err
	}
	return u, c.PutUIAspect(ctx, u, "dataHubIngestionSourceInfo", info)
}

// ingestionSourceConfig is the config of ingestion source u's info.
func (c *Core) ingestionSourceConfig(ctx context.Context, u string) (map[string]any, string, error) {
	if err := checkURNs(u); err != nil {
		return nil, "", err
	}
	info, err := c.latestObject(ctx, u, "dataHubIngestionSourceInfo")
	if err != nil {
		return nil, "", err
	}
	if info == nil {
		return nil, "", errorf(BadArgument, MsgIngestionSourceNone, u)
	}
	cfg, _ := info["config"].(map[string]any)
	typ, _ := info["type"].(string)
	return cfg, typ, nil
}

// CreateIngestionExecutionRequest writes an execution request of ingestion
// source src as DataHub's createIngestionExecutionRequest: a
// dataHubExecutionRequest with a random id whose
// dataHubExecutionRequestInput is task RUN_INGEST, source
// MANUAL_INGESTION_SOURCE, the source's executor, and the arguments
// (recipe with run_id and pipeline_name, version when the source names
// one, debug_mode, the extra arguments). Nothing runs it.
func (c *Core) CreateIngestionExecutionRequest(ctx context.Context, src string) (string, error) {
	cfg, _, err := c.ingestionSourceConfig(ctx, src)
	if err != nil {
		return "", err
	}
	recipe, ok := cfg["recipe"].(string)
	if !ok {
		return "", errorf(BadArgument, MsgIngestionSourceRecipe, src)
	}
	id := randomUUID()
	u := "urn:li:dataHubExecutionRequest:" + id
	var r map[string]any
	if json.Unmarshal([]byte(recipe), &r) != nil || r == nil {
		return "", errorf(BadArgument, MsgRecipeNotJSON)
	}
	r["run_id"] = u
	if _, ok := r["pipeline_name"]; !ok {
		r["pipeline_name"] = src
	}
	b, _ := json.Marshal(r)
	args := map[string]any{}
	if extra, ok := cfg["extraArgs"].(map[string]any); ok {
		for k, v := range extra {
			args[k] = v
		}
	}
	args["recipe"] = string(b)
	if v, ok := cfg["version"].(string); ok {
		args["version"] = v
	}
	args["debug_mode"] = "false"
	if cfg["debugMode"] == true {
		args["debug_mode"] = "true"
	}
	in := map[string]any{"task": "RUN_INGEST", "source": map[string]any{"type": "MANUAL_INGESTION_SOURCE", "ingestionSource": src},
		"requestedAt": c.Now(), "actorUrn": mutationActor(ctx), "args": args}
	if e, ok := cfg["executorId"].(string); ok {
		in["executorId"] = e
	}
	return c.CreateUIEntity(ctx, "dataHubExecutionRequest", id, map[string]any{"dataHubExecutionRequestInput": in}, nil)
}

// CancelIngestionExecutionRequest writes a KILL signal on execution request
// req of source src as DataHub's cancelIngestionExecutionRequest
// (dataHubExecutionRequestSignal: signal, the source's executor,
// createdAt).
func (c *Core) CancelIngestionExecutionRequest(ctx context.Context, src, req string) (string, error) {
	cfg, _, err := c.ingestionSourceConfig(ctx, src)
	if err != nil {
		return "", err
	}
	if err := checkURNs(req); err != nil {
		return "", err
	}
	sig := map[string]any{"signal": "KILL", "createdAt": c.stamp(ctx)}
	if e, ok := cfg["executorId"].(string); ok {
		sig["executorId"] = e
	}
	return req, c.PutUIAspect(ctx, req, "dataHubExecutionRequestSignal", sig)
}

// CreateTestConnectionRequest writes a TEST_CONNECTION execution request
// of recipe as DataHub's createTestConnectionRequest (source
// MANUAL_TEST_CONNECTION, executor default, the recipe with its
// pipeline_name, the version given). Nothing runs it.
func (c *Core) CreateTestConnectionRequest(ctx context.Context, recipe string, version *string) (string, error) {
	id := randomUUID()
	u := "urn:li:dataHubExecutionRequest:" + id
	var r map[string]any
	if json.Unmarshal([]byte(recipe), &r) != nil || r == nil {
		return "", errorf(BadArgument, MsgRecipeNotJSON)
	}
	if _, ok := r["pipeline_name"]; !ok {
		r["pipeline_name"] = u
	}
	b, _ := json.Marshal(r)
	args := map[string]any{"recipe": string(b)}
	if version != nil && *version != "" {
		args["version"] = *version
	}
	in := map[string]any{"task": "TEST_CONNECTION", "source": map[string]any{"type": "MANUAL_TEST_CONNECTION"},
		"executorId": "default", "requestedAt": c.Now(), "actorUrn": mutationActor(ctx), "args": args}
	return c.CreateUIEntity(ctx, "dataHubExecutionRequest", id, map[string]any{"dataHubExecutionRequestInput": in}, nil)
}

// ConnectionUpsert is DataHub's UpsertDataHubConnectionInput.
type ConnectionUpsert struct {
	ID, Name          *string
	Type, PlatformURN string
	JSON              *struct{ Blob string }
}

// UpsertConnection writes a connection as DataHub's upsertConnection: the
// dataHubConnection <id> (random when none) with dataHubConnectionDetails
// (type, name: the name given, else the id; json {encryptedBlob}: the blob
// as given) and dataPlatformInstance (the platform), one batch. It returns
// the URN.
func (c *Core) UpsertConnection(ctx context.Context, in ConnectionUpsert) (string, error) {
	if err := checkURNs(in.PlatformURN); err != nil {
		return "", err
	}
	id := randomUUID()
	details := map[string]any{"type": in.Type}
	if in.ID != nil {
		id = *in.ID
		details["name"] = id
	}
	setGiven(details, "name", in.Name)
	if in.Type == "JSON" {
		if in.JSON == nil {
			return "", errorf(BadArgument, MsgConnectionNoJSON)
		}
		details["json"] = map[string]any{"encryptedBlob": in.JSON.Blob}
	}
	u := "urn:li:dataHubConnection:" + id
	if err := checkURNs(u); err != nil {
		return "", err
	}
	return u, c.writeAll(ctx, u, map[string]any{"dataHubConnectionDetails": details,
		"dataPlatformInstance": map[string]any{"platform": in.PlatformURN}})
}

// TestUpdate is DataHub's CreateTestInput and UpdateTestInput.
type TestUpdate struct {
	Name, Category string
	Description    *string
	Definition     struct{ JSON *string }
}

func (t TestUpdate) info() map[string]any {
	def := map[string]any{"type": "JSON"}
	setGiven(def, "json", t.Definition.JSON)
	info := map[string]any{"name": t.Name, "category": t.Category, "definition": def}
	setGiven(info, "description", t.Description)
	return info
}

// CreateTest creates the metadata test urn:li:test:<id> (id "": random)
// with its testInfo as DataHub's createTest; an id in use is refused. The
// test is the one /test?action=evaluate evaluates.
func (c *Core) CreateTest(ctx context.Context, id string, t TestUpdate) (string, error) {
	return c.CreateUIEntity(ctx, "test", id, map[string]any{"testInfo": t.info()}, errorf(BadArgument, MsgTestExists))
}

// UpdateTest replaces the testInfo of test u as DataHub's updateTest (which
// does not check that u exists).
func (c *Core) UpdateTest(ctx context.Context, u string, t TestUpdate) error {
	if err := checkURNs(u); err != nil {
		return err
	}
	return c.PutUIAspect(ctx, u, "testInfo", t.info())
}
