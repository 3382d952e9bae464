package kafka

import (
	"bytes"
	"encoding/binary"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/linkedin/goavro/v2"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/emitter"
	"github.com/catalogkit/datahub-go/internal/mcpwire"
	"github.com/catalogkit/datahub-go/urn"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// goldenProposal is the proposal pinned by TestGoldenUpsert.
func goldenProposal(t testing.TB) emitter.Proposal {
	t.Helper()
	u, err := urn.NewMLModel("mlflow", "churn", "PROD")
	if err != nil {
		t.Fatal(err)
	}
	desc := "Churn – predicts leaving customers"
	return emitter.Proposal{
		URN:            u,
		Aspect:         aspects.MLModelProperties{Description: &desc},
		SystemMetadata: &aspects.SystemMetadata{RunID: aspects.Ptr("run-7"), Properties: map[string]string{"clientId": "datahub-go", "clientVersion": "1.2.3"}},
		Headers:        map[string]string{"If-None-Match": "*"},
	}
}

// avroReader reads Avro binary encoding, independently of goavro.
type avroReader struct {
	t *testing.T
	b []byte
}

func (r *avroReader) long() int64 {
	r.t.Helper()
	v, n := binary.Varint(r.b) // Avro's zig-zag varint is encoding/binary's
	if n <= 0 {
		r.t.Fatalf("bad varint at %x", r.b)
	}
	r.b = r.b[n:]
	return v
}

func (r *avroReader) bytes() []byte {
	r.t.Helper()
	n := r.long()
	if n < 0 || int(n) > len(r.b) {
		r.t.Fatalf("bad length %d", n)
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *avroReader) str() string { return string(r.bytes()) }

// branch reads a union index and fails unless it is want.
func (r *avroReader) branch(field string, want int64) {
	r.t.Helper()
	if got := r.long(); got != want {
		r.t.Fatalf("%s: union branch %d, want %d", field, got, want)
	}
}

// stringMap reads a map of strings (one block, then the end block).
func (r *avroReader) stringMap() map[string]string {
	m := map[string]string{}
	for n := r.long(); n != 0; n = r.long() {
		if n < 0 { // a block with its size in bytes
			n = -n
			r.long()
		}
		for range n {
			k := r.str()
			m[k] = r.str()
		}
	}
	return m
}

// TestGoldenUpsert pins the Confluent wire format of one proposal and reads
// it back field by field, in the order and with the union branches of
// MCPSchema.
func TestGoldenUpsert(t *testing.T) {
	gp := goldenProposal(t)
	w, err := mcpwire.FromProposal(&gp, time.UnixMilli(1700000000000))
	if err != nil {
		t.Fatal(err)
	}
	codec, err := goavro.NewCodec(MCPSchema)
	if err != nil {
		t.Fatal(err)
	}
	got, err := encode(codec, 42, &w)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 { // map entries are written in key order
		again, err := encode(codec, 42, &w)
		if err != nil || !bytes.Equal(again, got) {
			t.Fatalf("encoding the same proposal again gave %x, %v", again, err)
		}
	}
	golden := filepath.Join("testdata", "upsert.bin")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("encoding differs from %s (run with -update if intended):\nwant %x\ngot  %x", golden, want, got)
	}

	if got[0] != 0 || binary.BigEndian.Uint32(got[1:5]) != 42 {
		t.Fatalf("header % x, want magic 0 and schema id 42", got[:5])
	}
	r := &avroReader{t: t, b: got[5:]}
	r.branch("auditHeader", 0) // null
	check := func(field, want, got string) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %q, want %q", field, got, want)
		}
	}
	check("entityType", "mlModel", r.str())
	r.branch("entityUrn", 1)
	check("entityUrn", "urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)", r.str())
	r.branch("entityKeyAspect", 0)
	if ct := r.long(); ct != 0 {
		t.Errorf("changeType symbol %d, want 0 (UPSERT)", ct)
	}
	r.branch("aspectName", 1)
	check("aspectName", "mlModelProperties", r.str())
	r.branch("aspect", 1)
	check("aspect.value", `{"customProperties":{},"description":"Churn \u2013 predicts leaving customers","tags":[]}`, r.str())
	check("aspect.contentType", "application/json", r.str())
	r.branch("systemMetadata", 1)
	r.branch("systemMetadata.lastObserved", 0) // ["long","null"]
	if lo := r.long(); lo != 1700000000000 {
		t.Errorf("lastObserved = %d", lo)
	}
	r.branch("systemMetadata.runId", 0) // ["string","null"]
	check("runId", "run-7", r.str())
	r.branch("systemMetadata.lastRunId", 0)
	check("lastRunId", emitter.DefaultRunID, r.str())
	r.branch("systemMetadata.pipelineName", 0)
	r.branch("systemMetadata.registryName", 0)
	r.branch("systemMetadata.registryVersion", 0)
	r.branch("systemMetadata.properties", 1)
	if diff := cmp.Diff(w.SystemMetadata.Properties, r.stringMap()); diff != "" {
		t.Errorf("properties (-want +got):\n%s", diff)
	}
	for _, f := range []string{"version", "schemaVersion", "aspectCreated", "aspectModified"} {
		r.branch("systemMetadata."+f, 0)
	}
	r.branch("headers", 1)
	if diff := cmp.Diff(map[string]string{"If-None-Match": "*"}, r.stringMap()); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if len(r.b) != 0 {
		t.Errorf("%d bytes left after the last field", len(r.b))
	}
}

