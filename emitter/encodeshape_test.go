package emitter

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/urn"
)

// shapeFields are the values FuzzEncodePartShapes builds proposals of,
// one list for each member usualOf looks at: each byte of the input picks
// one value of each list.
type shapeFields struct {
	urns     []urn.URN
	types    []string
	changes  []ChangeType
	names    []string
	values   []aspects.Aspect
	keys     []aspects.Aspect
	sms      []*aspects.SystemMetadata
	headers  []map[string]string
	contents []string
}

// newShapeFields returns the values of the members: plain and other
// dataset URNs, other URN types, aspects of package aspects (values,
// pointers, a nil pointer, one that fails to encode), others, and each
// member that takes a proposal off the usual path.
func newShapeFields(t testing.TB) *shapeFields {
	oddDS, err := urn.NewDataset("hive", `na"ïve\ ✓`, "PROD")
	if err != nil {
		t.Fatal(err)
	}
	var nilProps *aspects.DatasetProperties
	nan := float32(math.NaN())
	return &shapeFields{
		urns: []urn.URN{
			urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"),
			urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:kafka,topic.x,DEV)"),
			oddDS, urn.Dataset{}, urn.MustParse("urn:li:corpuser:jdoe"), nil, &oddDS,
		},
		types:   []string{"", "dataset", "corpuser"},
		changes: []ChangeType{"", Upsert, Patch, Create, Delete, "BOGUS"},
		names:   []string{"datasetProperties", "", "status", "upstreamLineage", `we"ird`, slotMate("datasetProperties"), slotMate("status")},
		values: []aspects.Aspect{
			aspects.DatasetProperties{Description: aspects.Ptr("d\"ésc")},
			aspects.DatasetProperties{Name: aspects.Ptr("plain name"), CustomProperties: map[string]string{"k": "v"}},
			&aspects.DatasetProperties{Description: aspects.Ptr("pointer")},
			nilProps, nil, aspects.Status{Removed: true},
			aspects.UpstreamLineage{FineGrainedLineages: []aspects.FineGrainedLineage{{ConfidenceScore: &nan}}},
			aspects.UpstreamLineage{Upstreams: []aspects.Upstream{{Dataset: "urn:li:dataset:(urn:li:dataPlatform:hive,up,PROD)"}}},
			RawAspect{Name: "subTypes", JSON: []byte(`{"typeNames":["a"]}`)},
			&RawAspect{Name: "datasetProperties", JSON: []byte(`{"description":"raw"}`)},
		},
		keys:     []aspects.Aspect{nil, RawAspect{Name: "datasetKey", JSON: []byte(`{"name":"x"}`)}},
		sms:      []*aspects.SystemMetadata{nil, {RunID: aspects.Ptr("run-1")}, {LastObserved: 5}},
		headers:  []map[string]string{nil, {"If-None-Match": "*"}, {}, {"X-Other": "1"}},
		contents: []string{"", ContentTypeJSON, ContentTypeJSONPatch, "text/odd"},
	}
}

// proposal returns the proposal bytes c, d and e pick: c from the lists
// usual proposals vary in (URN, aspect name, aspect value), d and e from
// the others (0 mostly: the usual value): d the entity type, change type
// and headers, e's low bits the key aspect, system metadata and content
// type; e's high bits pick the aspect value with c's.
func (f *shapeFields) proposal(c, d, e byte) Proposal {
	pick := func(n int, v byte) int { return int(v) % n }
	p := Proposal{
		URN:        f.urns[pick(len(f.urns), c&7)],
		AspectName: f.names[pick(len(f.names), c>>3&7)],
		Aspect:     f.values[pick(len(f.values), c>>6|e>>5<<2)],
		ChangeType: Upsert,
	}
	if d != 0 {
		p.EntityType = f.types[pick(len(f.types), d&3)]
		p.ChangeType = f.changes[pick(len(f.changes), d>>2&7)]
		p.Headers = f.headers[pick(len(f.headers), d>>5&3)]
	}
	if e&0x1f != 0 {
		p.KeyAspect = f.keys[pick(len(f.keys), e&1)]
		p.SystemMetadata = f.sms[pick(len(f.sms), e>>1&3)]
		p.ContentType = f.contents[pick(len(f.contents), e>>3&3)]
	}
	return p
}

