package pdl

import "slices"

// MaxMarks is the number of marks a [Marks] keeps.
const MaxMarks = 40

// Mark is a place that a walk of a marked [Held] (see [Held.Marking])
// noted: the value of a marked field, or a marked record, as the text
// data[Start:End] of the walk's data (a string with its quotes), with the
// value's [Hash] when the walk's own hash is not 0 (else Hash is not to be
// read).
type Mark struct {
	// ID is the number Marking gave the mark's path.
	ID         uint8
	Start, End int
	Hash       uint64
}

// Marks are the marks of one walk, in the order in which the walk came to
// the end of their values (so a record's marked fields come before the
// record's own mark). N counts all the walk noted; those past MaxMarks are
// not kept.
type Marks struct {
	N    int
	List [MaxMarks]Mark
}

// Kept returns the marks m holds; false when the walk noted more than
// MaxMarks.
func (m *Marks) Kept() ([]Mark, bool) {
	if m.N > len(m.List) {
		return nil, false
	}
	return m.List[:m.N], true
}

// Marking returns a copy of h whose walks by [Held.ConformsCompactHashMarks]
// note the place of each value at one of paths: paths[i] is given the ID
// i+1. A path is the names of the fields from h's record down, joined by
// '/', with '*' for the items of an array or the values of a map; the path
// of a field marks its value, the path of an array's items, when they are
// records, marks each of them. The copy checks what h checks. False when a
// path names no such place, or there are more than 255 paths.
func (h Held) Marking(paths ...string) (Held, bool) {
	if h.rec == nil || len(paths) > 255 {
		return Held{}, false
	}
	root := &cType{kind: KindRecord, name: h.rec.name, rec: h.rec}
	for i, p := range paths {
		var ok bool
		if root, ok = withMark(root, splitPath(p), uint8(i+1)); !ok {
			return Held{}, false
		}
	}
	return Held{root.rec}, true
}

// splitPath returns the segments of a '/'-joined path.
func splitPath(p string) []string {
	var segs []string
	for p != "" {
		i := 0
		for i < len(p) && p[i] != '/' {
			i++
		}
		segs = append(segs, p[:i])
		p = p[min(i+1, len(p)):]
	}
	return segs
}

// withMark returns a copy of t whose place at segs carries the mark id,
// copying the records and containers on the way and sharing the rest (as
// withDest does); false when segs names no field or record below t.
func withMark(t *cType, segs []string, id uint8) (*cType, bool) {
	cp := *t
	switch {
	case len(segs) == 0:
		if t.kind != KindRecord || t.rec == nil {
			return nil, false
		}
		r := *t.rec
		r.mark = id
		cp.rec = &r
	case t.kind == KindRecord && t.rec != nil:
		i, ok := t.rec.index[segs[0]]
		if !ok {
			return nil, false
		}
		r := *t.rec
		r.fields = slices.Clone(t.rec.fields)
		if len(segs) == 1 {
			r.fields[i].mark = id
		} else if r.fields[i].typ, ok = withMark(r.fields[i].typ, segs[1:], id); !ok {
			return nil, false
		}
		cp.rec = &r
	case (t.kind == KindArray || t.kind == KindMap) && segs[0] == "*" && t.items != nil:
		var ok bool
		if cp.items, ok = withMark(t.items, segs[1:], id); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	return &cp, true
}

// ConformsCompactHashMarks is [Held.ConformsCompactHash] that also notes
// in marks (from the first) the places of the values h marks (see
// [Held.Marking]) in data; they are to be read only when ok.
func (h Held) ConformsCompactHashMarks(data []byte, mem Memory, marks *Marks) (compact []byte, hash uint64, ascii, ok bool) {
	marks.N = 0
	c := compactor{mem: mem}
	p := jsonParser{data: data, compact: &c, hashing: true, urns: true, marks: marks}
	hash, ascii, ok = p.conformsRootParsed(h.rec)
	if !ok {
		return nil, 0, false, false
	}
	return c.result(data), hash, ascii, true
}

// mark notes the mark id of the value data[start:p.pos] of hash v, when
// the walk notes marks.
func (p *jsonParser) mark(id uint8, start int, v uint64) {
	m := p.marks
	if m == nil {
		return
	}
	if m.N < len(m.List) {
		m.List[m.N] = Mark{ID: id, Start: start, End: p.pos, Hash: v}
	}
	m.N++
}
