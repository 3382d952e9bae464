package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// mockVersion is sent in the X-DataHub-Mock-Version header of every answer.
const mockVersion = datahub.Version

// versionedAspect is com.linkedin.metadata.aspect.VersionedAspect: the
// aspect union is keyed by the Pegasus record name.
type versionedAspect struct {
	Version int64                      `json:"version"`
	Aspect  map[string]json.RawMessage `json:"aspect"`
}

// handleGetAspect serves GET /aspects/{urn}?aspect=NAME&version=N.
func (s *Server) handleGetAspect(w http.ResponseWriter, r *http.Request, rt routed) {
	q := r.URL.Query()
	name := q.Get("aspect")
	if name == "" {
		writeRestliError(w, errorf(http.StatusBadRequest, msgAspectParam), "")
		return
	}
	var version int64
	if v := q.Get("version"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			writeRestliError(w, errorf(http.StatusBadRequest, "%s", joinParamErrors("get", paramErrors{
				fmt.Sprintf(msgVersionParam, abbreviate(v))})), "")
			return
		}
		version = n
	}
	a, err := s.core.GetAspect(r.Context(), rt.key, name, version)
	if err != nil {
		writeRestliError(w, fromCore(err, rt.op), "")
		return
	}
	writeJSON(w, versionedAspect{Version: version, Aspect: map[string]json.RawMessage{a.RecordName: a.Value}})
}

// entityResponse is com.linkedin.entity.EntityResponse.
type entityResponse struct {
	EntityName string                     `json:"entityName"`
	URN        string                     `json:"urn"`
	Aspects    map[string]envelopedAspect `json:"aspects"`
}

// envelopedAspect is com.linkedin.entity.EnvelopedAspect; value is the
// placeholder record com.linkedin.entity.Aspect, i.e. the aspect's own JSON.
type envelopedAspect struct {
	Name           string          `json:"name"`
	Type           string          `json:"type"`
	Version        int64           `json:"version"`
	Value          json.RawMessage `json:"value"`
	Created        auditStamp      `json:"created"`
	SystemMetadata json.RawMessage `json:"systemMetadata,omitempty"`
}

// auditStamp is com.linkedin.common.AuditStamp.
type auditStamp = wire.AuditStamp

// handleGetEntity serves GET /entitiesV2/{urn}[?aspects=List(a,b)].
func (s *Server) handleGetEntity(w http.ResponseWriter, r *http.Request, rt routed) {
	q := r.URL.Query()
	projection := listParam(q["aspects"])
	includeKey := !strings.EqualFold(q.Get("alwaysIncludeKeyAspect"), "false")
	e, err := s.core.GetEntity(r.Context(), rt.key, projection, includeKey)
	if err != nil {
		writeRestliError(w, fromCore(err, rt.op), "")
		return
	}
	resp := entityResponse{EntityName: e.Name, URN: e.URN, Aspects: make(map[string]envelopedAspect, len(e.Aspects))}
	for _, a := range e.Aspects {
		ea := envelopedAspect{Name: a.Name, Type: "VERSIONED", Version: 0, Value: a.Value,
			Created: auditStamp{Actor: a.CreatedBy}, SystemMetadata: a.SystemMetadata}
		if !a.CreatedOn.IsZero() {
			ea.Created.Time = a.CreatedOn.UnixMilli()
		}
		resp.Aspects[a.Name] = ea
	}
	writeJSON(w, resp)
}

// listParam reads a Rest.li array query parameter: protocol 2.0's
// "List(a,b)" or repeated protocol 1.0 values. nil means absent.
func listParam(vals []string) []string {
	if len(vals) == 0 {
		return nil
	}
	out := []string{}
	for _, v := range vals {
		if inner, ok := strings.CutPrefix(v, "List("); ok {
			inner = strings.TrimSuffix(inner, ")")
			if inner == "" {
				continue
			}
			out = append(out, strings.Split(inner, ",")...)
			continue
		}
		out = append(out, v)
	}
	return out
}

// deleteEntityResponse is com.linkedin.metadata.run.DeleteEntityResponse.
type deleteEntityResponse struct {
	URN            string `json:"urn"`
	Rows           int64  `json:"rows"`
	TimeseriesRows int64  `json:"timeseriesRows"`
}

