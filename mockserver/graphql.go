package mockserver

import (
	"bytes"
	"io"
	"net/http"

	"github.com/catalogkit/datahub-go/mockserver/internal/graphql"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// OpGraphQL is POST /api/graphql (also /api/gms/api/graphql and the front
// end's /api/v2/graphql).
const OpGraphQL Op = "graphql"

// graphQLPaths are the paths of DataHub's GraphQL endpoint, after the front
// prefix /api/gms is removed.
var graphQLPaths = map[string]bool{"/api/graphql": true, "/api/v2/graphql": true}

// graphqlEndpoint is the GraphQL endpoint, outside Rest.li.
var graphqlEndpoint = &endpoint{resource: "graphql", op: OpGraphQL, serve: (*Server).handleGraphQL}

// handleGraphQL serves DataHub's GraphQL endpoint through the resolvers of
// package graphql, on the same core as the Rest.li handlers.
func (s *Server) handleGraphQL(w http.ResponseWriter, r *http.Request, _ routed) {
	s.gqlOnce.Do(func() {
		s.gql, s.gqlErr = graphql.New(s.core, graphql.WithStoreVersion(s.core.StoreVersion),
			graphql.WithServerInfo(s.cfg.serverVersion, len(s.cfg.tokens) > 0))
	})
	if s.gqlErr != nil {
		writeRestliError(w, errorf(http.StatusInternalServerError, "datahub-mock GraphQL schema: %v", s.gqlErr), "")
		return
	}
	buf := graphqlBodies.Get()
	body, err := wire.ReadAllInto(*buf, r.Body, r.ContentLength)
	if err != nil { // the handler answers the read error
		r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
		s.gql.ServeHTTP(w, r)
		return
	}
	defer s.releaseGraphQLBody(buf, body)
	b := s.gql.Read(body) // decoded once, for the name and the answer
	name := b.OperationName()
	s.mu.Lock()
	s.gqlCounts[name]++
	s.mu.Unlock()
	if name != "" && s.hasGraphQLOperationFaults() {
		if a := s.takeGraphQLFaults(name); s.applyFault(w, r, a) {
			return
		}
	}
	s.gql.ServeRead(w, r, &b)
}

// graphqlBodies are the buffers handleGraphQL reads bodies into, kept for
// the next request: the handler keeps no reference to a body once it
// answered (what it keeps by body, it copies).
var graphqlBodies wire.BodyPool

// releaseGraphQLBody gives body's memory (read into *buf) back to
// graphqlBodies; with poisonBodies set it is overwritten first.
func (s *Server) releaseGraphQLBody(buf *[]byte, body []byte) {
	if cap(body) > cap(*buf) {
		*buf = body[:0]
	}
	graphqlBodies.Put(buf, s.cfg.poisonBodies)
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
