package gms

import (
	"encoding/json"
	"regexp"
	"strings"
	"time"
)

// OpenLineage RunEvents become DataHub entities as DataHub's
// OpenLineageToDataHub converter makes them with its servlet's default
// configuration, for its core facts: the job's data flow
// urn:li:dataFlow:(<orchestrator>,<first dotted part of the job name>,<job
// namespace>) with dataFlowInfo; the data job
// urn:li:dataJob:(<flow>,<job name>) with dataJobInfo and
// dataJobInputOutput; each input and output dataset
// urn:li:dataset:(urn:li:dataPlatform:<platform>,<name>,PROD) with status;
// the run's data process instance urn:li:dataProcessInstance:<runId> with
// its properties, relationships and run event. Facets (schema, column
// lineage, ownership, tags) are not converted.

// olProducerRE finds the orchestrator in an OpenLineage producer URL.
var olProducerRE = regexp.MustCompile(`^https://github.com/OpenLineage/OpenLineage/.*/(.*)$`)

// olPlatforms are the namespace schemes DataHub renames.
var olPlatforms = map[string]string{"awsathena": "athena", "sqlserver": "mssql"}

// olFSPlatforms are the file-system schemes, whose dataset name is the
// URI's path.
var olFSPlatforms = map[string]string{"s3": "s3", "s3a": "s3", "s3n": "s3", "gs": "gcs", "gcs": "gcs", "hdfs": "hdfs",
	"file": "file", "abfs": "abs", "abfss": "abs", "dbfs": "dbfs"}

// olRunEvent is what the mock reads of a RunEvent.
type olRunEvent struct {
	EventType string `json:"eventType"`
	EventTime string `json:"eventTime"`
	Producer  string `json:"producer"`
	Run       struct {
		RunID  string `json:"runId"`
		Facets struct {
			ProcessingEngine *struct {
				Name string `json:"name"`
			} `json:"processing_engine"`
		} `json:"facets"`
	} `json:"run"`
	Job struct {
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
	} `json:"job"`
	Inputs  []olDataset `json:"inputs"`
	Outputs []olDataset `json:"outputs"`
}

// olDataset is an input or output of a RunEvent.
type olDataset struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// olDatasetURN is the dataset URN of an OpenLineage dataset.
func olDatasetURN(d olDataset) string {
	platform, name := d.Namespace, d.Name
	if scheme, rest, ok := strings.Cut(d.Namespace, "://"); ok {
		platform = scheme
		if p, ok := olPlatforms[scheme]; ok {
			platform = p
		}
		if fs, ok := olFSPlatforms[scheme]; ok {
			platform = fs
			host := strings.TrimSuffix(rest, "/")
			name = strings.Trim(host+"/"+strings.TrimPrefix(d.Name, "/"), "/")
		}
	}
	return "urn:li:dataset:(urn:li:dataPlatform:" + platform + "," + name + ",PROD)"
}

// OpenLineageProposals turns a RunEvent's JSON into the proposals DataHub's
// converter makes of it (see above). now stamps what the event does not.
func OpenLineageProposals(body []byte, now time.Time) ([]Proposal, error) {
	var ev olRunEvent
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, errorf(BadArgument, "Invalid RunEvent: %s", JSONErrorText(err))
	}
	if ev.Job.Name == "" || ev.Job.Namespace == "" || ev.Run.RunID == "" {
		return nil, errorf(BadArgument, "A RunEvent needs run.runId, job.namespace and job.name")
	}
	orchestrator := ""
	switch {
	case ev.Run.Facets.ProcessingEngine != nil && ev.Run.Facets.ProcessingEngine.Name != "":
		orchestrator = strings.ToLower(ev.Run.Facets.ProcessingEngine.Name)
	case olProducerRE.MatchString(ev.Producer):
		orchestrator = olProducerRE.FindStringSubmatch(ev.Producer)[1]
	case strings.HasPrefix(ev.Producer, "https://github.com/apache/airflow/"):
		orchestrator = "airflow"
	case strings.HasPrefix(ev.Producer, "https://github.com/trinodb/trino/"):
		orchestrator = "trino"
	default:
		return nil, errorf(BadArgument, "Unable to determine orchestrator")
	}
	at := now.UnixMilli()
	if t, err := time.Parse(time.RFC3339Nano, ev.EventTime); err == nil {
		at = t.UnixMilli()
	}
	flowName, _, _ := strings.Cut(ev.Job.Name, ".")
	flow := "urn:li:dataFlow:(" + orchestrator + "," + flowName + "," + ev.Job.Namespace + ")"
	job := "urn:li:dataJob:(" + flow + "," + ev.Job.Name + ")"
	dpi := "urn:li:dataProcessInstance:" + ev.Run.RunID
	var ps []Proposal
	add := func(entityType, urn, aspect string, v any) {
		raw, _ := json.Marshal(v)
		ps = append(ps, Proposal{EntityType: entityType, EntityURN: urn, ChangeType: "UPSERT", AspectName: aspect,
			Aspect: raw, ContentType: "application/json"})
	}
	add("dataFlow", flow, "dataFlowInfo", map[string]any{"name": flowName, "customProperties": map[string]string{}})
	var ins, outs []string
	for _, d := range ev.Inputs {
		u := olDatasetURN(d)
		ins = append(ins, u)
		add("dataset", u, "status", map[string]any{"removed": false})
	}
	for _, d := range ev.Outputs {
		u := olDatasetURN(d)
		outs = append(outs, u)
		add("dataset", u, "status", map[string]any{"removed": false})
	}
	add("dataJob", job, "dataJobInfo", map[string]any{"name": ev.Job.Name, "type": map[string]string{"string": orchestrator},
		"flowUrn": flow, "customProperties": map[string]string{}, "created": map[string]int64{"time": at}})
	if ins == nil {
		ins = []string{}
	}
	if outs == nil {
		outs = []string{}
	}
	add("dataJob", job, "dataJobInputOutput", map[string]any{"inputDatasets": ins, "outputDatasets": outs})
	add("dataProcessInstance", dpi, "dataProcessInstanceProperties", map[string]any{"name": ev.Run.RunID,
		"created": map[string]any{"time": at, "actor": "urn:li:corpuser:datahub"}, "customProperties": map[string]string{}})
	add("dataProcessInstance", dpi, "dataProcessInstanceRelationships", map[string]any{"parentTemplate": job, "upstreamInstances": []string{}})
	run := map[string]any{"timestampMillis": at, "status": "STARTED"}
	switch ev.EventType {
	case "COMPLETE":
		run["status"] = "COMPLETE"
		run["result"] = map[string]string{"type": "SUCCESS", "nativeResultType": orchestrator}
	case "FAIL", "ABORT":
		run["status"] = "COMPLETE"
		run["result"] = map[string]string{"type": "FAILURE", "nativeResultType": orchestrator}
	}
	add("dataProcessInstance", dpi, "dataProcessInstanceRunEvent", run)
	return ps, nil
}
