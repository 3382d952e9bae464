package gotypes

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/internal/pdl/gen/generate"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// testModel is the small PDL tree of testdata/pdl with its registry: entity
// thing, key thingKey, aspect thingProperties; Stamp is declared by hand.
func testModel(t *testing.T) *Model {
	t.Helper()
	decls, err := generate.LoadTree(filepath.Join("testdata", "pdl"))
	if err != nil {
		t.Fatal(err)
	}
	return &Model{
		Decls: decls,
		Aspects: []AspectDef{
			{Name: "thingKey", Record: "com.example.thing.ThingKey", Entities: []string{"thing"}, KeyOf: "thing"},
			{Name: "thingProperties", Record: "com.example.thing.ThingProperties", Entities: []string{"thing", "gadget"}},
		},
		Entities: []EntityDef{
			{Name: "thing", KeyAspect: "thingKey", KeyRecord: "com.example.thing.ThingKey"},
			{Name: "gadget", KeyAspect: "gadgetKey", KeyRecord: "com.example.thing.GadgetKey"},
			{Name: "handMade", KeyAspect: "thingKey", KeyRecord: "com.example.thing.ThingKey"},
		},
		Hand: map[string]string{"Stamp": "Stamp is a stamp (com.example.common.Stamp).\n"},
	}
}

// TestGoldenURN compares the URN types generated for the test model (entity
// handMade being typed by hand) with testdata/golden/urn.
func TestGoldenURN(t *testing.T) {
	t.Parallel()
	files, err := GenerateURN(testModel(t), map[string]bool{"handMade": true})
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, files, filepath.Join("testdata", "golden", "urn"))
}

// TestGolden compares the generator's output for testdata/pdl with
// testdata/golden (go test -update rewrites it).
func TestGolden(t *testing.T) {
	t.Parallel()
	files, err := Generate(testModel(t))
	if err != nil {
		t.Fatal(err)
	}
	compareGolden(t, files, filepath.Join("testdata", "golden"))
}

// compareGolden compares files with the *.golden files of dir (go test
// -update rewrites them).
func compareGolden(t *testing.T, files map[string][]byte, dir string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for n, data := range files {
			if err := os.WriteFile(filepath.Join(dir, n+".golden"), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	got := make([]string, 0, len(files))
	for n := range files {
		got = append(got, n+".golden")
	}
	slices.Sort(got)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range ents {
		if !e.IsDir() {
			want = append(want, e.Name())
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("generated file names (-golden +got):\n%s", diff)
	}
	for n, data := range files {
		g, err := os.ReadFile(filepath.Join(dir, n+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(g), string(data)); diff != "" {
			t.Errorf("%s differs from its golden file (-golden +got):\n%s", n, diff)
		}
	}
}

// TestDeterministic generates twice and gets the same bytes.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	a, err := Generate(testModel(t))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Generate(testModel(t))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("two runs differ:\n%s", diff)
	}
}

func TestGenerateErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(m *Model)
		want   string
	}{
		{"missing record", func(m *Model) { m.Aspects[0].Record = "com.example.thing.Nope" },
			"com.example.thing.Nope: type not found"},
		{"aspect not a record", func(m *Model) { m.Aspects[0].Record = "com.example.thing.ThingState" },
			"aspect thingKey: com.example.thing.ThingState is not a record"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := testModel(t)
			tt.change(m)
			_, err := Generate(m)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Generate: %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestNameClash checks the rule for two types that want one Go name: a
// record whose name a hand-written type of another record holds gets its
// namespace's last part as prefix. (The golden files show two records named
// Settings: CommonSettings, and ComExampleThingSettings (the whole namespace,
// com.linkedin. aside) because ThingSettings is
// taken.)
func TestNameClash(t *testing.T) {
	t.Parallel()
	m := testModel(t)
	m.Hand["ThingSettings"] = "ThingSettings is something else.\n"
	files, err := Generate(m)
	if err != nil {
		t.Fatal(err)
	}
	src := string(files["com_example_thing_gen.go"]) + string(files["com_example_common_gen.go"])
	for _, want := range []string{"type ThingThingSettings struct", "Settings *ThingThingSettings `json:\"settings\"`", "type CommonSettings struct", "type ComExampleThingSettings struct"} {
		if !strings.Contains(src, want) {
			t.Errorf("generated code lacks %q", want)
		}
	}
	if strings.Contains(src, "type ThingSettings struct") {
		t.Error("generated code declares the hand-written ThingSettings")
	}
}

func TestGoName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"externalUrl": "ExternalURL", "mlFeatures": "MLFeatures", "testDefinitionMd5": "TestDefinitionMD5",
		"jsonPath": "JSONPath", "messageId": "MessageID", "topSqlQueries": "TopSQLQueries", "MySqlDDL": "MySQLDDL",
		"FULL_TABLE": "FullTable", "OLAP_DATASTORE": "OlapDatastore", "N_N": "NN", "urn": "URN", "typeUrn": "TypeURN",
		"EditableMLFeatureProperties": "EditableMLFeatureProperties", "DataHubUpgradeState": "DataHubUpgradeState",
		"v2": "V2", "outputUrls": "OutputURLs", "assetUrns": "AssetURNs", "IDS": "IDs", "SQL": "SQL", "dataset": "Dataset", "_x": "X",
	} {
		if got := goName(in); got != want {
			t.Errorf("goName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := fieldName("aspectName"); got != "AspectName_" {
		t.Errorf("fieldName(aspectName) = %q", got)
	}
}
