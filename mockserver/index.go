package mockserver

import (
	"encoding/json"
	"net/http"
)

// The mock keeps a simulated search index next to its store, as GMS keeps
// Elasticsearch next to its SQL database: one index per entity type
// ("datasetindex_v2", a document per entity with its latest aspects) and one
// per timeseries aspect ("dataset_datasetprofileaspect_v1", a document per
// timeseries document). It follows the store's changes after the async lag
// of [WithAsyncLag] on the server's clock. getIndexSizes,
// truncateTimeseriesAspect and getEsTaskStatus read it; restoreIndices
// rebuilds it from the store.

// WithIndexPaused starts the server with indexing paused (see
// [Server.PauseIndexing]).
func WithIndexPaused(paused bool) Option {
	return Option{func(c *config) { c.indexPaused = paused }}
}

// PauseIndexing stops the search index from following the store: the
// changes committed from now on are lost to it, as if GMS's index consumers
// had dropped them, so that the index drifts from the store until
// restoreIndices rebuilds it. Truncation tasks still progress.
func (s *Server) PauseIndexing() { s.core.SetIndexPaused(true) }

// ResumeIndexing makes the search index follow the store again, from the
// changes committed from now on (minus the async lag).
func (s *Server) ResumeIndexing() { s.core.SetIndexPaused(false) }

// IndexedAspects returns the aspects the search index holds for the entity
// urn (nil when it has no document), after applying the changes that are
// due: what a search would see, which differs from the store while indexing
// is paused or lagging.
func (s *Server) IndexedAspects(urn string) map[string]json.RawMessage {
	return s.core.IndexedAspects(urn)
}

// IndexedTimeseries returns the number of documents in the timeseries index
// of (entityType, aspect) ("dataset", "datasetProfile").
func (s *Server) IndexedTimeseries(entityType, aspect string) int {
	return s.core.IndexedTimeseries(entityType, aspect)
}

// controlIndex serves the control API's /index: GET reports
// {"paused":bool}, POST {"paused":bool} pauses or resumes indexing.
func (s *Server) controlIndex(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet:
	case http.MethodPost:
		m, rerr := readControlObject(r)
		if rerr != nil {
			writeRestliError(w, rerr, "")
			return
		}
		var paused bool
		if raw, ok := m["paused"]; len(m) != 1 || !ok || json.Unmarshal(raw, &paused) != nil || string(raw) == "null" {
			writeRestliError(w, errorf(http.StatusBadRequest, msgControlIndex), "")
			return
		}
		s.core.SetIndexPaused(paused)
	default:
		writeRestliError(w, errorf(http.StatusNotFound, msgControlRoute, abbreviate(r.Method), ControlPrefix+"/index"), "")
		return
	}
	writeJSON(w, map[string]map[string]bool{"value": {"paused": s.core.IndexPaused()}})
}

// msgControlIndex is the control API's answer to a bad /index body (mock).
const msgControlIndex = `The index control takes {"paused": true|false} (datahub-mock)`
