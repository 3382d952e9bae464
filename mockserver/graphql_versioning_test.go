package mockserver_test

import (
	"encoding/json"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver"
)

// TestGraphQLVersioningOn checks linkAssetVersion and unlinkAssetVersion
// with the entityVersioning flag on: two models linked (the second the
// latest), a link repeated (null), a wrong-type set refused, and unlinking
// the latest making the first the latest again. (With the flag off they
// are refused: TestGraphQLMutationFamilies.)
func TestGraphQLVersioningOn(t *testing.T) {
	t.Parallel()
	s := mockserver.Start(t, mockserver.WithEntityVersioning(true))
	const set = "urn:li:versionSet:(churn,mlModel)"
	m1 := "urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn_v1,PROD)"
	m2 := "urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn_v2,PROD)"
	for _, m := range []string{m1, m2} {
		if err := s.PutAspectJSON(m, "mlModelProperties", json.RawMessage(`{"description":"churn"}`)); err != nil {
			t.Fatal(err)
		}
	}
	link := `mutation($s: String!, $e: String!, $v: String!) { linkAssetVersion(input: {versionSet: $s, linkedEntity: $e, version: $v, comment: "retrained"}) { urn type } }`
	got := gqlData(t, s, link, map[string]any{"s": set, "e": m1, "v": "1"})
	contains(t, "linkAssetVersion", asJSON(got), `{"linkAssetVersion":{"type":"VERSION_SET","urn":"`+set+`"}}`)
	gqlData(t, s, link, map[string]any{"s": set, "e": m2, "v": "2"})
	contains(t, "versionProperties", restAspect(t, s, m2, "versionProperties"), `"versionTag":"2"`, `"sortId":"AAAAAAAB"`, `"comment":"retrained"`)
	contains(t, "versionSetProperties", restAspect(t, s, set, "versionSetProperties"), `"latest":"`+m2+`"`)
	again := gqlData(t, s, link, map[string]any{"s": set, "e": m2, "v": "2"})
	contains(t, "linkAssetVersion again", asJSON(again), `{"linkAssetVersion":null}`)
	msg, code := gqlError(t, s, link, map[string]any{"s": "urn:li:versionSet:(x,dataset)", "e": m1, "v": "1"})
	if code != 400 || msg != "Entity type must match Version Set's specified type: dataset invalid type: mlModel" {
		t.Errorf("wrong type: %q %v", msg, code)
	}
	unlink := `mutation($s: String!, $e: String!) { unlinkAssetVersion(input: {versionSet: $s, unlinkedEntity: $e}) { urn } }`
	got = gqlData(t, s, unlink, map[string]any{"s": set, "e": m2})
	contains(t, "unlinkAssetVersion", asJSON(got), `{"unlinkAssetVersion":{"urn":"`+set+`"}}`)
	contains(t, "versionSetProperties", restAspect(t, s, set, "versionSetProperties"), `"latest":"`+m1+`"`)
	got = gqlData(t, s, unlink, map[string]any{"s": set, "e": m2})
	contains(t, "unlinkAssetVersion again", asJSON(got), `{"unlinkAssetVersion":null}`)
}
