package emitter

import (
	"reflect"
	"slices"

	"github.com/catalogkit/datahub-go/aspects"
	"github.com/catalogkit/datahub-go/internal/hooks"
	"github.com/catalogkit/datahub-go/urn"
)

// The usual proposal of a call (a plain dataset URN, an aspect of package
// aspects, no key aspect, system metadata or headers of its own) is
// written from pieces found once for the proposals of its shape: the head
// up to the URN's text, the URN's text, the piece from the URN's closing
// quote to the aspect's value (its change type and aspect name), the
// aspect's escaped JSON, and the piece after it (the content type and the
// system metadata of the call's millisecond, then the comma that follows
// an encoding). The general path (appendProposalOf) writes the same bytes
// piece by piece, deciding each again for every proposal;
// TestEncodePartMatchesCheck and FuzzEncodePartShapes hold the two
// together. A shape also holds the pieces of the OpenAPI batch element
// of its proposals, when they are UPSERTs of JSON: `{"urn":"`, the URN's
// text, `","<name>":{"value":`, the aspect's JSON, and the system
// metadata with the ends of the element and a comma; encodeV3Part writes
// them instead of its general path, as TestEncodeV3PartShapes and
// FuzzEncodeV3PartShapes check.

// usualShape is what every usual proposal of one shape shares: the key
// the shape is known by, and what its encoding writes around the URN's
// text and the aspect's value. It is never changed once made.
type usualShape struct {
	// The key: the aspect's dynamic type, the aspect name (the AspectName
	// member), the change type (p.changeType(), by its code in
	// writeChanges), the ContentType member as given, and the
	// observation time in Unix milliseconds.
	typ         reflect.Type
	name        string
	ct          uint8
	contentType string
	ms          int64

	// usual reports whether the proposals of the key are usual ones:
	// their aspect type is one of package aspects that writes its own
	// JSON for the name (findShape's own), and their change type one
	// checkURN passes without the URN being built (see plainWriteOf).
	// The rest below is set only then.
	usual bool
	// nilable says that the type can hold nil (a pointer): such an
	// aspect is checked with isNil, as findShape checks it.
	nilable bool
	// unsafe is the encoded items' unsafe (see replaySafe).
	unsafe bool
	// mid is what follows the URN's text up to the aspect's value:
	// `","changeType":"UPSERT","aspectName":"<name>","aspect":{"value":`.
	mid []byte
	// tail is what follows the value: `,"contentType":"application/json"}`,
	// the system metadata of ms, the end of the object and a comma.
	tail []byte

	// v3 reports whether the proposals of the key are usual ones of the
	// OpenAPI encoding too: usual ones whose change type is UPSERT and
	// content type JSON (encodeV3Part then also asks for no headers of
	// the emit mode's). v3mid and v3tail are set only then.
	v3 bool
	// v3mid is what follows the URN's text in an OpenAPI batch element
	// up to the aspect's value: `","<name>":{"value":`.
	v3mid []byte
	// v3tail is what follows the value there: `,"systemMetadata":`, the
	// system metadata of ms, the ends of the element and a comma.
	v3tail []byte
}

// shapeSlots is the number of usualShapes a REST keeps (see
// REST.shapes), one for each slot the aspect names fall in.
const shapeSlots = 16

// maxShapeBuilds is the most usualShapes one encodePart makes: past it,
// proposals whose shape is not kept take the general path, so that
// proposals that alternate between shapes of one slot cost no more than
// the general path, plus the first builds.
const maxShapeBuilds = 8

// shapeSlot returns the slot of the usualShape of aspect name (not empty).
func shapeSlot(name string) int {
	return (len(name) + int(name[0]) + 3*int(name[len(name)-1])) % shapeSlots
}

// shapeFinder is what usualOf keeps between the proposals of one
// encodePart call.
type shapeFinder struct {
	// last is the shape usualOf found last: the next proposal's, mostly,
	// found without its slot.
	last *usualShape
	// builds counts the shapes made (see maxShapeBuilds).
	builds int
}

// usualOf returns the usualShape of p, a proposal at nowMillis, and the
// text of its URN, when p is a usual proposal; nil otherwise. The shape
// is f.last, or read from r.shapes, or made (counted in f.builds, at most
// maxShapeBuilds) and kept there.
func (r *REST) usualOf(p *Proposal, nowMillis int64, f *shapeFinder) (*usualShape, string) {
	ct := writeChange(p.ChangeType)
	if ct == 0 || p.Aspect == nil || p.AspectName == "" || p.KeyAspect != nil || p.SystemMetadata != nil || len(p.Headers) != 0 ||
		(p.EntityType != "" && p.EntityType != urn.TypeDataset) {
		return nil, ""
	}
	text, plain, ok := hooks.DatasetText(p.URN)
	if !ok || !plain {
		return nil, ""
	}
	typ := reflect.TypeOf(p.Aspect)
	s := f.last
	if s == nil || !s.fits(typ, p, ct, nowMillis) {
		slot := &r.shapes[shapeSlot(p.AspectName)]
		s = slot.Load()
		if s == nil || !s.fits(typ, p, ct, nowMillis) {
			if f.builds >= maxShapeBuilds {
				return nil, ""
			}
			f.builds++
			s = newUsualShape(p, typ, ct, nowMillis)
			slot.Store(s)
		}
		f.last = s
	}
	if !s.usual || (s.nilable && isNil(p.Aspect)) {
		return nil, ""
	}
	return s, text
}

