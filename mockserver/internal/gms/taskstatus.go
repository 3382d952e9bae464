package gms

import (
	"strconv"
	"strings"
)

// DataHub: getEsTaskStatus' refusals (OperationsResource).
const (
	MsgTaskNeither = "Please specify either Node ID + task ID OR composite task parameters"
	MsgTaskBoth    = "Please specify only one of Node ID + task ID OR composite task parameters"
	MsgTaskForm    = "Task should be in the form nodeId:taskId e.g. aB1cdEf2GHIJKLMnoPQr3S:123456 (got %s)"
)

// TaskRef names an Elasticsearch task as getEsTaskStatus asks for it.
type TaskRef struct {
	// ID is the composite "<nodeId>:<n>".
	ID string
	// Node and Num are its parts.
	Node string
	Num  int64
}

// TaskOf checks getEsTaskStatus' parameters (nil: absent) as
// OperationsResource does: the task as the composite task "node:id", or as
// nodeId and a positive taskId, or both when they name the same task;
// neither, two different tasks, or a composite not of the form
// ^[a-zA-Z0-9-_]+:[0-9]+$ with a positive number are BadArgument.
func TaskOf(nodeID *string, taskID *int64, task *string) (TaskRef, error) {
	id := int64(0)
	if taskID != nil {
		id = *taskID
	}
	pair := nodeID != nil && id > 0
	var composite string
	switch {
	case task == nil && !pair:
		return TaskRef{}, errorf(BadArgument, MsgTaskNeither)
	case task != nil && pair && *task != *nodeID+":"+strconv.FormatInt(id, 10):
		return TaskRef{}, errorf(BadArgument, MsgTaskBoth)
	case task != nil:
		composite = *task
	default:
		composite = *nodeID + ":" + strconv.FormatInt(id, 10)
	}
	node, num, ok := parseTaskID(composite)
	if !ok {
		return TaskRef{}, errorf(BadArgument, MsgTaskForm, Abbreviate(composite))
	}
	return TaskRef{ID: composite, Node: node, Num: num}, nil
}

// parseTaskID splits "<nodeId>:<n>"; ok is false when it is not of the
// form ^[a-zA-Z0-9-_]+:[0-9]+$ with n > 0.
func parseTaskID(id string) (node string, num int64, ok bool) {
	node, n, found := strings.Cut(id, ":")
	if !found || node == "" || n == "" {
		return "", 0, false
	}
	for _, r := range node {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return "", 0, false
		}
	}
	for _, r := range n {
		if r < '0' || r > '9' {
			return "", 0, false
		}
	}
	num, err := strconv.ParseInt(n, 10, 64)
	if err != nil || num <= 0 {
		return "", 0, false
	}
	return node, num, true
}