// TestAvroRoundTrip checks that every change type survives encoding and
// decoding unchanged, and that appendMCP writes what goavro reads as
// goavro's own encoding.
func TestAvroRoundTrip(t *testing.T) {
	t.Parallel()
	codec, err := goavro.NewCodec(MCPSchema)
	if err != nil {
		t.Fatal(err)
	}
	base := goldenProposal(t)
	for _, ct := range []emitter.ChangeType{emitter.Upsert, emitter.Create, emitter.CreateEntity, emitter.Update, emitter.Restate, emitter.Patch, emitter.Delete} {
		p := base
		p.ChangeType = ct
		switch ct {
		case emitter.Delete:
			p.Aspect, p.AspectName, p.Headers = nil, "mlModelKey", nil
		case emitter.Patch:
			p.Aspect = emitter.RawAspect{Name: "mlModelProperties", JSON: []byte(`[{"op":"add","path":"/description","value":"x"}]`)}
		}
		p.KeyAspect = aspects.MLModelKey{Platform: "urn:li:dataPlatform:mlflow", Name: "churn", Origin: "PROD"}
		if ct == emitter.Upsert { // every system metadata field, the audit stamps' too
			sm := *p.SystemMetadata
			sm.PipelineName, sm.RegistryName, sm.RegistryVersion, sm.Version = aspects.Ptr("p"), aspects.Ptr("n"), aspects.Ptr("v"), aspects.Ptr("3")
			sm.SchemaVersion = aspects.Ptr[int64](2)
			sm.AspectCreated = &aspects.AuditStamp{Time: 5, Actor: "urn:li:corpuser:a", Impersonator: aspects.Ptr("urn:li:corpuser:b"), Message: aspects.Ptr("m")}
			sm.AspectModified = &aspects.AuditStamp{Time: 6, Actor: "urn:li:corpuser:c"}
			p.SystemMetadata = &sm
		}
		w, err := mcpwire.FromProposal(&p, time.UnixMilli(1))
		if err != nil {
			t.Fatalf("%s: %v", ct, err)
		}
		b, err := encode(codec, 1, &w)
		if err != nil {
			t.Fatalf("%s: %v", ct, err)
		}
		viaGoavro, err := frame(codec, 1, nativeProposal(&w))
		if err != nil {
			t.Fatalf("%s: %v", ct, err)
		}
		if len(viaGoavro) != len(b) {
			t.Errorf("%s: appendMCP wrote %d bytes, goavro %d", ct, len(b), len(viaGoavro))
		}
		fromGoavro, _, err := codec.NativeFromBinary(viaGoavro[5:])
		if err != nil {
			t.Fatal(err)
		}
		id, payload, err := unframe(b)
		if err != nil || id != 1 {
			t.Fatalf("%s: unframe = %d, %v", ct, id, err)
		}
		native, rest, err := codec.NativeFromBinary(payload)
		if err != nil || len(rest) != 0 {
			t.Fatalf("%s: decode: %v (%d bytes left)", ct, err, len(rest))
		}
		got, err := wireProposal(native)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(w, got); diff != "" {
			t.Errorf("%s round trip (-want +got):\n%s", ct, diff)
		}
		if diff := cmp.Diff(fromGoavro, native); diff != "" {
			t.Errorf("%s: appendMCP and goavro decode differently (-goavro +appendMCP):\n%s", ct, diff)
		}
	}
}

func TestUnframeRefusesOtherFormats(t *testing.T) {
	t.Parallel()
	for _, b := range [][]byte{nil, {0, 0, 0}, {1, 0, 0, 0, 1, 2}, []byte(`{"entityType":"x"}`)} {
		if _, _, err := unframe(b); err == nil {
			t.Errorf("unframe(%q) = nil error", b)
		}
	}
}
