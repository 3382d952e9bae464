package urn

import (
	"flag"
	"reflect"
	"testing"

	"github.com/catalogkit/datahub-go/urn/internal/urnold"
)

var oldCorpus = flag.Bool("oldcorpus", false, "write testdata/corpus.jsonl from package urnold")

// TestWriteOldCorpus writes the corpus from package urnold, the package as
// it was before the fast paths, with -oldcorpus.
func TestWriteOldCorpus(t *testing.T) {
	if !*oldCorpus {
		t.Skip("-oldcorpus not given")
	}
	pn, _ := parsers(t)
	bn, _ := builders()
	var oldTypes []reflect.Type
	for _, s := range allSamples() {
		if s == "urn:li:other:x" {
			continue
		}
		u, err := urnold.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		oldTypes = append(oldTypes, reflect.TypeOf(u))
	}
	oldTypes = append(oldTypes, reflect.TypeFor[urnold.Generic]())
	for i, ty := range oldTypes {
		if "Parse"+ty.Name() != pn[i+1] {
			t.Fatalf("old parser %d is %s, new %s", i, ty.Name(), pn[i+1])
		}
	}
	parse := func(s string) []string {
		out := []string{outcome(resultOf(urnold.Parse(s)))}
		for _, ty := range oldTypes {
			out = append(out, typeless(outcome(unmarshalAs(ty, s)), ty))
		}
		return out
	}
	build := func(s, platform, env, nested string) []string {
		var n URN
		var on urnold.URN
		if u, err := Parse(nested); err == nil {
			n = u
			if on, err = urnold.Parse(nested); err != nil {
				t.Fatalf("urnold.Parse(%q): %v", nested, err)
			}
		}
		old := []result{
			resultOf(urnold.NewDataset(platform, s, env)),
			resultOf(urnold.NewMLModel(platform, s, env)),
			resultOf(urnold.NewMLModelGroup(platform, s, env)),
			resultOf(urnold.NewMLFeature(s, platform)),
			resultOf(urnold.NewMLFeatureTable(platform, s)),
			resultOf(urnold.NewCorpUser(s)),
			resultOf(urnold.NewDataPlatform(s)),
			resultOf(urnold.NewTest(s)),
			resultOf(urnold.NewTag(s)),
			resultOf(urnold.NewGlossaryTerm(s)),
			resultOf(urnold.NewSchemaField(on, s)),
			resultOf(urnold.NewGeneric(env, s, platform)),
		}
		got, o := buildGeneratedOld(s, platform, env, n, on)
		for i, g := range got {
			if name := "New" + reflect.TypeOf(g.u).Name(); name != bn[len(handBuilders)+i] {
				t.Fatalf("old builder %d is %s, new %s", i, name, bn[len(handBuilders)+i])
			}
		}
		old = append(old, o...)
		var out []string
		for _, r := range old {
			out = append(out, typeless(outcome(r), reflect.TypeOf(r.u)))
		}
		return out
	}
	writeCorpus(t, corpusHead{pn, bn}, parse, build)
}
