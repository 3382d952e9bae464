package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/internal/transport"
)

// Paths of GMS's operations resource (OperationsResource).
const (
	pathRestoreIndices = "/operations?action=restoreIndices"
	pathIndexSizes     = "/operations?action=getIndexSizes"
	pathTruncate       = "/operations?action=truncateTimeseriesAspect"
	pathTaskStatus     = "/operations?action=getEsTaskStatus"
)

// postAction sends an action's parameters and returns the answer's
// "value" member, raw.
func (c *Client) postAction(ctx context.Context, path string, params any, noReplay bool) (json.RawMessage, error) {
	body, err := json.Marshal(params)
	if err != nil {
		return nil, err
	}
	resp, err := c.tc.Send(ctx, transport.Request{Method: http.MethodPost, Path: path, Body: body, NoReplay: noReplay})
	if err != nil {
		return nil, err
	}
	var answer struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(resp.Body, &answer); err != nil || len(answer.Value) == 0 {
		return nil, fmt.Errorf("client: POST %s: answer is not a Rest.li action result {\"value\": ...}: %.200s", path, resp.Body)
	}
	return answer.Value, nil
}

// stringOrObject returns v's JSON object: v itself, or the JSON text a
// string v holds (GMS renders several answers to a string).
func stringOrObject(v json.RawMessage) (json.RawMessage, bool) {
	var s string
	if json.Unmarshal(v, &s) == nil {
		v = json.RawMessage(s)
	}
	v = json.RawMessage(strings.TrimSpace(string(v)))
	return v, len(v) > 0 && v[0] == '{' && json.Valid(v)
}

// Task names a task of the search index (Elasticsearch), as
// truncateTimeseriesAspect returns it: "<nodeId>:<taskId>".
type Task struct {
	NodeID string
	ID     int64
}

// taskPattern is DataHub's check of a composite task id.
var taskPattern = regexp.MustCompile(`^[a-zA-Z0-9-_]+:[0-9]+$`)

// ParseTask parses "<nodeId>:<taskId>" (such as
// "aB1cdEf2GHIJKLMnoPQr3S:123456"); it fails, wrapping
// datahub.ErrValidation, for anything else, as GMS would.
func ParseTask(s string) (Task, error) {
	node, id, _ := strings.Cut(s, ":")
	n, err := strconv.ParseInt(id, 10, 64)
	if !taskPattern.MatchString(s) || err != nil || n <= 0 {
		return Task{}, fmt.Errorf("client: task %q is not of the form nodeId:taskId (such as aB1cdEf2GHIJKLMnoPQr3S:123456): %w", s, datahub.ErrValidation)
	}
	return Task{NodeID: node, ID: n}, nil
}

// String returns "<nodeId>:<taskId>".
func (t Task) String() string { return t.NodeID + ":" + strconv.FormatInt(t.ID, 10) }

// TaskStatus is a task's status as getEsTaskStatus reports it.
type TaskStatus struct {
	// Task is the task reported on.
	Task Task
	// Completed reports whether the task has ended.
	Completed bool
	// RunTime is how long the task has run (or ran).
	RunTime time.Duration
	// Status is Elasticsearch's status of a delete-by-query or reindex task.
	Status ESTaskStatus
}

// ESTaskStatus is the status object of an Elasticsearch bulk-by-scroll task.
type ESTaskStatus struct {
	Total                int64   `json:"total"`
	Updated              int64   `json:"updated"`
	Created              int64   `json:"created"`
	Deleted              int64   `json:"deleted"`
	Batches              int64   `json:"batches"`
	VersionConflicts     int64   `json:"version_conflicts"`
	Noops                int64   `json:"noops"`
	Retries              Retries `json:"retries"`
	ThrottledMillis      int64   `json:"throttled_millis"`
	RequestsPerSecond    float64 `json:"requests_per_second"`
	ThrottledUntilMillis int64   `json:"throttled_until_millis"`
}

