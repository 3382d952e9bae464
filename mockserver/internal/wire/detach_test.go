package wire

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestDetachBody: DetachBody copies exactly the values that share the
// body, a repeated slice into one copy, and leaves the others.
func TestDetachBody(t *testing.T) {
	t.Parallel()
	body := []byte(`{"runId":"r"} {"a":1} {"b":2}`)
	own := json.RawMessage(`{"c":3}`)
	sm := body[:13]
	ps := []gms.Proposal{
		{SystemMetadata: sm, Aspect: body[14:21]},
		{SystemMetadata: sm, Aspect: own, EntityKeyAspect: body[22:]},
		{SystemMetadata: body[:13:13]}, // the same memory and length as sm: its copy
	}
	DetachBody(ps, body)
	for i, p := range ps {
		for _, v := range []json.RawMessage{p.SystemMetadata, p.Aspect, p.EntityKeyAspect} {
			if within(v, body) {
				t.Errorf("proposal %d: %s still in the body", i, v)
			}
		}
	}
	if string(ps[0].SystemMetadata) != `{"runId":"r"}` || string(ps[0].Aspect) != `{"a":1}` || string(ps[1].EntityKeyAspect) != `{"b":2}` {
		t.Errorf("copies = %s, %s, %s", ps[0].SystemMetadata, ps[0].Aspect, ps[1].EntityKeyAspect)
	}
	if !sameSlice(ps[0].SystemMetadata, ps[1].SystemMetadata) || !sameSlice(ps[1].SystemMetadata, ps[2].SystemMetadata) {
		t.Error("a repeated systemMetadata got two copies")
	}
	if !sameSlice(ps[1].Aspect, own) {
		t.Error("a value outside the body was copied")
	}
	if cap(ps[0].SystemMetadata) != len(ps[0].SystemMetadata) {
		t.Error("a copy has room to append over the next")
	}
	if within(body[len(body):], body) || !within(body[len(body)-1:], body) || within(nil, body) {
		t.Error("within at the bounds")
	}
}

// TestDetachRestli: DetachBody copies exactly the values that share the
// body, in the Rest.li ingest's shape (a compact systemMetadata and key
// aspect are the body's text, the aspect the decode's own).
func TestDetachRestli(t *testing.T) {
	t.Parallel()
	body := []byte(`{"runId":"r"} {"a":1}`)
	own := []byte(`{"b":2}`)
	ps := []gms.Proposal{{SystemMetadata: body[:13], Aspect: own, EntityKeyAspect: body[14:]}}
	DetachBody(ps, body)
	p := ps[0]
	if within(p.SystemMetadata, body) || within(p.EntityKeyAspect, body) || !within(p.Aspect, own) {
		t.Errorf("after DetachBody: systemMetadata in body %v, key aspect in body %v, aspect kept %v",
			within(p.SystemMetadata, body), within(p.EntityKeyAspect, body), within(p.Aspect, own))
	}
	if string(p.SystemMetadata) != `{"runId":"r"}` || string(p.EntityKeyAspect) != `{"a":1}` {
		t.Errorf("copies = %s, %s", p.SystemMetadata, p.EntityKeyAspect)
	}
	if within(body[len(body):], body) || !within(body[len(body)-1:], body) || within(nil, body) {
		t.Error("within at the bounds")
	}
}
