package pdl_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/catalogkit/datahub-go/internal/pdl"
)

// TestMain installs a URN check for the package's tests: it refuses the
// values that hold "REFUSED" and accepts every other, so that the tests of
// the schema check see no difference and those of the URN walk see where it
// is made. (The mock's core installs DataHub's rule.)
func TestMain(m *testing.M) {
	pdl.SetURNCheck(func(u pdl.URNTyperef, s string) string {
		if strings.Contains(s, "REFUSED") {
			return "refused as a " + u.Name
		}
		return ""
	})
	os.Exit(m.Run())
}

// TestURNTyperefs checks the URN facts of the tables: which strings are
// URN-typed, through which typeref, and what its class requires.
func TestURNTyperefs(t *testing.T) {
	t.Parallel()
	field := func(record, name string) pdl.Type {
		t.Helper()
		r, ok := pdl.Record(record)
		if !ok {
			t.Fatalf("no record %s", record)
		}
		for _, f := range r.Fields {
			if f.Name == name {
				return f.Type
			}
		}
		t.Fatalf("%s has no field %s", record, name)
		return pdl.Type{}
	}
	for _, tt := range []struct {
		record, field string
		items         bool
		want          string
	}{
		{"com.linkedin.ml.metadata.MLModelProperties", "groups", true, "com.linkedin.common.Urn"},
		{"com.linkedin.ml.metadata.MLFeatureTableProperties", "mlFeatures", true, "com.linkedin.common.Urn"},
		{"com.linkedin.dataset.Upstream", "dataset", false, "com.linkedin.common.DatasetUrn"},
		{"com.linkedin.schema.SchemaMetadata", "platform", false, "com.linkedin.common.DataPlatformUrn"},
		{"com.linkedin.common.AuditStamp", "actor", false, "com.linkedin.common.Urn"},
		{"com.linkedin.common.AuditStamp", "message", false, ""},
		{"com.linkedin.dataset.DatasetProperties", "name", false, ""},
	} {
		typ := field(tt.record, tt.field)
		if tt.items {
			typ = *typ.Items
		}
		if typ.Kind != pdl.KindString || typ.URN != tt.want {
			t.Errorf("%s.%s: kind %s, URN %q; want a string, URN %q", tt.record, tt.field, typ.Kind, typ.URN, tt.want)
		}
	}
	for name, want := range map[string]pdl.URNTyperef{
		"com.linkedin.common.Urn":                  {Name: "com.linkedin.common.Urn", Class: "com.linkedin.common.urn.Urn"},
		"com.linkedin.common.DatasetUrn":           {Name: "com.linkedin.common.DatasetUrn", Class: "com.linkedin.common.urn.DatasetUrn", EntityType: "dataset"},
		"com.linkedin.common.MLFeatureUrn":         {Name: "com.linkedin.common.MLFeatureUrn", Class: "com.linkedin.common.urn.MLFeatureUrn", EntityType: "mlFeature"},
		"com.linkedin.common.BusinessAttributeUrn": {Name: "com.linkedin.common.BusinessAttributeUrn", Class: "com.linkedin.common.urn.BusinessAttributeUrn", EntityType: "businessAttribute"},
	} {
		got, ok := pdl.LookupURNTyperef(name)
		if diff := cmp.Diff(want, got); !ok || diff != "" {
			t.Errorf("LookupURNTyperef(%s) = %v (-want +got):\n%s", name, ok, diff)
		}
	}
	if _, ok := pdl.LookupURNTyperef("com.linkedin.common.Time"); ok {
		t.Error("Time is a URN typeref")
	}
}

