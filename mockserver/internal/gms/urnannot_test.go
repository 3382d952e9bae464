package gms_test

import (
	"fmt"
	"testing"

	"github.com/catalogkit/datahub-go/mockserver/internal/gms"
)

// TestURNAnnotations checks DataHub's UrnAnnotationValidator: the
// @UrnValidation fields of every aspect (propertyDefinition's valueType,
// entityTypes and allowedPlatforms; assertions' entities) must be well
// formed, of the allowed entity types and, where "exist" is set, name an
// entity that exists; the bootstrapped entities (data types, entity
// types, data platforms) exist in a fresh core.
func TestURNAnnotations(t *testing.T) {
	t.Parallel()
	const prop = "urn:li:structuredProperty:p"
	def := func(valueType, entityTypes, more string) gms.Proposal {
		p := upsert(prop, "propertyDefinition",
			`{"qualifiedName":"p","valueType":"`+valueType+`","entityTypes":[`+entityTypes+`]`+more+`}`)
		p.EntityType = "structuredProperty"
		return p
	}
	invalid := func(aspect string, msgs ...string) string {
		return fmt.Sprintf(gms.MsgAspectInvalid, prop, aspect, gms.JoinMessages(msgs, ", "))
	}
	const ds = `"urn:li:entityType:datahub.dataset"`
	tests := []struct {
		name string
		p    gms.Proposal
		msg  string // "" accepted
	}{
		{"bootstrapped", def("urn:li:dataType:datahub.string", ds+`,"urn:li:entityType:datahub.dataFlow"`,
			`,"allowedPlatforms":["urn:li:dataPlatform:hive","urn:li:dataPlatform:OpenApi"]`), ""},
		{"value type missing", def("urn:li:dataType:datahub.DOES_NOT_EXIST", ds, ""),
			invalid("propertyDefinition", fmt.Sprintf(gms.MsgURNMissing, "/valueType", "urn:li:dataType:datahub.DOES_NOT_EXIST"))},
		{"value type of another entity type", def("urn:li:container:datahub.string", ds, ""),
			invalid("propertyDefinition", fmt.Sprintf(gms.MsgURNWrongType, "[dataType]", "/valueType", "urn:li:container:datahub.string"))},
		{"entity type missing", def("urn:li:dataType:datahub.string", ds+`,"urn:li:entityType:datahub.nothing"`, ""),
			invalid("propertyDefinition", fmt.Sprintf(gms.MsgURNMissing, "/entityTypes", "urn:li:entityType:datahub.nothing"))},
		{"platform missing", def("urn:li:dataType:datahub.string", ds, `,"allowedPlatforms":["urn:li:dataPlatform:nowhere"]`),
			invalid("propertyDefinition", fmt.Sprintf(gms.MsgURNMissing, "/allowedPlatforms", "urn:li:dataPlatform:nowhere"))},
		{"type failures first", def("urn:li:corpuser:x", `"urn:li:entityType:datahub.nothing"`, ""),
			invalid("propertyDefinition", fmt.Sprintf(gms.MsgURNWrongType, "[dataType]", "/valueType", "urn:li:corpuser:x"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := newCore(t, gms.Options{})
			err := c.Ingest(t.Context(), []gms.Proposal{tt.p}, gms.IngestOptions{})
			if tt.msg == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			refused(t, err, gms.Invalid, tt.msg)
			if ok, _ := c.Exists(t.Context(), prop); ok {
				t.Fatal("a refused definition was written")
			}
		})
	}
	t.Run("written platform exists", func(t *testing.T) {
		t.Parallel()
		c := newCore(t, gms.Options{})
		pl := upsert("urn:li:dataPlatform:mine", "dataPlatformInfo", `{"name":"mine","type":"OTHERS","datasetNameDelimiter":"."}`)
		pl.EntityType = "dataPlatform"
		if err := c.Ingest(t.Context(), []gms.Proposal{pl}, gms.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
		p := def("urn:li:dataType:datahub.string", ds, `,"allowedPlatforms":["urn:li:dataPlatform:mine"]`)
		if err := c.Ingest(t.Context(), []gms.Proposal{p}, gms.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("assertion run event", func(t *testing.T) {
		t.Parallel()
		c := newCore(t, gms.Options{})
		const a = "urn:li:assertion:a1"
		run := func(assertee string) gms.Proposal {
			p := upsert(a, "assertionRunEvent", `{"timestampMillis":1,"runId":"r","asserteeUrn":"`+assertee+`","assertionUrn":"`+a+`","status":"COMPLETE"}`)
			p.EntityType = "assertion"
			return p
		}
		const job = "urn:li:dataJob:(urn:li:dataFlow:(airflow,f,PROD),j)"
		err := c.Ingest(t.Context(), []gms.Proposal{run(job)}, gms.IngestOptions{})
		refused(t, err, gms.Invalid, fmt.Sprintf(gms.MsgAspectInvalid, a, "assertionRunEvent",
			fmt.Sprintf(gms.MsgURNWrongType, "[dataset]", "/asserteeUrn", job)))
		// exist is false for assertions: a dataset nobody wrote is accepted
		if err := c.Ingest(t.Context(), []gms.Proposal{run("urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)")}, gms.IngestOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestSeedBootstrap checks the entities a fresh GMS bootstraps: the data
// platforms of DataHub's bootstrap file (the last of its two presto
// entries), the data types and one entity type per registry entity.
func TestSeedBootstrap(t *testing.T) {
	t.Parallel()
	c := newCore(t, gms.Options{})
	if err := c.SeedBootstrap(t.Context()); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, latest(t, c, "urn:li:dataPlatform:OpenApi", "dataPlatformInfo"),
		`{"name":"openapi","datasetNameDelimiter":".","type":"OTHERS","displayName":"OpenAPI","logoUrl":"assets/platforms/openapilogo.png"}`)
	sameJSON(t, latest(t, c, "urn:li:dataPlatform:presto", "dataPlatformInfo"),
		`{"name":"presto","datasetNameDelimiter":".","type":"QUERY_ENGINE","displayName":"Presto","logoUrl":"assets/platforms/prestologo.png"}`)
	sameJSON(t, latest(t, c, "urn:li:dataType:datahub.string", "dataTypeInfo"),
		`{"qualifiedName":"datahub.string","displayName":"String","description":"A string of characters."}`)
	sameJSON(t, latest(t, c, "urn:li:entityType:datahub.dataset", "entityTypeInfo"),
		`{"qualifiedName":"datahub.dataset","displayName":"dataset"}`)
	for _, u := range []string{"urn:li:dataPlatform:hive", "urn:li:dataType:datahub.date", "urn:li:entityType:datahub.dataFlow",
		"urn:li:ownershipType:__system__none"} {
		if !gms.IsBootstrapped(u) {
			t.Errorf("IsBootstrapped(%s) = false", u)
		}
	}
	if gms.IsBootstrapped("urn:li:dataPlatform:nowhere") {
		t.Error("IsBootstrapped(urn:li:dataPlatform:nowhere) = true")
	}
}
