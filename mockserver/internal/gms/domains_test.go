package gms

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSyncDomains checks DataHub's domains sync on patched values.
func TestSyncDomains(t *testing.T) {
	t.Parallel()
	const prop = `{"domain":"urn:li:domain:p","attribution":{"time":0,"actor":"a","source":"s","sourceDetail":{"propagated":"true"}}}`
	cases := []struct {
		name, previous, proposed, want string
		wantErr                        bool
	}{
		{name: "associations added: domains derived",
			proposed: `{"domains":[],"domainAssociations":[{"domain":"urn:li:domain:a"},{"domain":"urn:li:domain:b","context":"c"}]}`,
			want:     `{"domains":["urn:li:domain:a","urn:li:domain:b"],"domainAssociations":[{"domain":"urn:li:domain:a"},{"domain":"urn:li:domain:b","context":"c"}]}`},
		{name: "domains only: associations derived",
			proposed: `{"domains":["urn:li:domain:a"]}`,
			want:     `{"domains":["urn:li:domain:a"],"domainAssociations":[{"domain":"urn:li:domain:a"}]}`},
		{name: "domains changed, associations kept: previous association of a staying domain kept",
			previous: `{"domains":["urn:li:domain:a","urn:li:domain:x"],"domainAssociations":[{"domain":"urn:li:domain:a","context":"keep"},{"domain":"urn:li:domain:x"}]}`,
			proposed: `{"domains":["urn:li:domain:a","urn:li:domain:b"],"domainAssociations":[{"domain":"urn:li:domain:a","context":"keep"},{"domain":"urn:li:domain:x"}]}`,
			want:     `{"domains":["urn:li:domain:a","urn:li:domain:b"],"domainAssociations":[{"domain":"urn:li:domain:a","context":"keep"},{"domain":"urn:li:domain:b"}]}`},
		{name: "propagated after manual, one domain listed once",
			proposed: `{"domains":[],"domainAssociations":[` + prop + `,{"domain":"urn:li:domain:m"},{"domain":"urn:li:domain:m","attribution":{"time":0,"actor":"a","source":"s2","sourceDetail":{}}}]}`,
			want:     `{"domains":["urn:li:domain:m","urn:li:domain:p"],"domainAssociations":[{"domain":"urn:li:domain:m"},{"domain":"urn:li:domain:m","attribution":{"time":0,"actor":"a","source":"s2","sourceDetail":{}}},` + prop + `]}`},
		// A stored value from before domainAssociations (DataHub's
		// migration mutator is off by default): a patch adding an
		// association makes the associations the truth.
		{name: "legacy domains without associations: associations win",
			previous: `{"domains":["urn:li:domain:a"]}`,
			proposed: `{"domains":["urn:li:domain:a"],"domainAssociations":[{"domain":"urn:li:domain:b"}]}`,
			want:     `{"domains":["urn:li:domain:b"],"domainAssociations":[{"domain":"urn:li:domain:b"}]}`},
		{name: "both changed and disagreeing: refused",
			previous: `{"domains":[]}`,
			proposed: `{"domains":["urn:li:domain:a"],"domainAssociations":[{"domain":"urn:li:domain:b"}]}`,
			wantErr:  true},
		{name: "both changed and agreeing",
			proposed: `{"domains":["urn:li:domain:a"],"domainAssociations":[{"domain":"urn:li:domain:a"}]}`,
			want:     `{"domains":["urn:li:domain:a"],"domainAssociations":[{"domain":"urn:li:domain:a"}]}`},
		{name: "everything removed",
			previous: `{"domains":["urn:li:domain:a"],"domainAssociations":[{"domain":"urn:li:domain:a"}]}`,
			proposed: `{"domains":["urn:li:domain:a"],"domainAssociations":[]}`,
			want:     `{"domains":[],"domainAssociations":[]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var prev json.RawMessage
			if tc.previous != "" {
				prev = json.RawMessage(tc.previous)
			}
			got, err := syncDomains("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)", prev, json.RawMessage(tc.proposed))
			if tc.wantErr {
				if err == nil || err.Kind != Invalid || !strings.Contains(err.Message, "Cannot update both") || !strings.Contains(err.Message, "urn:li:dataset:") {
					t.Fatalf("syncDomains = %s, %v; want the Invalid refusal naming the entity", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