// TestURNCheckWalk checks that ValidateIn, ConformsIn and
// ConformsCompactHashIn make the installed URN check of every URN-typed
// value (in arrays, nested records, audit stamps), report its failure at the
// value's path once the record is otherwise valid, and leave the other
// strings alone; and that Validate and the Conforms family make none.
func TestURNCheckWalk(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, record, value string
		want                *pdl.ValidationError
	}{
		{"array item", "com.linkedin.ml.metadata.MLModelProperties", `{"groups":["urn:li:x:a","REFUSED"]}`,
			urnErr("groups[1]", "REFUSED", "com.linkedin.common.Urn")},
		{"nested record", "com.linkedin.dataset.UpstreamLineage",
			`{"upstreams":[{"dataset":"REFUSED-ds","type":"TRANSFORMED","auditStamp":{"time":0,"actor":"urn:li:corpuser:x"}}]}`,
			urnErr("upstreams[0].dataset", "REFUSED-ds", "com.linkedin.common.DatasetUrn")},
		{"audit stamp", "com.linkedin.common.GlobalTags", `{"tags":[{"tag":"urn:li:tag:t","attribution":{"time":0,"actor":"REFUSED","source":"urn:li:x:y"}}]}`,
			urnErr("tags[0].attribution.actor", "REFUSED", "com.linkedin.common.Urn")},
		{"escaped", "com.linkedin.ml.metadata.MLModelProperties", `{"groups":["REFUS\u0045D"]}`,
			urnErr("groups[0]", "REFUSED", "com.linkedin.common.Urn")},
		{"a plain string is no URN", "com.linkedin.dataset.DatasetProperties", `{"name":"REFUSED","customProperties":{"k":"REFUSED"},"tags":[]}`, nil},
		{"the record check comes first", "com.linkedin.ml.metadata.MLModelProperties", `{"groups":["REFUSED"],"zz":1}`,
			&pdl.ValidationError{Reason: `unrecognized field "zz"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var v any
			if err := json.Unmarshal([]byte(tt.value), &v); err != nil {
				t.Fatal(err)
			}
			err := pdl.ValidateIn("", tt.record, v)
			conforms := pdl.ConformsIn("", tt.record, []byte(tt.value))
			_, _, hashed := pdl.ConformsCompactHashIn("", tt.record, []byte(tt.value), nil)
			if conforms != (err == nil) || hashed != (err == nil) {
				t.Errorf("ValidateIn = %v, ConformsIn = %v, ConformsCompactHashIn = %v", err, conforms, hashed)
			}
			if tt.want == nil {
				if err != nil {
					t.Errorf("ValidateIn: %v", err)
				}
				return
			}
			var ve *pdl.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("ValidateIn = %v, want %v", err, tt.want)
			}
			if diff := cmp.Diff(tt.want, ve); diff != "" {
				t.Errorf("ValidateIn (-want +got):\n%s", diff)
			}
			if tt.want.URN {
				if err := pdl.ValidateJSON(tt.record, []byte(tt.value)); err != nil {
					t.Errorf("ValidateJSON, which makes no URN check: %v", err)
				}
				if !pdl.Conforms(tt.record, []byte(tt.value)) {
					t.Error("Conforms, which makes no URN check, refuses it")
				}
				if _, _, ok := pdl.ConformsCompactHash(tt.record, []byte(tt.value), nil); !ok {
					t.Error("ConformsCompactHash, which makes no URN check, refuses it")
				}
			}
		})
	}
}

func urnErr(path, value, typeref string) *pdl.ValidationError {
	msg := `"Provided urn ` + value + `" is invalid: refused as a ` + typeref
	return &pdl.ValidationError{Path: path, Reason: msg, Pegasus: msg, URN: true, Value: value}
}

// TestValidateIn checks the relationship check: a URN-typed value at the
// path of a relationship of the entity holding the aspect must have one of
// its entity types; ValidateIn, ConformsIn and ConformsCompactHashIn agree.
func TestValidateIn(t *testing.T) {
	t.Parallel()
	ds := "urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)"
	tests := []struct {
		name, entity, record, value string
		wantPath, wantReason        string
	}{
		{"allowed", "mlFeatureTable", "com.linkedin.ml.metadata.MLFeatureTableProperties", `{"mlFeatures":["urn:li:mlFeature:(a,b)"]}`, "", ""},
		{"not allowed", "mlFeatureTable", "com.linkedin.ml.metadata.MLFeatureTableProperties", `{"mlFeatures":["urn:li:mlFeature:(a,b)","` + ds + `"]}`,
			"mlFeatures[1]", `"Provided urn ` + ds + `" is invalid: Entity type for urn: ` + ds + ` is not a valid destination for field path: /mlFeatures/*`},
		{"escaped", "mlFeatureTable", "com.linkedin.ml.metadata.MLFeatureTableProperties", `{"mlFeatures":["urn:li:d\u0061taset:(urn:li:dataPlatform:hive,t,PROD)"]}`,
			"mlFeatures[0]", `"Provided urn ` + ds + `" is invalid: Entity type for urn: ` + ds + ` is not a valid destination for field path: /mlFeatures/*`},
		{"owner", "dataset", "com.linkedin.common.Ownership", `{"owners":[{"owner":"urn:li:tag:x","type":"DATAOWNER"}]}`,
			"owners[0].owner", `"Provided urn urn:li:tag:x" is invalid: Entity type for urn: urn:li:tag:x is not a valid destination for field path: /owners/*/owner`},
		{"key aspect", "dataJob", "com.linkedin.metadata.key.DataJobKey", `{"flow":"` + ds + `","jobId":"j"}`,
			"flow", `"Provided urn ` + ds + `" is invalid: Entity type for urn: ` + ds + ` is not a valid destination for field path: /flow`},
		{"no URN is the value check's", "mlFeatureTable", "com.linkedin.ml.metadata.MLFeatureTableProperties", `{"mlFeatures":["not a urn"]}`, "", ""},
		{"no entity", "", "com.linkedin.ml.metadata.MLFeatureTableProperties", `{"mlFeatures":["` + ds + `"]}`, "", ""},
		{"no relationships", "dataset", "com.linkedin.common.Status", `{"removed":true}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var v any
			if err := json.Unmarshal([]byte(tt.value), &v); err != nil {
				t.Fatal(err)
			}
			err := pdl.ValidateIn(tt.entity, tt.record, v)
			conforms := pdl.ConformsIn(tt.entity, tt.record, []byte(tt.value))
			_, _, hashed := pdl.ConformsCompactHashIn(tt.entity, tt.record, []byte(tt.value), nil)
			if conforms != (err == nil) || hashed != (err == nil) {
				t.Errorf("ValidateIn = %v, ConformsIn = %v, ConformsCompactHashIn = %v", err, conforms, hashed)
			}
			if tt.wantReason == "" {
				if err != nil {
					t.Errorf("ValidateIn: %v", err)
				}
				return
			}
			var ve *pdl.ValidationError
			if !errors.As(err, &ve) || ve.Path != tt.wantPath || ve.Reason != tt.wantReason || !ve.URN {
				t.Errorf("ValidateIn = %#v\nwant path %q, reason %q", err, tt.wantPath, tt.wantReason)
			}
			if err := pdl.Validate(tt.record, v); err != nil {
				t.Errorf("Validate, which makes no URN check: %v", err)
			}
		})
	}
}
