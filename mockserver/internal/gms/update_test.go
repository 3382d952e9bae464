package gms_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestUpdate checks Core.Update: fn sees the current value, its result is
// validated and written as a new version, fn's own error comes back
// unchanged, and a refused value or condition writes nothing.
func TestUpdate(t *testing.T) {
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	var seen []string
	set := func(v string) gms.UpdateFunc {
		return func(cur json.RawMessage) (json.RawMessage, error) {
			seen = append(seen, string(cur))
			return json.RawMessage(v), nil
		}
	}
	if err := c.Update(ctx, ds, "status", set(`{"removed": false}`), gms.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(ctx, ds, "status", set(`{"removed":true}`), gms.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0] != "" || seen[1] != `{"removed":false}` {
		t.Errorf("fn saw %q, want absent then the compacted first value", seen)
	}
	mine := errors.New("mine")
	err := c.Update(ctx, ds, "status", func(json.RawMessage) (json.RawMessage, error) { return nil, mine }, gms.UpdateOptions{})
	if err != mine {
		t.Errorf("fn's error came back as %v", err)
	}
	err = c.Update(ctx, ds, "status", set(`{"removed":"yes"}`), gms.UpdateOptions{})
	if kindOf(err) != gms.Invalid && kindOf(err) != gms.BadArgument {
		t.Errorf("invalid value: %v (kind %v)", err, kindOf(err))
	}
	err = c.Update(ctx, ds, "status", set(`{"removed":false}`), gms.UpdateOptions{Headers: map[string]string{gms.HeaderIfVersionMatch: "1"}})
	if kindOf(err) != gms.PreconditionFailed {
		t.Errorf("stale If-Version-Match: %v", err)
	}
	v, err := c.GetAspect(ctx, ds, "status", 0)
	if err != nil || string(v.Value) != `{"removed":true}` {
		t.Errorf("status = %s, %v; want the second update's value", v.Value, err)
	}
}

// TestUpdateMissingEntity checks UpdateOptions.IfEntityMissing: an entity
// that does not exist gets that refusal and nothing is written; one that
// exists is updated.
func TestUpdateMissingEntity(t *testing.T) {
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	missing := func(u string) *gms.Error {
		return &gms.Error{Kind: gms.BadArgument, Message: "no entity " + u, Index: -1}
	}
	set := func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`{"removed":false}`), nil }
	err := c.Update(ctx, ds, "status", set, gms.UpdateOptions{IfEntityMissing: missing})
	if e := gms.AsError(err); e == nil || e.Kind != gms.BadArgument || e.Message != "no entity "+ds {
		t.Errorf("Update of a missing entity = %v, want the IfEntityMissing refusal", err)
	}
	if ok, err := c.Exists(ctx, ds); err != nil || ok {
		t.Fatalf("Exists = %v, %v after a refused update", ok, err)
	}
	if err := c.Put(ctx, ds, "status", json.RawMessage(`{"removed":true}`)); err != nil {
		t.Fatal(err)
	}
	if err := c.Update(ctx, ds, "status", set, gms.UpdateOptions{IfEntityMissing: missing}); err != nil {
		t.Errorf("Update of an existing entity = %v", err)
	}
}
