package urn_test

import (
	"testing"

	"github.com/catalogkit/datahub-go/urn"
)

// The values are DataHub's own: tests/unit/sdk/test_mcp_builder.py,
// tests/unit/sdk_v2/test_container.py (and its container_golden), the GCS
// golden files of tests/integration/s3 and the data process instance of
// tests/unit/stateful_ingestion (golden_test_checkpoint_state.json).
func TestContainerKeyGolden(t *testing.T) {
	t.Parallel()
	ck := func(platform, instance, env string, back bool) urn.ContainerKey {
		return urn.ContainerKey{Platform: platform, Instance: instance, Env: env, BackcompatEnvAsInstance: back}
	}
	type keyURN interface{ URN() (urn.Container, error) }
	tests := []struct {
		name string
		key  keyURN
		want string
	}{
		{"schema with instance", urn.SchemaKey{ContainerKey: ck("mysql", "TestInstance", "", false), Database: "test", Schema: "Test"}, "urn:li:container:f096b3799fc86a3e5d5d0c083eb1f2a4"},
		{"schema without instance", urn.SchemaKey{ContainerKey: ck("mysql", "", "", false), Database: "test", Schema: "Test"}, "urn:li:container:693ed953c7192bcf46f8b9db36d71c2b"},
		{"schema instance and env, backcompat", urn.SchemaKey{ContainerKey: ck("mysql", "TestInstance", "PROD", true), Database: "test", Schema: "Test"}, "urn:li:container:f096b3799fc86a3e5d5d0c083eb1f2a4"},
		{"schema env as instance", urn.SchemaKey{ContainerKey: ck("mysql", "", "TestInstance", true), Database: "test", Schema: "Test"}, "urn:li:container:f096b3799fc86a3e5d5d0c083eb1f2a4"},
		{"schema env not in guid", urn.SchemaKey{ContainerKey: ck("mysql", "", "DEV", false), Database: "test", Schema: "Test"}, "urn:li:container:693ed953c7192bcf46f8b9db36d71c2b"},
		{"database bigquery", urn.DatabaseKey{ContainerKey: ck("bigquery", "", "", false), Database: "my_bq_project"}, "urn:li:container:1e476e4c36434ae8a7ea78e467e5b59d"},
		{"schema snowflake", urn.SchemaKey{ContainerKey: ck("snowflake", "my_instance", "", false), Database: "MY_DB", Schema: "MY_SCHEMA"}, "urn:li:container:66c5ac35f0bfc521dee6f7d9533a8056"},
		{"schema snowflake parent", urn.SchemaKey{ContainerKey: ck("snowflake", "my_instance", "", false), Database: "MY_DB", Schema: "MY_SCHEMA"}.Parent(), "urn:li:container:37d6500021cda2a0aa7ae1900eab5a9c"},
		{"gcs bucket (the S3/GCS source sets backcompat)", urn.BucketKey{ContainerKey: ck("gcs", "", "PROD", true), BucketName: "my-test-bucket"}, "urn:li:container:2561abe00289962faf7c8746c44491f5"},
		{"gcs folder", urn.FolderKey{ContainerKey: ck("gcs", "", "PROD", true), FolderAbsPath: "my-test-bucket/folder_a"}, "urn:li:container:fc2c4481a5801a02e1ee641697acb1c9"},
		{"gcs folder deeper", urn.FolderKey{ContainerKey: ck("gcs", "", "PROD", true), FolderAbsPath: "my-test-bucket/folder_a/folder_aa/folder_aaa"}, "urn:li:container:39bcc69ce54ac89ec9f5bbf333199a34"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.key.URN()
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Errorf("URN() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestDataProcessInstanceKeyGolden(t *testing.T) {
	t.Parallel()
	got, err := urn.DataProcessInstanceKey{Orchestrator: "dummy", ID: "job1"}.URN()
	if err != nil {
		t.Fatal(err)
	}
	if want := "urn:li:dataProcessInstance:478810e859f870a54f72c681f41af619"; got.String() != want {
		t.Errorf("URN() = %s, want %s", got, want)
	}
}

// TestPythonJSON pins the encoding against what Python's
// json.dumps(v, sort_keys=True, separators=(",", ":")) writes (ensure_ascii
// is its default).
func TestPythonJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   any
		want string
	}{
		{map[string]any{"b": "x", "a": 1, "c": nil, "d": true}, `{"a":1,"b":"x","c":null,"d":true}`},
		{map[string]any{"é": "ü", "Z": "a\"b\\c\n\t\x01\x7f"}, `{"Z":"a\"b\\c\n\t\u0001\u007f","\u00e9":"\u00fc"}`},
		{"𝄞</>&", `"\ud834\udd1e</>&"`},
		{[]any{"a", int64(-3), map[string]string{"k": "v"}}, `["a",-3,{"k":"v"}]`},
		{"\xff", `"\ufffd"`},
	}
	for _, tt := range tests {
		got, err := urn.PythonJSON(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.want {
			t.Errorf("PythonJSON(%#v) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if _, err := urn.GUID(map[string]any{"f": 1.5}); err == nil {
		t.Error("GUID of a float: no error")
	}
}

func TestNotebookKey(t *testing.T) {
	t.Parallel()
	k := urn.NotebookKey{NotebookID: 7, Platform: "mode", Instance: "prod"}
	g, err := urn.GUID(k.Fields())
	if err != nil {
		t.Fatal(err)
	}
	got, err := k.URN()
	if err != nil {
		t.Fatal(err)
	}
	if want := "urn:li:dataset:(urn:li:dataPlatform:mode,prod." + g + ",PROD)"; got.String() != want {
		t.Errorf("URN() = %s, want %s", got, want)
	}
}