// slotMate returns an aspect name other than name whose usualShape falls
// in name's slot (see shapeSlot).
func slotMate(name string) string {
	for i := 0; ; i++ {
		if m := fmt.Sprintf("mate%d", i); shapeSlot(m) == shapeSlot(name) {
			return m
		}
	}
}

// wantEncodePart returns the result and the encoding of proposal p, at
// index i of a call at now, by the general path: checkURN, then
// appendProposal, then the size check.
func wantEncodePart(r *REST, p *Proposal, i int, now int64) (Result, []byte) {
	want := Result{Index: i, URN: p.urnString(), Aspect: p.aspectName()}
	if err := p.checkURN(want.URN); err != nil {
		want.Status, want.Err = Rejected, err
		return want, nil
	}
	if p.changeType() == Delete {
		return want, nil
	}
	enc, err := appendProposal(nil, p, now)
	if err != nil {
		want.Status, want.Err = Rejected, err
		return want, nil
	}
	if size := len(enc) + len(singlePrefix) + len(r.suffix); size > r.maxBytes {
		want.Status, want.Err = Rejected, &TooLargeError{Index: i, URN: want.URN, Aspect: want.Aspect, Size: size, Limit: r.maxBytes}
		return want, nil
	}
	return want, enc
}

// checkEncodeCall encodes ps in one encodePart call at now, after the
// bytes of buf, and fails t where a proposal's result, encoding or replay
// flag differs from the general path's (wantEncodePart).
func checkEncodeCall(t *testing.T, r *REST, ps []Proposal, now int64, buf []byte) {
	t.Helper()
	items, results, offsets := make([]encoded, len(ps)), make([]Result, len(ps)), make([][2]int, len(ps))
	r.encodePart(ps, 0, items, results, offsets, now, &buf)
	nameResults(results, ps)
	for i := range ps {
		p := &ps[i]
		want, wantEnc := wantEncodePart(r, p, i, now)
		got := results[i]
		var enc []byte
		if o := offsets[i]; o[1] > o[0] {
			enc = buf[o[0]:o[1]]
			if buf[o[1]] != ',' {
				t.Errorf("proposal %d (%#v): encoding not followed by a comma", i, *p)
			}
		}
		if got.Index != want.Index || got.URN != want.URN || got.Aspect != want.Aspect || got.Status != want.Status ||
			fmt.Sprint(got.Err) != fmt.Sprint(want.Err) {
			t.Errorf("proposal %d (%#v) at %d:\nresult %+v\nwant   %+v", i, *p, now, got, want)
		}
		if !bytes.Equal(enc, wantEnc) {
			t.Errorf("proposal %d (%#v) at %d:\nwrote %s\nwant  %s", i, *p, now, enc, wantEnc)
		}
		if items[i].unsafe != !p.replaySafe() {
			t.Errorf("proposal %d (%#v): unsafe %v", i, *p, items[i].unsafe)
		}
	}
}

// shapeREST returns the REST of a shape fuzz test: with a limit other than
// 0, one some of the fuzzed proposals are too large for.
func shapeREST(t *testing.T, limit uint16) *REST {
	t.Helper()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	if limit != 0 {
		r.maxBytes = 400 + int(limit)%300 // some proposals too large
	}
	return r
}

// FuzzEncodePartShapes holds encodePart's usual path (usualShape, found
// once for the proposals of a shape and kept by the REST) to the general
// path: calls of proposals of every kind, one after the other on one REST
// at two observation times, so that the shapes kept from earlier
// proposals, calls and times meet proposals they do not fit (another
// aspect type, name, change or content type, a nil pointer, members of
// their own, a failing aspect, a proposal too large).
func FuzzEncodePartShapes(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 0, 0}, uint16(0))
	f.Add([]byte{0, 0, 0, 0x40, 0, 0, 0x80, 0, 0, 0, 0, 0x08, 0, 0, 0}, uint16(300))
	f.Add([]byte{0, 0, 0, 1, 0, 0, 0x28, 0, 0, 0, 0, 0x10, 0, 0x20, 0, 0, 0, 2}, uint16(0))
	f.Add([]byte{0x40, 0, 0, 0x30, 0, 0, 0x38, 0x0c, 0, 0x08, 0, 1, 0x41, 0, 0, 0x80, 0, 0}, uint16(1))
	fields := newShapeFields(f)
	f.Fuzz(func(t *testing.T, in []byte, limit uint16) {
		r := shapeREST(t, limit)
		var ps []Proposal
		for i := 0; i+2 < len(in); i += 3 {
			ps = append(ps, fields.proposal(in[i], in[i+1], in[i+2]))
		}
		half := len(ps) / 2
		checkEncodeCall(t, r, ps[:half], 1700000000000, nil)
		checkEncodeCall(t, r, ps[half:], 1700000000000, []byte("x"))
		checkEncodeCall(t, r, ps, 1700000000001, nil)
	})
}

