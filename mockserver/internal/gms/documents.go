package gms

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/catalogkit/datahub-go/internal/jsonx"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// Document is a timeseries document's identity
// (TimeseriesAspectTransformer.getDocId, in one index per aspect): its
// timestampMillis, which it must have, and its eventGranularity, messageId
// and partitionSpec, compared as JSON data (keys sorted). A document with
// the same urn, aspect and identity replaces the earlier one.
func (Rules) Document(w *store.Write) (int64, []json.RawMessage, error) {
	var ts, granularity, messageID, partition json.RawMessage
	found := false
	take := func(k string, v json.RawMessage) {
		switch k {
		case "timestampMillis":
			ts, found = v, true
		case "eventGranularity":
			granularity = v
		case "messageId":
			messageID = v
		case "partitionSpec":
			partition = v
		}
	}
	// The members by their exact names, as in a DataMap (decoding into a
	// struct would match names case-insensitively); the last of a repeated
	// name wins.
	if ms, ok := jsonx.ObjectMembers(w.Value); ok {
		for _, m := range ms {
			take(m.Key, m.Value)
		}
	} else {
		all := map[string]json.RawMessage{}
		if err := json.Unmarshal(w.Value, &all); err != nil {
			return 0, nil, fmt.Errorf("%s %s: %w", w.URN, w.Aspect, err)
		}
		for k, v := range all {
			take(k, v)
		}
	}
	if !found || string(ts) == "null" {
		return 0, nil, fmt.Errorf("%s %s: timeseries aspect has no timestampMillis", w.URN, w.Aspect)
	}
	ms, err := parseInt64(ts)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", w.URN, w.Aspect, err)
	}
	return ms, []json.RawMessage{jsonx.Canonical(granularity), jsonx.Canonical(messageID), jsonx.Canonical(partition)}, nil
}

// parseInt64 is json.Unmarshal into an int64.
func parseInt64(raw []byte) (int64, error) {
	var n int64
	if v, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return v, nil
	}
	err := json.Unmarshal(raw, &n)
	return n, err
}