// handleDelete serves POST /entities?action=delete {"urn": ...}.
func (s *Server) handleDelete(w http.ResponseWriter, r *http.Request, rt routed) {
	body, rerr := readBody(r)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	params, rerr := actionParams(body)
	if rerr != nil {
		writeRestliError(w, rerr, "")
		return
	}
	var pe paramErrors
	var u, aspect string
	if v, ok := params.Get("urn"); !ok || wire.IsNull(v) {
		pe.add(msgParamRequired, "/urn")
	} else if u, rerr = stringParam(v); rerr != nil {
		pe.add(msgParamType, "/urn", compact(v), "String")
	}
	if v, ok := params.Get("aspectName"); ok && !wire.IsNull(v) {
		if aspect, rerr = stringParam(v); rerr != nil {
			pe.add(msgParamType, "/aspectName", compact(v), "String")
		}
	}
	if len(pe) > 0 {
		writeRestliError(w, errorf(http.StatusBadRequest, "%s", joinParamErrors("delete", pe)), "")
		return
	}
	d, err := s.core.DeleteEntity(r.Context(), u, aspect)
	if err != nil {
		writeRestliError(w, fromCore(err, rt.op), "")
		return
	}
	writeJSON(w, map[string]deleteEntityResponse{"value": {URN: u, Rows: int64(d.Rows), TimeseriesRows: int64(d.TimeseriesRows)}})
}

// stringParam decodes a string parameter.
func stringParam(v json.RawMessage) (string, *restliError) {
	s, err := wire.UnmarshalString(v)
	if err != nil {
		return "", errorf(http.StatusBadRequest, msgBadBody, gms.JSONErrorText(err))
	}
	return s, nil
}

// configResponse is the part of GMS's /config servlet answer that clients
// read. The version is [DefaultServerVersion] unless [WithServerVersion]
// sets another.
type configResponse struct {
	NoCode                   string                       `json:"noCode"`
	Retention                string                       `json:"retention"`
	StatefulIngestionCapable bool                         `json:"statefulIngestionCapable"`
	PatchCapable             bool                         `json:"patchCapable"`
	TimeZone                 string                       `json:"timeZone"`
	SupportsImpactAnalysis   bool                         `json:"supportsImpactAnalysis"`
	Versions                 map[string]map[string]string `json:"versions"`
	Datahub                  map[string]string            `json:"datahub"`
	DatasetURNNameCasing     bool                         `json:"datasetUrnNameCasing"`
	Telemetry                map[string]bool              `json:"telemetry"`
	ManagedIngestion         managedIngestion             `json:"managedIngestion"`
	Models                   map[string]any               `json:"models"`
	UserType                 string                       `json:"userType,omitempty"`
}

// managedIngestion is /config's managedIngestion object: whether UI
// ingestion is on and the CLI version it runs by default.
type managedIngestion struct {
	Enabled           bool   `json:"enabled"`
	DefaultCliVersion string `json:"defaultCliVersion"`
}

// handleHealth serves GET /health and /health/live, which need no
// authentication.
func (s *Server) handleHealth(w http.ResponseWriter, _ *http.Request, _ routed) {
	// GMS answers 200 without a body once it has started (503 while it
	// bootstraps, which the mock never does).
	w.WriteHeader(http.StatusOK)
}

// handleConfig serves GET /config, which needs no authentication, with
// every key of GMS's Config servlet (pgQueue aside, which GMS answers only
// with its Postgres queue on): telemetry says enabledCli false so that a
// CLI pointed at the mock sends no telemetry; managedIngestion's
// defaultCliVersion is the server version without its "v"; models (plugin
// registries) is empty; ?verbose=true adds userType, "user" for a request
// with a valid token and "anonymous" otherwise.
func (s *Server) handleConfig(w http.ResponseWriter, r *http.Request, _ routed) {
	userType := ""
	if r.URL.Query().Get("verbose") == "true" {
		userType = "anonymous"
		if len(s.cfg.tokens) > 0 && s.authorized(r) {
			userType = "user"
		}
	}
	writeJSON(w, configResponse{
		Telemetry:                map[string]bool{"enabledCli": false, "enabledIngestion": false},
		ManagedIngestion:         managedIngestion{Enabled: true, DefaultCliVersion: strings.TrimPrefix(s.cfg.serverVersion, "v")},
		Models:                   map[string]any{},
		UserType:                 userType,
		NoCode:                   "true",
		Retention:                "true",
		StatefulIngestionCapable: false,
		PatchCapable:             true,
		TimeZone:                 "UTC",
		Versions: map[string]map[string]string{
			"acryldata/datahub": {"version": s.cfg.serverVersion, "commit": "datahub-mock-" + mockVersion},
		},
		// serverEnv "core" is open-source DataHub; clients take any other value
		// for DataHub Cloud, whose versions are numbered differently.
		Datahub: map[string]string{"serverType": "datahub-mock", "serverEnv": "core"},
	})
}
