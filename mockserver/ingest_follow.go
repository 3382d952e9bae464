package mockserver

import (
	"net/http"
	"strconv"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// successLength is the Content-Length of writeSuccess's answer.
var successLength = strconv.Itoa(len(success))

// answerThenFollow writes an ingest's success answer and sends it at once,
// then lets the search index catch up with the changes pending (a catch-up
// the write left for after its answer, see gms.IngestOptions.FollowLater):
// the client has its answer while the index catches up, and the handler
// returns once it has. The answer is the one writeSuccess writes, with the
// Content-Length net/http would give it (set before sending it early, so
// that it is not sent chunked).
func answerThenFollow(w http.ResponseWriter, core *gms.Core) {
	w.Header()["Content-Length"] = []string{successLength}
	writeSuccess(w)
	_ = http.NewResponseController(w).Flush() // a writer that cannot flush sends the answer on return
	core.Follow()
}