// fits reports whether s is the shape of p, whose aspect is of type typ
// and change type writeChanges[ct], at nowMillis: whether its key is
// theirs.
func (s *usualShape) fits(typ reflect.Type, p *Proposal, ct uint8, nowMillis int64) bool {
	return s.typ == typ && s.name == p.AspectName && s.ct == ct && sameString(s.contentType, p.ContentType) && s.ms == nowMillis
}

// newUsualShape returns the usualShape of p (its aspect not nil, its
// AspectName set), whose aspect is of type typ and change type
// writeChanges[ct], at nowMillis. Its pieces
// are written by the functions appendProposalOf writes them with.
func newUsualShape(p *Proposal, typ reflect.Type, ct uint8, nowMillis int64) *usualShape {
	s := &usualShape{typ: typ, name: p.AspectName, ct: ct, contentType: p.ContentType, ms: nowMillis}
	switch typ.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface:
		s.nilable = true
		if isNil(p.Aspect) {
			return s // not usual: another proposal of the key finds out
		}
	}
	f := findShape(p, "")
	if !f.own || f.name != s.name || f.ct != writeChanges[ct] {
		return s
	}
	s.usual, s.unsafe = true, !replaySafe(f.ct, nil)
	// The pieces share one array.
	b := append(make([]byte, 0, 480+2*len(f.name)), '"')
	b = appendChangeType(b, f.ct)
	b = append(b, `,"aspectName":"`...)
	b = append(b, f.name...)
	b = append(b, `","aspect":{"value":`...)
	n := len(b)
	b = appendContentType(b, p.contentType())
	b = append(b, `,"systemMetadata":`...)
	b = defaultSystemMetadata(b, nowMillis)
	b = append(b, '}', ',')
	s.mid, s.tail = b[:n:n], b[n:len(b):len(b)]
	if f.ct != Upsert || p.contentType() != ContentTypeJSON {
		return s
	}
	// The OpenAPI pieces, as encodeV3Part's general path writes them.
	s.v3 = true
	n = len(b)
	b = append(b, `","`...)
	b = append(b, f.name...)
	b = append(b, `":{"value":`...)
	m := len(b)
	b = append(b, `,"systemMetadata":`...)
	b = defaultSystemMetadata(b, nowMillis)
	b = append(b, '}', '}', ',')
	s.v3mid, s.v3tail = b[n:m:m], b[m:]
	return s
}

// writeChanges are the change types plainWriteOf passes (all but
// Delete), by their code in usualShape's key (see writeChange); 0 is
// none.
var writeChanges = [...]ChangeType{1: Upsert, 2: Patch, 3: Create, 4: CreateEntity, 5: Update, 6: Restate}

// writeChange returns the code in writeChanges of p.changeType() for a
// proposal whose ChangeType member is ct, 0 when that is Delete or not a
// change type: a number, so that usualOf compares it without a call.
func writeChange(ct ChangeType) uint8 {
	switch ct {
	case "", Upsert:
		return 1
	case Patch:
		return 2
	case Create:
		return 3
	case CreateEntity:
		return 4
	case Update:
		return 5
	case Restate:
		return 6
	}
	return 0
}

// sameString is a == b, without a call for two empty strings.
func sameString(a, b string) bool { return len(a) == len(b) && (len(a) == 0 || a == b) }

// plainDatasetHeadArray is plainDatasetHead.
var plainDatasetHeadArray = [len(plainDatasetHead)]byte([]byte(plainDatasetHead))

// v3DatasetHead starts an OpenAPI batch element of a dataset whose URN
// text is plain, up to that text (see appendV3DatasetHead).
const v3DatasetHead = `{"urn":"`

// appendUsual appends the encoding of p, a usual proposal of shape s whose
// URN's text is text, and the comma after it, to dst. It reports false
// when p's aspect fails to encode, or encodes to what is not a JSON object
// or array: the general path then finds the error.
func (s *usualShape) appendUsual(dst []byte, p *Proposal, text string) ([]byte, bool) {
	n := len(dst)
	dst = slices.Grow(dst, len(plainDatasetHead))[:n+len(plainDatasetHead)]
	*(*[len(plainDatasetHead)]byte)(dst[n:]) = plainDatasetHeadArray // moved inline, without a call
	dst = append(dst, text...)
	dst = append(dst, s.mid...)
	start := len(dst)
	dst, err := aspects.AppendJSONString(dst, p.Aspect)
	return closeUsual(dst, start+1, err, s.tail) // the value's first byte follows the string's quote
}

// appendUsualV3 is appendUsual for the OpenAPI batch element of p (s.v3
// set).
func (s *usualShape) appendUsualV3(dst []byte, p *Proposal, text string) ([]byte, bool) {
	dst = append(dst, v3DatasetHead...)
	dst = append(dst, text...)
	dst = append(dst, s.v3mid...)
	start := len(dst)
	dst, err := aspects.AppendJSON(dst, p.Aspect)
	return closeUsual(dst, start, err, s.v3tail)
}

// closeUsual ends the encoding of a usual proposal, dst, whose aspect's
// JSON starts at dst[at] and was appended with error err: it appends
// tail when the aspect encoded to a JSON object or array, and reports
// false otherwise.
func closeUsual(dst []byte, at int, err error, tail []byte) ([]byte, bool) {
	if err != nil || len(dst) <= at || (dst[at] != '{' && dst[at] != '[') {
		return nil, false
	}
	return append(dst, tail...), true
}