// TestEncodePartShapes is FuzzEncodePartShapes over every proposal the
// first byte picks (URN, aspect name, aspect value), usual in its other
// members or not in each of them, between usual proposals and before one
// alike but for those members, on one REST.
func TestEncodePartShapes(t *testing.T) {
	t.Parallel()
	fields := newShapeFields(t)
	r := shapeREST(t, 0)
	shapeCalls(fields, func(ps []Proposal, cu int) {
		checkEncodeCall(t, r, ps, 1700000000000+int64(cu%3), nil)
	})
}

// shapeCalls calls check with the calls TestEncodePartShapes and
// TestEncodeV3PartShapes encode: for every proposal the first byte picks
// (URN, aspect name, aspect value: their combination cu of URN and name),
// usual in its other members or not in each of them, that proposal
// between usual proposals and before one alike but for those members.
func shapeCalls(fields *shapeFields, check func(ps []Proposal, cu int)) {
	others := [][2]byte{{0, 0}, {1, 0}, {2, 0}, {0x04, 0}, {0x08, 0}, {0x0c, 0}, {0x10, 0}, {0x14, 0}, {0x20, 0}, {0x40, 0},
		{0, 1}, {0, 2}, {0, 4}, {0, 0x08}, {0, 0x10}, {0, 0x18}}
	for v := range len(fields.values) {
		for cu := range len(fields.urns) * len(fields.names) {
			// c and e's high bits pick URN u, name n and value v.
			c := byte(cu%len(fields.urns) | cu/len(fields.urns)<<3 | v&3<<6)
			e := byte(v >> 2 << 5)
			for _, o := range others {
				for _, c2 := range []byte{0, 0x40, 0x80, c} {
					check([]Proposal{fields.proposal(0, 0, 0), fields.proposal(c, o[0], o[1]|e), fields.proposal(c2, 0, 0),
						fields.proposal(c, 0, e), fields.proposal(c, o[0], o[1]|e)}, cu)
				}
			}
		}
	}
}

// TestUsualShapeNames holds usualOf's comparison of aspect names
// (sameName) to the general path and to the shape it finds: a name of the
// same length but other text (not the aspect's own) right after the
// aspect's own name is written as the general path writes it, and the
// own name in a string of other bytes finds the shape its constant made.
func TestUsualShapeNames(t *testing.T) {
	t.Parallel()
	r, err := NewREST("http://localhost:8080")
	if err != nil {
		t.Fatal(err)
	}
	u := urn.MustParse("urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)")
	v := aspects.DatasetProperties{Description: aspects.Ptr("d")}
	own := "datasetProperties"
	clone := strings.Clone(own)
	other := "datasetPropertieS" // own's length, not its text
	var ps []Proposal
	for _, name := range []string{own, other, own, clone, other, clone} {
		ps = append(ps, Proposal{URN: u, AspectName: name, Aspect: v})
	}
	checkEncodeCall(t, r, ps, 1700000000000, nil)

	var f shapeFinder
	for _, name := range []string{own, clone} {
		p := Proposal{URN: u, AspectName: name, Aspect: v}
		if s, _ := r.usualOf(&p, 1700000000002, &f); s == nil {
			t.Fatalf("name %q: not usual", name)
		}
	}
	if f.builds != 1 {
		t.Errorf("the name's constant and its clone made %d shapes, want 1", f.builds)
	}
}
