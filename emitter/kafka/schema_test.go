package kafka_test

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/sr"

	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/emitter/kafka"
	"github.com/catalogkit/datahub-go/internal/testshared"
)

// TestSchemaResolution checks the three ways the Emitter finds its schema:
// registering MCPSchema (the default), the subject's latest version, or a
// registered id, here the older schema of DataHub's Java client.
func TestSchemaResolution(t *testing.T) {
	t.Parallel()
	javaSchema := string(testshared.ReadFile(t, "reference", "datahub", "extra-older", "metadata-integration", "java",
		"datahub-client", "src", "main", "resources", "MetadataChangeProposal.avsc"))
	subject := kafka.DefaultMCPTopic + "-value"

	t.Run("latest version of the subject", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, 1)
		id, _, err := e.reg.RegisterSchema(subject, sr.Schema{Schema: kafka.MCPSchema, Type: sr.TypeAvro})
		if err != nil {
			t.Fatal(err)
		}
		em := e.emitter(t, kafka.WithAutoRegister(false))
		got, err := em.SchemaID(context.Background())
		if err != nil || got != id {
			t.Fatalf("SchemaID = %d, %v; want %d", got, err, id)
		}
		b, _ := e.bridge(t)
		u := dataset(t, "latest")
		if err := em.Emit(context.Background(), emitter.Proposal{URN: u, Aspect: props("latest")}); err != nil {
			t.Fatal(err)
		}
		syncBridge(t, b)
		if got := getJSON(t, e, u.String(), "datasetProperties"); !contains(got, `"latest"`) {
			t.Errorf("datasetProperties = %s", got)
		}
	})

	t.Run("no schema registered and registration off", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, 1)
		em := e.emitter(t, kafka.WithAutoRegister(false))
		err := em.Emit(context.Background(), emitter.Proposal{URN: dataset(t, "x"), Aspect: props("x")})
		var be *emitter.BatchError
		if !errors.As(err, &be) || len(be.Results) != 1 || be.Results[0].Status != emitter.NotAttempted {
			t.Fatalf("Emit = %v, want a BatchError with the proposal not attempted", err)
		}
		if e.reg.SubjectExists(subject) {
			t.Errorf("the subject was registered with registration off")
		}
	})

	t.Run("registered id of the Java client's older schema", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t, 1)
		id, _, err := e.reg.RegisterSchema("older", sr.Schema{Schema: javaSchema, Type: sr.TypeAvro})
		if err != nil {
			t.Fatal(err)
		}
		em := e.emitter(t, kafka.WithSchemaID(id))
		b, rec := e.bridge(t)
		u, v := dataset(t, "older"), dataset(t, "newer")
		err = em.Emit(context.Background(),
			emitter.Proposal{URN: u, Aspect: props("old schema")},
			emitter.Proposal{URN: v, ChangeType: emitter.CreateEntity, Aspect: props("no such symbol")},
		)
		var be *emitter.BatchError
		if !errors.As(err, &be) {
			t.Fatalf("Emit = %v, want a BatchError (CREATE_ENTITY is not in the older schema)", err)
		}
		if diff := cmp.Diff([]int{0}, be.Written()); diff != "" {
			t.Errorf("written (-want +got):\n%s", diff)
		}
		if f := be.Failures(); len(f) != 1 || f[0].Index != 1 || f[0].Status != emitter.Rejected {
			t.Errorf("failures = %+v, want index 1 rejected", f)
		}
		if n := syncBridge(t, b); n != 1 {
			t.Errorf("bridge handled %d messages, want 1", n)
		}
		if got := rec.list(); len(got) != 1 || got[0].Err != nil || got[0].URN != u.String() {
			t.Errorf("applied = %+v", got)
		}
		if got := getJSON(t, e, u.String(), "datasetProperties"); !contains(got, "old schema") {
			t.Errorf("datasetProperties = %s", got)
		}
		if e.reg.SubjectExists(subject) {
			t.Errorf("the subject was registered although a schema id was given")
		}
	})
}
