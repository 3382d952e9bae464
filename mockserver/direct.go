package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"reflect"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	datahub "github.com/catalogkit/datahub-go"
	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/wire"
)

// Proposals returns copies of the proposals the server received over HTTP,
// in arrival order, including refused ones (with Err set).
func (s *Server) Proposals() []Proposal {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Proposal, len(s.proposals))
	for i, p := range s.proposals {
		out[i] = p.clone()
	}
	return out
}

// RequestCount returns how many authenticated requests of op the server
// received, whatever their outcome (faults and refusals included); a
// request refused 401 is not counted.
func (s *Server) RequestCount(op Op) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[op]
}

// RequestCounts returns the number of requests received per operation.
func (s *Server) RequestCounts() map[Op]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.counts)
}

// GraphQLRequestCounts returns the number of GraphQL requests the server
// read, by operation name: the body's operationName, or else the name of
// the document's one named operation; "" counts the requests whose
// operation has no name. A request refused before its body is read (a
// missing token, a fault on [OpGraphQL] as a whole) is counted only by
// [Server.RequestCount].
func (s *Server) GraphQLRequestCounts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.gqlCounts)
}

// Reset forgets every aspect, received proposal, request count, pending
// async write and installed fault, as a fresh server (which holds the
// bootstrapped entities again with [WithBootstrap]).
func (s *Server) Reset() error {
	s.mu.Lock()
	s.proposals = nil
	s.counts = make(map[Op]int)
	s.gqlCounts = make(map[string]int)
	s.faults = nil
	s.mu.Unlock()
	if err := s.core.Reset(context.Background()); err != nil {
		return fmt.Errorf("mockserver: reset: %w", err)
	}
	if s.cfg.bootstrap {
		if err := s.core.SeedBootstrap(context.Background()); err != nil {
			return fmt.Errorf("mockserver: reset: bootstrap: %w", err)
		}
	}
	return nil
}

// PutAspect writes a as the latest version of its aspect of the entity urn,
// without HTTP: validated and stored as an UPSERT proposal would be (the
// entity's key aspect is written with its first aspect). It is not recorded
// in Proposals. A refused aspect is a *datahub.Error with the status the
// HTTP path would answer.
func (s *Server) PutAspect(urn string, a aspects.Aspect) error {
	if a == nil || (reflect.ValueOf(a).Kind() == reflect.Pointer && reflect.ValueOf(a).IsNil()) {
		return errors.New("mockserver: PutAspect: nil aspect")
	}
	value, err := wire.MarshalJSON(a)
	if err != nil {
		return fmt.Errorf("mockserver: PutAspect %s: %w", a.AspectName(), err)
	}
	return s.PutAspectJSON(urn, a.AspectName(), value)
}

// PutAspectJSON is [Server.PutAspect] for an aspect given as JSON text,
// stored as it is (compacted) after the same validation.
func (s *Server) PutAspectJSON(urn, aspectName string, value json.RawMessage) error {
	if err := s.core.Put(context.Background(), urn, aspectName, bytes.Clone(value)); err != nil {
		return apiError(fromCore(err, OpIngestProposal))
	}
	return nil
}

// GetAspect returns the latest version of aspect aspectName of urn, decoded
// into its typed struct (a pointer, such as *aspects.DatasetProperties). It
// fails with an error matching datahub.ErrNotFound when there is none.
func (s *Server) GetAspect(urn, aspectName string) (aspects.Aspect, error) {
	raw, err := s.GetAspectJSON(urn, aspectName, 0)
	if err != nil {
		return nil, err
	}
	a, err := aspects.Decode(aspectName, raw)
	if err != nil {
		return nil, fmt.Errorf("mockserver: decode %s of %s: %w", aspectName, urn, err)
	}
	return a, nil
}

// GetAspectJSON returns the stored JSON of aspect aspectName of urn at
// version (0 the latest, 1 the oldest), exactly as reads over HTTP serve it.
// It fails with an error matching datahub.ErrNotFound when there is none.
func (s *Server) GetAspectJSON(urn, aspectName string, version int64) (json.RawMessage, error) {
	a, err := s.core.LoadAspect(context.Background(), urn, aspectName, version)
	if e := gms.AsError(err); e != nil && e.Kind == gms.NotFound {
		return nil, &datahub.Error{StatusCode: http.StatusNotFound, Message: e.Message}
	}
	if err != nil {
		return nil, fmt.Errorf("mockserver: %w", err)
	}
	return a.Value, nil
}

// CheckAspect fails tb unless the latest aspect want.AspectName() of urn
// equals want (a T or *T of package aspects), reporting a cmp.Diff. Nil and
// empty slices and maps are equal: a nil required array or map is written
// as its PDL default [] or {} and reads back empty.
func (s *Server) CheckAspect(tb Tester, urn string, want aspects.Aspect) {
	tb.Helper()
	if want == nil {
		tb.Fatalf("mockserver.CheckAspect(%s): nil want", urn)
		return
	}
	got, err := s.GetAspect(urn, want.AspectName())
	if err != nil {
		tb.Errorf("mockserver.CheckAspect: %v", err)
		return
	}
	wv, gv := reflect.ValueOf(want), reflect.ValueOf(got)
	var g any = got
	if wv.Kind() != reflect.Pointer && gv.Kind() == reflect.Pointer && !gv.IsNil() {
		g = gv.Elem().Interface()
	}
	if diff := cmp.Diff(any(want), g, cmpopts.EquateEmpty()); diff != "" {
		tb.Errorf("mockserver: aspect %s of %s mismatch (-want +got):\n%s", want.AspectName(), urn, diff)
	}
}
