package gms

import (
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl"
	"github.com/catalogkit/datahub-go/urn"
)

// urnVerdict is what the URN check of a value should find, by the repo's
// URN parser: "" (accepted), "syntax", "entity", "parts" or "class".
func urnVerdict(u pdl.URNTyperef, s string) string {
	g, err := urn.ParseGeneric(s)
	if err != nil {
		return "syntax"
	}
	e, ok := pdl.LookupEntity(g.EntityType())
	if !ok {
		return "entity"
	}
	names, _, ok := keyFieldsOf(e)
	if ok && len(g.Parts()) != len(names) {
		return "parts"
	}
	if u.EntityType != "" {
		_, err := urn.Parse(s)
		_, warned := parseWarnOnly(s)
		if (err != nil && !warned) || g.EntityType() != u.EntityType {
			return "class"
		}
	}
	return ""
}

// reasonVerdict is the verdict urnValueReason's answer gives.
func reasonVerdict(reason string) string {
	switch {
	case reason == "":
		return ""
	case strings.HasPrefix(reason, "Entity type ") && strings.HasSuffix(reason, " is missing from entity registry"):
		return "entity"
	case strings.HasPrefix(reason, "Failed to convert urn to entity key"):
		return "parts"
	case strings.HasPrefix(reason, "Unable to instantiate urn type: "):
		return "class"
	}
	return "syntax"
}

var urnSeeds = []string{
	"", "not a urn", "urn:li:corpuser:jdoe", "urn:li:person:jdoe", "urn:li:mlFeature:broken", "urn:li:mlFeature:(users,age)",
	"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,NOTANENV)",
	"urn:li:dataset:(hive,db.t,PROD)", "urn:li:dataset:x", "urn:li:dataset:(urn:li:dataPlatform:hive,(a,b),PROD)", "urn:li:dataset:(urn:li:dataPlatform:hive,x(y),PROD)",
	"urn:li:dataJob:(urn:li:dataFlow:(airflow,f,prod),j)", "urn:li:dataJob:(notaflow,j)", "urn:li:dataPlatform:hive",
	"urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),c)", "urn:li:schemaField:x", " urn:li:tag:t",
	"urn:li:tag:(a,b)", "urn:li:glossaryTerm:a.b", "urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD,extra)", "urn:li::x",
}

var urnTyperefNames = []string{"com.linkedin.common.Urn", "com.linkedin.common.DatasetUrn", "com.linkedin.common.MLFeatureUrn",
	"com.linkedin.common.DataJobUrn", "com.linkedin.common.CorpuserUrn", "com.linkedin.common.DatasetFieldUrn"}

// TestURNValueReason checks the URN check against the repo's URN parser
// on a table of values, for generic and typed typerefs.
func TestURNValueReason(t *testing.T) {
	t.Parallel()
	got := map[string]int{}
	for _, name := range urnTyperefNames {
		u, ok := pdl.LookupURNTyperef(name)
		if !ok {
			t.Fatalf("no URN typeref %s", name)
		}
		for _, s := range urnSeeds {
			want := urnVerdict(u, s)
			if v := reasonVerdict(urnValueReason(u, s)); v != want {
				t.Errorf("%s %q: %q (%s), want %s", name, s, urnValueReason(u, s), v, want)
			}
			got[want]++
		}
	}
	for _, v := range []string{"", "syntax", "entity", "parts", "class"} {
		if got[v] == 0 {
			t.Errorf("no value of the table is %q", v)
		}
	}
	for s, want := range map[string]string{
		"not a urn":                  `missing "urn:li:" prefix`,
		"urn:li:person:jdoe":         "Entity type person is missing from entity registry",
		"urn:li:mlFeature:broken":    "Failed to convert urn to entity key: urns parts and key fields do not have same length for urn:li:mlFeature:broken",
		"urn:li:corpuser:jdoe":       "Unable to instantiate urn type: MLFeatureUrn with urn: urn:li:corpuser:jdoe",
		"urn:li:mlFeature:(ns,f(1))": "", // raw parentheses in a part: GMS only warns
	} {
		u, _ := pdl.LookupURNTyperef("com.linkedin.common.MLFeatureUrn")
		if got := urnValueReason(u, s); got != want {
			t.Errorf("urnValueReason(MLFeatureUrn, %q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzURNValueReason holds the URN check to the repo's URN parser.
func FuzzURNValueReason(f *testing.F) {
	for i, s := range urnSeeds {
		f.Add(s, uint8(i))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		u, _ := pdl.LookupURNTyperef(urnTyperefNames[int(which)%len(urnTyperefNames)])
		reason := urnValueReason(u, s)
		if v, want := reasonVerdict(reason), urnVerdict(u, s); v != want {
			t.Fatalf("%s %q: %q (%s), want %s", u.Name, s, reason, v, want)
		}
		if len(reason) > 4*maxEcho {
			t.Fatalf("%d bytes of reason: %.100s...", len(reason), reason)
		}
	})
}

// TestSystemMetadataURNsUnchecked checks that a proposal's systemMetadata
// gets Rest.li's record check only: GMS's URN check is for entities'
// aspects, so an audit stamp there may name any actor.
func TestSystemMetadataURNsUnchecked(t *testing.T) {
	t.Parallel()
	v := []byte(`{"runId":"r","aspectModified":{"time":1,"actor":"not a urn"}}`)
	if _, err := CheckSystemMetadata(v); err != nil {
		t.Errorf("CheckSystemMetadata(%s): %v", v, err)
	}
}
