package emitter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// TestV3ShapeAnswersAsReflection holds encodeV3Part's use of findShape to
// the questions it replaced, for every combination of the members they
// look at: f.name and f.ct are p.aspectName() and p.changeType();
// plainWriteOf given f.own answers as without it; an aspect f.own calls
// its own is of package aspects (isAspectsType, which decides that it is
// appended in place) and its name is plain (written as it is).
func TestV3ShapeAnswersAsReflection(t *testing.T) {
	t.Parallel()
	var nilProps *aspects.DatasetProperties
	urns := []urn.URN{urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"), urn.MustParse("urn:li:corpuser:jdoe"), nil}
	values := []aspects.Aspect{nil, aspects.DatasetProperties{Description: aspects.Ptr("d")}, &aspects.DatasetProperties{}, nilProps,
		aspects.Status{Removed: true}, RawAspect{Name: "subTypes", JSON: []byte(`{}`)}, &RawAspect{Name: "status"},
		embeddedProps{}, &embeddedProps{}}
	n := 0
	for _, u := range urns {
		for _, et := range []string{"", "dataset", "corpuser"} {
			for _, ct := range []ChangeType{"", Upsert, Patch, Create, Delete, "BOGUS"} {
				for _, name := range []string{"", "datasetProperties", "status", `we"ird`} {
					for _, a := range values {
						p := Proposal{EntityType: et, URN: u, ChangeType: ct, AspectName: name, Aspect: a}
						f := findShape(&p, "")
						if f.name != p.aspectName() || f.ct != p.changeType() {
							t.Errorf("%#v: shape %q %q, want %q %q", p, f.name, f.ct, p.aspectName(), p.changeType())
						}
						if got, want := plainWriteOf(&p, f.ct, f.name, f.own), plainWriteOf(&p, p.changeType(), p.aspectName(), false); got != want {
							t.Errorf("%#v: plainWriteOf with own %v = %v, want %v", p, f.own, got, want)
						}
						if f.own && (!isAspectsType(p.Aspect) || !plainString(f.name) || f.name == "") {
							t.Errorf("%#v: own, but not of package aspects or its name %q not plain", p, f.name)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d proposals", n)
}

// disguised is an aspect of another package wrapping one of package
// aspects: the same name and JSON, which findShape does not call its own.
type disguised struct{ a aspects.Aspect }

func (d disguised) AspectName() string { return d.a.AspectName() }

func (d disguised) MarshalJSON() ([]byte, error) { return json.Marshal(d.a) }

// TestEncodeV3PartOwnMatchesGeneral holds encodeV3Part's encoding of an
// aspect findShape calls its own (appended in place, its name written as
// it is, its URN's text not built) to the general path's, that of the
// same aspect disguised as another package's, for every combination of
// the members findShape looks at; every element is JSON whose aspect key
// is the proposal's aspect name.
func TestEncodeV3PartOwnMatchesGeneral(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return time.UnixMilli(1700000000000) }
	oddDS, err := urn.NewDataset("hive", `na"ive\ x`, "PROD")
	if err != nil {
		t.Fatal(err)
	}
	urns := []urn.URN{urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"), oddDS, urn.MustParse("urn:li:corpuser:jdoe"), urn.Dataset{}}
	values := []aspects.Aspect{aspects.DatasetProperties{Description: aspects.Ptr(`d"esc`)}, &aspects.DatasetProperties{}, aspects.Status{Removed: true}}
	encode := func(p Proposal) (string, string) {
		items, results := r.encodeV3OnIn(1, []Proposal{p}, false, nil, true)
		nameResults(results, []Proposal{p})
		it, res := items[0], results[0]
		if len(it.enc) > 0 {
			var elem map[string]json.RawMessage
			if err := json.Unmarshal(it.enc, &elem); err != nil {
				t.Errorf("%#v: element %s: %v", p, it.enc, err)
			} else if _, ok := elem[p.aspectName()]; !ok && bytes.HasPrefix(it.enc, []byte(`{"urn":`)) {
				t.Errorf("%#v: element %s without key %q", p, it.enc, p.aspectName())
			}
		}
		return fmt.Sprintf("%s %s %s %s %s %v %v", it.enc, it.path, it.key, it.urn, it.aspect, it.unsafe, it.kind),
			fmt.Sprintf("%d %s %s %v %v", res.Index, res.URN, res.Aspect, res.Status, res.Err)
	}
	n := 0
	for _, u := range urns {
		for _, et := range []string{"", "dataset", "corpuser"} {
			for _, ct := range []ChangeType{"", Upsert, Create, Delete, "BOGUS"} {
				for _, name := range []string{"", "datasetProperties", "status", `we"ird`} {
					for _, a := range values {
						p := Proposal{EntityType: et, URN: u, ChangeType: ct, AspectName: name, Aspect: a}
						g := p
						g.Aspect = disguised{a}
						gotItem, gotRes := encode(p)
						wantItem, wantRes := encode(g)
						if gotItem != wantItem || gotRes != wantRes {
							t.Errorf("%#v:\nown     %s | %s\ngeneral %s | %s", p, gotItem, gotRes, wantItem, wantRes)
						}
						n++
					}
				}
			}
		}
	}
	t.Logf("%d proposals", n)
}
