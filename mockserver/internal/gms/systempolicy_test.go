package gms_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestSystemPoliciesCannotBeDeleted: deleting urn:li:dataHubPolicy:0 or :1,
// whole or by aspect, is refused as SystemPolicyValidator refuses it
// (failed before: both deletes succeeded); other policies delete.
func TestSystemPoliciesCannotBeDeleted(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	ctx := t.Context()
	for _, u := range []string{"urn:li:dataHubPolicy:0", "urn:li:dataHubPolicy:1"} {
		if _, err := c.DeleteEntity(ctx, u, ""); kindOf(err) != gms.Invalid || gms.AsError(err).Message != gms.MsgSystemPolicyDelete {
			t.Errorf("DeleteEntity(%s) = %v, want Invalid %q", u, err, gms.MsgSystemPolicyDelete)
		}
		if err := c.DeleteAspects(ctx, u, []string{"dataHubPolicyInfo"}); kindOf(err) != gms.Invalid {
			t.Errorf("DeleteAspects(%s) = %v, want Invalid", u, err)
		}
	}
	if _, err := c.DeleteEntity(ctx, "urn:li:dataHubPolicy:mine", ""); err != nil {
		t.Errorf("DeleteEntity of another policy: %v", err)
	}
}
