package store_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
	"github.com/catalogkit/datahub-go/mockserver/internal/store"
)

// The store's tests check its rows, versions, systemMetadata and documents
// as the mock writes them, so they run with the rules core's Rules, which
// decide what the store does not.
// Without the core's version retention (store.Retainer), which
// TestRetention checks: the store's tests read every version they wrote.
func init() { store.UseRulesInTests(keepAll{gms.Rules{}}) }

// keepAll is Rules without KeepVersions.
type keepAll struct{ store.Rules }

func TestDefaultsAreTheCores(t *testing.T) {
	if store.DefaultActor != gms.DefaultActor || store.DefaultRunID != gms.DefaultRunID {
		t.Errorf("test defaults %q, %q; the core's %q, %q", store.DefaultActor, store.DefaultRunID, gms.DefaultActor, gms.DefaultRunID)
	}
}
