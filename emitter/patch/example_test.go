package patch_test

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/patch"
	"github.com/catalogkit/datahub-go/urn"
)

func ExampleNewDataset() {
	ds, err := urn.NewDataset("hive", "db.orders", "PROD")
	if err != nil {
		panic(err)
	}
	d := patch.NewDataset(ds)
	d.AddTag(aspects.TagAssociation{Tag: "urn:li:tag:pii"})
	d.AddOwner(aspects.Owner{Owner: "urn:li:corpuser:jdoe", Type: aspects.OwnershipTypeTechnicalOwner})
	d.AddCustomProperty("team", "sales")
	proposals, err := d.Proposals()
	if err != nil {
		panic(err)
	}
	// Send them with an emitter: rest.Emit(ctx, proposals...).
	for _, p := range proposals {
		value, _ := p.Aspect.(emitter.RawAspect).MarshalJSON()
		fmt.Println(p.ChangeType, p.AspectName, string(value))
	}
	// Output:
	// PATCH globalTags {"arrayPrimaryKeys":{"tags":["attribution␟source","tag"]},"patch":[{"op":"add","path":"/tags//urn:li:tag:pii","value":{"tag":"urn:li:tag:pii"}}]}
	// PATCH ownership {"arrayPrimaryKeys":{"owners":["owner","type","typeUrn","attribution␟source"]},"patch":[{"op":"add","path":"/owners/urn:li:corpuser:jdoe/TECHNICAL_OWNER//","value":{"owner":"urn:li:corpuser:jdoe","type":"TECHNICAL_OWNER"}}]}
	// PATCH datasetProperties [{"op":"add","path":"/customProperties/team","value":"sales"}]
}

func ExampleNewMLModel() {
	m, err := urn.NewMLModel("mlflow", "churn", "PROD")
	if err != nil {
		panic(err)
	}
	b := patch.NewMLModel(m)
	b.AddFeature("urn:li:mlFeature:(users,age)")
	proposals, err := b.Proposals()
	if err != nil {
		panic(err)
	}
	value, _ := proposals[0].Aspect.(emitter.RawAspect).MarshalJSON()
	fmt.Println(proposals[0].AspectName, string(value))
	// Output:
	// mlModelProperties {"arrayPrimaryKeys":{"mlFeatures":[]},"patch":[{"op":"add","path":"/mlFeatures/urn:li:mlFeature:(users,age)","value":"urn:li:mlFeature:(users,age)"}],"forceGenericPatch":true}
}

// pick returns the JSON object data with only the named members, in the
// order named (for short example output).
func pick(data []byte, members ...string) []byte {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		panic(err)
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", m, all[m])
	}
	b.WriteByte('}')
	return b.Bytes()
}