// Retries counts a task's bulk and search retries.
type Retries struct {
	Bulk   int64 `json:"bulk"`
	Search int64 `json:"search"`
}

// TaskNotFoundError reports getEsTaskStatus for a task the search index
// does not know. errors.Is(err, datahub.ErrNotFound) holds for it.
type TaskNotFoundError struct {
	// Task is the task asked for.
	Task Task
	// Message is the server's text ("Could not get task status for ...").
	Message string
}

// Error names the task and quotes the server.
func (e *TaskNotFoundError) Error() string {
	return fmt.Sprintf("client: task %s: %s", e.Task, e.Message)
}

// Is reports whether target is datahub.ErrNotFound.
func (e *TaskNotFoundError) Is(target error) bool { return target == datahub.ErrNotFound }

// GetEsTaskStatus reports the status of a search-index task, such as the one
// TruncateTimeseriesAspect starts, sending it in the composite form
// {"task": "<nodeId>:<taskId>"}. An unknown task is a *TaskNotFoundError
// (errors.Is(err, datahub.ErrNotFound)).
func (c *Client) GetEsTaskStatus(ctx context.Context, task Task) (*TaskStatus, error) {
	if _, err := ParseTask(task.String()); err != nil {
		return nil, err
	}
	return c.taskStatus(ctx, task, map[string]any{"task": task.String()})
}

func (c *Client) taskStatus(ctx context.Context, task Task, params any) (*TaskStatus, error) {
	v, err := c.postAction(ctx, pathTaskStatus, params, false)
	if err != nil {
		return nil, err
	}
	obj, ok := stringOrObject(v)
	if !ok {
		return nil, fmt.Errorf("client: task status of %s: answer is not a JSON object: %.200s", task, v)
	}
	var a struct {
		Error        *string         `json:"error"`
		Completed    bool            `json:"completed"`
		TaskID       string          `json:"taskId"`
		RunTimeNanos int64           `json:"runTimeNanos"`
		Status       json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal(obj, &a); err != nil {
		return nil, fmt.Errorf("client: task status of %s: %w", task, err)
	}
	if a.Error != nil {
		return nil, &TaskNotFoundError{Task: task, Message: *a.Error}
	}
	st := &TaskStatus{Task: task, Completed: a.Completed, RunTime: time.Duration(a.RunTimeNanos)}
	if t, err := ParseTask(a.TaskID); err == nil {
		st.Task = t
	}
	// DataHub's docs show status as a string holding the object.
	if s, ok := stringOrObject(a.Status); ok {
		if err := json.Unmarshal(s, &st.Status); err != nil {
			return nil, fmt.Errorf("client: task status of %s: status: %w", task, err)
		}
	}
	return st, nil
}

// DefaultTaskPoll is the first wait of WaitForTask; each later wait doubles
// up to MaxTaskPoll.
const (
	DefaultTaskPoll = 500 * time.Millisecond
	MaxTaskPoll     = 10 * time.Second
)

// WaitForTask polls GetEsTaskStatus, waiting DefaultTaskPoll and then
// twice as long each time up to MaxTaskPoll, until the task has completed,
// and returns its last status. It stops with ctx's error when ctx ends, and
// at once on any error of GetEsTaskStatus (a *TaskNotFoundError for an
// unknown task); transient failures are retried inside each call as the
// client's retry policy says.
func (c *Client) WaitForTask(ctx context.Context, task Task) (*TaskStatus, error) {
	wait := DefaultTaskPoll
	for {
		st, err := c.GetEsTaskStatus(ctx, task)
		if err != nil {
			return nil, err
		}
		if st.Completed {
			return st, nil
		}
		if err := c.sleep(ctx, wait); err != nil {
			return st, fmt.Errorf("client: wait for task %s: %w", task, err)
		}
		wait = min(2*wait, MaxTaskPoll)
	}
}
