package emitter

import (
	"bytes"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/hooks"
	"github.com/catalogkit/datahub-go/urn"
)

// TestEncodePartMatchesCheck holds encodePart, which skips checkURN for the
// usual dataset proposal and finds its change type, aspect name and head
// once, to the general path: checkURN, then appendProposal. Every
// combination of the members it looks at gives the same result (URN,
// aspect, status, error text), the same bytes and the same replay flag.
func TestEncodePartMatchesCheck(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	plainDS := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	oddDS, err := urn.NewDataset("hive", `na"ïve\ ✓`, "PROD")
	if err != nil {
		t.Fatal(err)
	}
	var nilProps *aspects.DatasetProperties
	urns := []urn.URN{plainDS, oddDS, urn.Dataset{}, urn.MustParse("urn:li:corpuser:jdoe"), nil, &oddDS}
	types := []string{"", "dataset", "corpuser"}
	changes := []ChangeType{"", Upsert, Patch, Create, Delete, "BOGUS"}
	names := []string{"", "datasetProperties", "status", `we"ird`}
	values := []aspects.Aspect{nil, aspects.DatasetProperties{Description: aspects.Ptr("d\"ésc")}, nilProps, aspects.Status{Removed: true},
		RawAspect{Name: "subTypes", JSON: []byte(`{"typeNames":["a"]}`)}}
	keys := []aspects.Aspect{nil, RawAspect{Name: "datasetKey", JSON: []byte(`{"name":"x"}`)}}
	headers := []map[string]string{nil, {"If-None-Match": "*"}}
	const now = 1700000000000
	n := 0
	for _, u := range urns {
		for _, et := range types {
			for _, ct := range changes {
				for _, name := range names {
					for _, a := range values {
						for _, k := range keys {
							for _, h := range headers {
								p := Proposal{EntityType: et, URN: u, ChangeType: ct, AspectName: name, Aspect: a, KeyAspect: k, Headers: h}
								checkEncodePart(t, r, p, now)
								n++
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d proposals", n)
}

// checkEncodePart fails t when encodePart's outcome for p differs from the
// general path's.
func checkEncodePart(t *testing.T, r *REST, p Proposal, now int64) {
	t.Helper()
	var (
		items   [1]encoded
		results [1]Result
		offsets [1][2]int
	)
	buf := []byte("x")
	r.encodePart([]Proposal{p}, 3, items[:], results[:], offsets[:], now, &buf)
	got := results[0]
	nameResults(results[:], []Proposal{p})
	got.URN = results[0].URN
	var enc []byte
	if o := offsets[0]; o[1] > o[0] {
		enc = buf[o[0]:o[1]]
	}

	want := Result{Index: 3, URN: p.urnString(), Aspect: p.aspectName()}
	var wantEnc []byte
	if err := p.checkURN(want.URN); err != nil {
		want.Status, want.Err = Rejected, err
	} else if p.changeType() != Delete {
		var err error
		if wantEnc, err = appendProposal(nil, &p, now); err != nil {
			wantEnc = nil
			want.Status, want.Err = Rejected, err
		}
	}
	desc := fmt.Sprintf("%#v", p)
	if got.Index != want.Index || got.URN != want.URN || got.Aspect != want.Aspect || got.Status != want.Status ||
		fmt.Sprint(got.Err) != fmt.Sprint(want.Err) {
		t.Errorf("%s:\nresult %+v\nwant   %+v", desc, got, want)
	}
	if !bytes.Equal(enc, wantEnc) {
		t.Errorf("%s:\nwrote %s\nwant  %s", desc, enc, wantEnc)
	}
	if items[0].unsafe != !p.replaySafe() {
		t.Errorf("%s: unsafe %v", desc, items[0].unsafe)
	}
}

// TestOwnAspectIsAspectsType holds hooks.OwnAspect, which isAspectsType
// asks first, to the reflection it saves: every typed aspect it calls its
// own is a type of package aspects, value or pointer, and an aspect of
// another package is not.
func TestOwnAspectIsAspectsType(t *testing.T) {
	t.Parallel()
	for _, name := range aspects.TypedAspects() {
		a, ok := aspects.New(name)
		if !ok {
			t.Fatalf("aspects.New(%q) failed", name)
		}
		v := reflect.ValueOf(a)
		for _, x := range []any{a, v.Elem().Interface()} { // a pointer, then its value
			typ := reflect.TypeOf(x)
			if typ.Kind() == reflect.Pointer {
				typ = typ.Elem()
			}
			if own := hooks.OwnAspect(x, name); own && typ.PkgPath() != aspectsPkg {
				t.Errorf("%s (%T): own, but of package %s", name, x, typ.PkgPath())
			} else if !own {
				t.Logf("%s (%T): not own", name, x)
			}
		}
	}
	for _, a := range []aspects.Aspect{RawAspect{Name: "status"}, &RawAspect{Name: "status"}, nil, aspects.Status{}} {
		if hooks.OwnAspect(a, "datasetProperties") {
			t.Errorf("%T: own", a)
		}
	}
}

// TestOwnAspectNamesPlain checks what findShape relies on to write an
// aspect's own name as it is: the name of every type of package aspects
// that appends its own JSON is plain text in a JSON string.
func TestOwnAspectNamesPlain(t *testing.T) {
	t.Parallel()
	for _, name := range aspects.TypedAspects() {
		a, _ := aspects.New(name)
		if hooks.OwnAspect(a, name) && (!plainString(name) || name == "" || a.AspectName() != name) {
			t.Errorf("%T: name %q is not plain, or not its AspectName %q", a, name, a.AspectName())
		}
	}
}

// embeddedProps is an aspect of another package that embeds a type of
// package aspects and has its own name and JSON.
type embeddedProps struct {
	aspects.DatasetProperties
}

func (embeddedProps) AspectName() string { return `my"Props` }

func (embeddedProps) MarshalJSON() ([]byte, error) { return []byte(`{"mine":"é"}`), nil }

// TestEmbeddedAspectNotOwn checks that a type embedding one of package
// aspects (and so its appendJSON) is encoded by its own MarshalJSON and
// named by its own AspectName, escaped, not as the embedded type.
func TestEmbeddedAspectNotOwn(t *testing.T) {
	t.Parallel()
	for _, a := range []aspects.Aspect{embeddedProps{}, &embeddedProps{}} {
		if hooks.OwnAspect(a, a.AspectName()) || hooks.OwnAspect(a, "datasetProperties") {
			t.Errorf("%T: own", a)
		}
		p := Proposal{URN: urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"), Aspect: a}
		got, err := appendProposal(nil, &p, 1)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"aspectName":"my\"Props"`, `"aspect":{"value":"{\"mine\":\"\\u00e9\"}"`} {
			if !bytes.Contains(got, []byte(want)) {
				t.Errorf("%T: %s lacks %s", a, got, want)
			}
		}
	}
}

// TestIsAspectsTypeNil checks that isAspectsType answers for nil pointers
// of package aspects without calling their methods.
func TestIsAspectsTypeNil(t *testing.T) {
	t.Parallel()
	var props *aspects.DatasetProperties
	if !isAspectsType(props) {
		t.Error("nil *DatasetProperties: not of package aspects")
	}
	if isAspectsType((*RawAspect)(nil)) {
		t.Error("nil *RawAspect: of package aspects")
	}
}

// TestOwnAspectConcurrent asks hooks.OwnAspect for every typed aspect, and
// for each under another aspect's name, from several goroutines at once:
// the slots it keeps its last answers in are shared.
func TestOwnAspectConcurrent(t *testing.T) {
	t.Parallel()
	names := aspects.TypedAspects()
	want := make([]bool, len(names))
	values := make([]aspects.Aspect, len(names))
	for i, name := range names {
		values[i], _ = aspects.New(name)
		want[i] = hooks.OwnAspect(values[i], name)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for round := range 20 {
				for i := range names {
					j := (i + g + round) % len(names)
					if got := hooks.OwnAspect(values[j], names[j]); got != want[j] {
						t.Errorf("%s: own %v, want %v", names[j], got, want[j])
						return
					}
					if k := (j + 1) % len(names); hooks.OwnAspect(values[j], names[k]) {
						t.Errorf("%T under the name %s: own", values[j], names[k])
						return
					}
				}
			}
		})
	}
	wg.Wait()
}
